import { useEffect, useRef, useState, type FormEvent } from "react";
import { useParams } from "react-router-dom";
import type { LandlordConsentPage as LandlordRequest } from "@contract/deals";
import { PageFrame } from "../../../components/layout/page-frame";
import { FormError, TextAreaField } from "../../../components/ui/field";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { dealStay } from "../../../lib/deal-status";
import { formatRent } from "../../../lib/listings-api";
import { useLandlordDecision, useLandlordRequest } from "../api/deals-api";
import { DEAL_REASON_MAX } from "@contract/deals";

const TITLE = "Consent to a sublease";

/**
 * /landlord-consent/{token}: the landlord's answer to a tenant's request to sublet, without an account
 * (the single-purpose link is the permission; no sign-in is offered). A used or expired link is 410, an
 * unknown one 404: each says so plainly.
 */
export function LandlordConsentPage() {
  const { token = "" } = useParams();
  const query = useLandlordRequest(token);
  if (query.isPending)
    return (
      <PageFrame title={TITLE} width="narrow">
        <PageLoadingInline label="Loading the request" />
      </PageFrame>
    );
  if (query.isError) {
    const status = query.error instanceof ApiError ? query.error.status : 0;
    // A reopened link: the server says what happened to it (answered, how and when; replaced; expired).
    const answered = query.error instanceof ApiError && (query.error.body?.code ?? "").startsWith("answered_");
    const [heading, text] =
      status === 410
        ? [answered ? "You already answered this request" : "This link can no longer be used", errorMessage(query.error, "This link has already been used or has expired.")]
        : status === 404
          ? ["This link is not valid", "Check that the whole link from the email was opened. If it was, the request may have been withdrawn."]
          : ["Something went wrong", errorMessage(query.error, "Could not load the request. Please try again.")];
    return (
      <PageFrame title={TITLE} width="narrow">
        <section className="panel empty-state stack-sm" role="alert">
          <h2>{heading}</h2>
          <p>{text}</p>
          {status !== 410 && status !== 404 && (
            <button type="button" className="button button-primary" onClick={() => void query.refetch()}>
              Try again
            </button>
          )}
        </section>
      </PageFrame>
    );
  }
  return <LandlordRequestView token={token} request={query.data} />;
}

function LandlordRequestView({ token, request: r }: { token: string; request: LandlordRequest }) {
  const decide = useLandlordDecision(token);
  const [declining, setDeclining] = useState(false);
  const [consenting, setConsenting] = useState(false);
  const [reason, setReason] = useState("");
  const [checked, setChecked] = useState(false);
  const done = useRef<HTMLParagraphElement>(null);
  const decided = decide.data ?? null;
  useEffect(() => {
    if (decided) done.current?.focus();
  }, [decided]);
  const reasonError = checked && declining && !reason.trim() ? "Please give a reason for declining." : null;

  const decline = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (!reason.trim() || reason.length > DEAL_REASON_MAX || decide.isPending) return;
    decide.mutate({ decision: "declined", reason: reason.trim() });
  };

  return (
    <PageFrame title={TITLE} width="narrow" lead={`${r.landlord_name ? `Dear ${r.landlord_name}: ` : ""}${r.tenant_name}, your tenant, asks for your consent to sublet the place below.`}>
      <div className="stack">
        <p className="panel notice notice-pending">{r.address_note} If you are not the landlord of this place, you can ignore this request.</p>
        <section className="panel stack-sm" aria-labelledby="request-heading">
          <h2 id="request-heading">The request</h2>
          <dl className="details deal-details">
            <div>
              <dt>Tenant (on your lease)</dt>
              <dd>{r.tenant_name}</dd>
            </div>
            <div>
              <dt>Proposed subtenant</dt>
              <dd>{r.subtenant_name}</dd>
            </div>
            <div>
              <dt>Place</dt>
              <dd>{r.listing_address}</dd>
            </div>
            <div>
              <dt>Term of the sublease</dt>
              <dd>{dealStay(r.term, { year: "always" })}</dd>
            </div>
            <div>
              <dt>Monthly rent</dt>
              <dd>{formatRent(r.monthly_rent)}</dd>
            </div>
            <div>
              <dt>Reason</dt>
              <dd>{r.reason ?? "Not given"}</dd>
            </div>
            <div>
              <dt>Tenant's address during the sublease</dt>
              <dd>{r.tenant_address_during_sublease ?? "Not given"}</dd>
            </div>
          </dl>
          <p className="muted">
            The tenant stays responsible to you under the lease; the sublease ends if the lease ends. This link works once and until{" "}
            {new Date(r.expires_at).toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric" })}.
          </p>
        </section>
        {decided ? (
          <p className="panel notice" role="status" tabIndex={-1} ref={done}>
            {decided === "granted" ? "You consented to this sublease. Thank you: the tenant and the subtenant have been told." : "You declined this sublease. The tenant and the subtenant have been told."}
          </p>
        ) : (
          <section className="panel stack-sm" aria-labelledby="answer-heading">
            <h2 id="answer-heading">Your answer</h2>
            {consenting ? (
              // One answer per link: said back in full before it is sent.
              <div className="stack-sm">
                <p>
                  <strong>Confirm your consent:</strong> {r.tenant_name} may sublet {r.listing_address} to {r.subtenant_name} from {dealStay(r.term)}. You cannot change this answer
                  afterwards.
                </p>
                <div className="row row-start">
                  <button type="button" className="button button-primary" autoFocus disabled={decide.isPending} onClick={() => decide.mutate({ decision: "granted" })}>
                    {decide.isPending ? "Saving…" : "Yes, I consent"}
                  </button>
                  <button type="button" className="button button-ghost" disabled={decide.isPending} onClick={() => setConsenting(false)}>
                    Back
                  </button>
                </div>
              </div>
            ) : !declining ? (
              <div className="row row-start">
                <button type="button" className="button button-primary" onClick={() => setConsenting(true)}>
                  Consent…
                </button>
                <button type="button" className="button button-ghost" onClick={() => setDeclining(true)}>
                  Decline…
                </button>
              </div>
            ) : (
              <form className="stack-sm" onSubmit={decline} noValidate>
                <TextAreaField label="Why do you decline?" rows={3} limit={DEAL_REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} error={reasonError} autoFocus />
                <div className="row row-start">
                  <p className="muted">Declining cancels this sublease; you cannot change this answer afterwards.</p>
                  <button type="submit" className="button button-danger" disabled={decide.isPending}>
                    {decide.isPending ? "Saving…" : "Decline the sublease"}
                  </button>
                  <button type="button" className="button button-ghost" onClick={() => setDeclining(false)}>
                    Back
                  </button>
                </div>
              </form>
            )}
            <FormError message={decide.isError ? errorMessage(decide.error, "Could not save your answer. Please try again.") : null} />
          </section>
        )}
      </div>
    </PageFrame>
  );
}

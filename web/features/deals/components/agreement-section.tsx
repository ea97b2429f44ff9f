import { useState } from "react";
import { HASH_LABELS, type Deal } from "@contract/deals";
import { errorMessage } from "../../../lib/api-client";
import { getAgreementPdf, useAgreement } from "../api/deals-api";

const EVENT_TEXTS: Record<string, string> = {
  requested: "requested the sublease",
  accepted: "accepted the request",
  declined: "declined the request",
  cancelled: "cancelled the deal",
  expired: "the request expired",
  viewed: "viewed the agreement",
  landlord_consent_requested: "asked the landlord for consent",
  landlord_consent_not_needed: "stated the lease allows subletting",
  landlord_consent_granted: "the landlord consented",
  landlord_consent_declined: "the landlord declined",
  esign_consent: "agreed to electronic records",
  signed: "signed",
  completed: "both have signed",
  pdf_made: "the signed PDF was made",
};

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/** The agreement both parties read (the same text, its SHA-256), its history, and its PDF. */
export function AgreementSection({ deal }: { deal: Deal }) {
  const agreement = useAgreement(deal, !!deal.agreement);
  const [pdf, setPdf] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const names: Record<string, string> = { [deal.renter.id]: deal.renter.first_name, [deal.lister.id]: deal.lister.first_name };
  // Before both have signed the server makes a draft of the newest version on request.
  const signedByBoth = deal.status !== "accepted" && !!deal.agreement?.renter_signed_at && !!deal.agreement?.lister_signed_at;

  const openPdf = async () => {
    setPdf({ busy: true, error: null });
    try {
      // Fetched with the bearer header, then saved from a blob: URL (a plain link would carry no credential).
      const blob = await getAgreementPdf(deal);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = `campusnest-agreement-${deal.id}${signedByBoth ? "-signed" : "-draft"}.pdf`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setPdf({ busy: false, error: null });
    } catch (err) {
      setPdf({ busy: false, error: errorMessage(err, "Could not get the PDF. Please try again.") });
    }
  };

  return (
    <section className="panel stack-sm" aria-labelledby="agreement-heading">
      <h2 id="agreement-heading">The sublease agreement</h2>
      {agreement.isPending ? (
        <p className="muted">Loading the agreement…</p>
      ) : agreement.isError ? (
        <div className="form-error" role="alert">
          Could not load the agreement: {errorMessage(agreement.error)}{" "}
          <button type="button" className="link-button" onClick={() => void agreement.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <p className="muted">
            Version {agreement.data.version}. Both of you read exactly this text. {HASH_LABELS.text} (its fingerprint, printed in the PDF and the email too):{" "}
            <code className="mono deal-hash">{agreement.data.sha256}</code>
          </p>
          <div className="agreement-text prewrap" role="region" aria-label="Agreement text" tabIndex={0}>
            {agreement.data.text}
          </div>
          {agreement.data.events.length > 0 && (
            <details className="deal-events">
              <summary>History ({agreement.data.events.length})</summary>
              <ol>
                {agreement.data.events.map((e, i) => (
                  <li key={`${e.type}-${e.at}-${i}`}>
                    <time dateTime={e.at}>{when(e.at)}</time>: {e.actor_id && names[e.actor_id] ? `${names[e.actor_id]} ` : ""}{EVENT_TEXTS[e.type] ?? e.type.replace(/_/g, " ")}
                  </li>
                ))}
              </ol>
            </details>
          )}
        </>
      )}
      <div className="row row-start">
        <button type="button" className={`button ${signedByBoth ? "button-primary" : "button-ghost"}`} onClick={() => void openPdf()} disabled={pdf.busy}>
          {pdf.busy ? "Preparing the PDF…" : signedByBoth ? "Download the signed PDF" : "Download a draft PDF"}
        </button>
      </div>
      {pdf.error && (
        <p className="form-error" role="alert">
          {pdf.error}
        </p>
      )}
    </section>
  );
}

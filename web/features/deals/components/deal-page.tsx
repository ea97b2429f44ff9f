import { useEffect, useRef } from "react";
import { Link, useLocation, useParams, useSearchParams } from "react-router-dom";
import type { Deal } from "@contract/deals";
import { PageFrame } from "../../../components/layout/page-frame";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { keepDealOffline, useDeal } from "../../../lib/deals-api";
import { useOffline, useWhenBackOnline } from "../../../lib/online";
import { dealSavedAt, NotSavedOffline } from "../../../lib/saved-deals";
import { CONSENT_LABELS, statusBadge, dealStay, dealTime, nextStep, personName, reasonText, roleIn, wasPaid } from "../../../lib/deal-status";
import { formatRent } from "../../../lib/listings-api";
import { useSession } from "../../../lib/session";
import { DealActions } from "./deal-actions";
import { AgreementSection } from "./agreement-section";
import { LeaseSection } from "./lease-section";
import { LandlordConsentSection } from "./landlord-consent-section";
import { SigningSection } from "./signing-section";
import { Amounts, CancellationPolicy } from "./amounts";
import { CheckoutReturn } from "./checkout-return";
import { DealMoney } from "./deal-money";
import { Receipt } from "./receipt";
import { AfterTheKeys } from "./after-the-keys";
import { DealContact } from "./deal-contact";

/**
 * /deals/{id}: the deal's status and whose step it is, the money (pay, held, "I have the keys", a
 * problem, a late cancellation's decision), the receipt, the agreement, the landlord's consent and signing.
 */
export function DealPage() {
  const { id = "" } = useParams();
  const query = useDeal(id);
  // Shown from this device, or not saved: read again the moment the connection is back.
  useWhenBackOnline(query.refetch);
  if (query.isPending)
    return (
      <PageFrame title="Deal" width="narrow">
        <PageLoadingInline label="Loading the deal" />
      </PageFrame>
    );
  if (query.isError && query.error instanceof NotSavedOffline)
    return (
      <PageFrame title="You're offline" width="narrow">
        <section className="panel empty-state" role="alert">
          <p>{query.error.message}</p>
        </section>
      </PageFrame>
    );
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <PageFrame title={missing ? "Deal not found" : "Deal"} width="narrow">
        <section className="panel empty-state" role="alert">
          <p>{missing ? "This deal does not exist, or it is not yours to see." : errorMessage(query.error, "Could not load this deal.")}</p>
          <div className="row row-start">
            <Link to={paths.profile} className="button button-ghost">
              Your deals
            </Link>
            {!missing && (
              <button type="button" className="button button-primary" onClick={() => void query.refetch()}>
                Try again
              </button>
            )}
          </div>
        </section>
      </PageFrame>
    );
  }
  return <DealView deal={query.data} refetch={query.refetch} />;
}

function DealView({ deal, refetch }: { deal: Deal; refetch: () => Promise<{ data?: Deal | undefined }> }) {
  const [search] = useSearchParams();
  const outcome = search.get("paid") === "1" ? "paid" : search.get("checkout") === "cancelled" ? "cancelled" : null;
  // A link to the receipt (the card's, the profile's) lands on it once the deal is shown.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === "#receipt") document.getElementById("receipt")?.scrollIntoView?.();
  }, [hash]);
  const { session } = useSession();
  const me = session!.user.id;
  const role = roleIn(deal, me);
  const step = nextStep(deal, me);
  const statusLine = useRef<HTMLParagraphElement>(null);
  const focusStatus = () => statusLine.current?.focus();
  const other = role === "renter" ? deal.lister : deal.renter;
  const reason = reasonText(deal.status_reason);
  const paying = deal.actions.includes("checkout");
  // Read offline from this device: when it was saved. Online, an active deal's agreement and signed PDF are kept too (docs/decisions/042).
  const offline = useOffline();
  const savedAt = offline ? dealSavedAt(deal.id) : null;
  useEffect(() => {
    if (!offline) void keepDealOffline(deal);
  }, [deal, offline]);

  return (
    <PageFrame title={`Deal: ${deal.listing_title}`} hideHeading width="narrow">
      <div className="deal-page stack">
        <header className="panel stack-sm deal-head">
          <p className="deal-card-kicker">{role === "renter" ? `Your sublease from ${other.first_name}` : `${other.first_name}'s sublease of your place`}</p>
          <h1 className="deal-title">
            {deal.listing_id ? <Link to={paths.listing(deal.listing_id)}>{deal.listing_title}</Link> : deal.listing_title}
          </h1>
          <p>
            <span className={statusBadge(deal, me).className}>{statusBadge(deal, me).label}</span>
          </p>
          {/* Whose step it is, announced when it changes. */}
          <p className={`deal-next deal-next-${step.whose}`} role="status" ref={statusLine} tabIndex={-1}>
            {step.whose === "you" ? <strong>Your step: </strong> : step.whose === "none" ? null : <strong>Next: </strong>}
            {step.text}
          </p>
          {/* The viewer's own ID check is the step (from the request on): the way to do it, right here. */}
          {deal.waiting_for.step === "id_verification" && deal.waiting_for.party === role && (
            <p>
              <Link to={paths.verification} className="button button-primary">
                Verify your identity
              </Link>
            </p>
          )}
          {reason && deal.status_reason && !step.text.includes(reason) && <p className="muted">Reason: {reason}</p>}
          {savedAt !== null && <p className="muted">{savedAt ? `Saved on this device on ${dealTime(savedAt)}` : "Saved on this device"}; it updates when you're back online.</p>}
          <DealMoney deal={deal} me={me} place="page" onDone={focusStatus} />
          <DealActions deal={deal} me={me} cancelFor="both" onDone={focusStatus} />
        </header>

        {role === "renter" && <CheckoutReturn deal={deal} outcome={outcome} refetch={refetch} />}
        <Receipt deal={deal} />

        <section className="panel stack-sm" aria-labelledby="deal-terms-heading">
          <h2 id="deal-terms-heading">The terms</h2>
          <dl className="details deal-details">
            <div>
              <dt>Renter (subtenant)</dt>
              <dd>{personName(deal.renter)}</dd>
            </div>
            <div>
              <dt>Lister (tenant)</dt>
              <dd>{personName(deal.lister)}</dd>
            </div>
            <div>
              <dt>Stay</dt>
              <dd>{dealStay(deal)}</dd>
            </div>
            <div>
              <dt>Monthly rent</dt>
              <dd>{formatRent(deal.monthly_rent)}</dd>
            </div>
            <div>
              <dt>Address</dt>
              <dd>{deal.address}</dd>
            </div>
            <div>
              <dt>Landlord consent</dt>
              <dd>{CONSENT_LABELS[deal.landlord_consent.status]}</dd>
            </div>
          </dl>
          {deal.status === "requested" && <p className="muted">The exact address is shared once the request is accepted.</p>}
          {/* The renter's Pay box above shows these itself. */}
          {!paying && !wasPaid(deal) && deal.status !== "declined" && deal.status !== "cancelled" && deal.status !== "expired" && (
            <>
              <h3>The first payment, through CampusNest</h3>
              <Amounts deal={deal} />
              <CancellationPolicy role={role} />
            </>
          )}
          {wasPaid(deal) && <CancellationPolicy role={role} />}
        </section>

        {role && deal.status !== "requested" && <DealContact deal={deal} role={role} />}
        {role === "lister" && <LandlordConsentSection deal={deal} onDone={focusStatus} />}

        {role && <AfterTheKeys deal={deal} role={role} onDone={focusStatus} />}
        {deal.agreement && <AgreementSection deal={deal} />}
        {role && <LeaseSection deal={deal} role={role} />}
        {role && <SigningSection deal={deal} role={role} onSigned={focusStatus} />}
      </div>
    </PageFrame>
  );
}

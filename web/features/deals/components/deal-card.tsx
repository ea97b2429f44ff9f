import { useId, useRef } from "react";
import { Link } from "react-router-dom";
import type { Deal } from "@contract/deals";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import { dealUrl, useDeal } from "../../../lib/deals-api";
import { statusBadge, dealStay, nextStep } from "../../../lib/deal-status";
import { formatRent } from "../../../lib/listings-api";
import { DealActions } from "./deal-actions";
import { DealMoney } from "./deal-money";
import { ReviewSummaryLine } from "../../../components/ui/review-summary";
import { usePublicUser } from "../../../lib/public-user-api";

export interface DealCardProps {
  dealId: string;
  me: string;
  /** How often to read the deal again: the conversation's poll interval, false while its room pushes changes. */
  pollMs: number | false;
}

/** A request to sublease in the thread, as both parties see it: the stay, the rent, the status, the next step and the money. */
export function DealCard({ dealId, me, pollMs }: DealCardProps) {
  const query = useDeal(dealId, pollMs);
  const titleId = useId();
  if (query.isPending)
    return (
      <div className="deal-card" aria-busy="true">
        <p className="muted">Loading the request…</p>
      </div>
    );
  if (query.isError)
    return (
      <div className="deal-card" role="alert">
        <p>{errorMessage(query.error, "Could not load this request.")}</p>
        <button type="button" className="link-button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  return <DealCardBody deal={query.data} me={me} titleId={titleId} />;
}

function DealCardBody({ deal, me, titleId }: { deal: Deal; me: string; titleId: string }) {
  const status = useRef<HTMLParagraphElement>(null);
  const step = nextStep(deal, me);
  const mine = deal.renter.id === me;
  // The lister reads the renter's reviews as a renter (docs/decisions/040) before answering the request.
  const renter = usePublicUser(mine ? undefined : deal.renter.id);
  return (
    <article className={`deal-card deal-card-${deal.status}`} aria-labelledby={titleId}>
      <p className="deal-card-kicker">{mine ? "Your request to sublease" : `${deal.renter.first_name}'s request to sublease`}</p>
      {renter.data && (
        <p className="deal-card-reviews">
          <ReviewSummaryLine summary={renter.data.renter_review_summary} label={`${deal.renter.first_name}'s reviews as a renter`} />
        </p>
      )}
      <h3 id={titleId} className="deal-card-title">
        {deal.listing_id ? <Link to={paths.listing(deal.listing_id)}>{deal.listing_title}</Link> : deal.listing_title}
      </h3>
      <dl className="deal-facts">
        <div>
          <dt>Stay</dt>
          <dd>{dealStay(deal)}</dd>
        </div>
        <div>
          <dt>Rent</dt>
          <dd>{formatRent(deal.monthly_rent)} / month</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={statusBadge(deal, me).className}>{statusBadge(deal, me).label}</span>
          </dd>
        </div>
      </dl>
      {/* Announced when it changes (the other party accepted, declined, signed). */}
      <p className={`deal-next deal-next-${step.whose}`} role="status" ref={status} tabIndex={-1}>
        {step.whose === "you" && <strong>Your step: </strong>}
        {step.text}
      </p>
      <DealMoney deal={deal} me={me} place="card" onDone={() => status.current?.focus()} />
      <DealActions deal={deal} me={me} cancelFor="renter" onDone={() => status.current?.focus()} />
      <Link to={dealUrl(deal.id)} className="deal-card-open">
        Open the deal<span className="visually-hidden">: {deal.listing_title}</span>
      </Link>
    </article>
  );
}

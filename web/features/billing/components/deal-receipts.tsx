import { Link } from "react-router-dom";
import type { Deal } from "@contract/deals";
import { formatMomentDate } from "@contract/dates";
import { errorMessage } from "../../../lib/api-client";
import { dealUrl, useMyDeals } from "../../../lib/deals-api";
import { dealStay, formatMoney, moneyLine, wasPaid } from "../../../lib/deal-status";

/**
 * Billing's deal receipts: every deal the student paid, or was paid for, read from `GET deals` (both roles,
 * newest first), each with what was paid, when, and its receipt on the deal page. Dates with their year (a bill).
 */
export function DealReceipts({ me }: { me: string }) {
  const query = useMyDeals();
  const paid = (query.data?.pages.flatMap((p) => p.data) ?? []).filter(wasPaid);
  return (
    <section className="stack-sm" aria-labelledby="deal-receipts-heading">
      <h2 id="deal-receipts-heading">Deal receipts</h2>
      {query.isPending ? (
        <p className="muted" role="status">
          Loading your deal receipts…
        </p>
      ) : query.isError && paid.length === 0 ? (
        <p className="form-error" role="alert">
          Could not load your deal receipts: {errorMessage(query.error)}{" "}
          <button type="button" className="link-button" onClick={() => void query.refetch()}>
            Try again
          </button>
        </p>
      ) : paid.length === 0 && !query.hasNextPage ? (
        <p className="muted">No deal receipts yet. When you pay for a sublease, or a renter pays for yours, its receipt is here.</p>
      ) : (
        <>
          {paid.length > 0 && (
            <ul className="billing-list" aria-label="Deal receipts">
              {paid.map((d) => (
                <DealReceiptRow key={d.id} deal={d} me={me} />
              ))}
            </ul>
          )}
          {query.hasNextPage && (
            <button type="button" className="button button-ghost" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {query.isFetchingNextPage ? "Loading…" : "Show older deals"}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function DealReceiptRow({ deal: d, me }: { deal: Deal; me: string }) {
  const p = d.payment;
  const renting = d.renter.id === me;
  const paidOn = formatMomentDate(p.paid_at, { year: "always" });
  const titleId = `deal-receipt-${d.id}`;
  return (
    <li className="billing-row billing-row-receipt">
      <div className="billing-row-text">
        <span id={titleId} className="billing-row-title">
          {d.listing_title}
        </span>
        <span className="muted">{dealStay(d, { year: "always" })}</span>
        <span className="billing-row-detail">
          {renting
            ? `You paid ${formatMoney(p.total_cents, p.currency)} (first month's rent ${formatMoney(p.rent_cents, p.currency)} and service fee ${formatMoney(p.fee_cents, p.currency)}) on ${paidOn}.`
            : `${d.renter.first_name} paid the first month's rent, ${formatMoney(p.rent_cents, p.currency)}, on ${paidOn}.`}
          {` ${moneyLine(d, me) ?? ""}`}
        </span>
      </div>
      <div className="billing-row-actions">
        <Link to={`${dealUrl(d.id)}#receipt`} className="button button-ghost" aria-describedby={titleId}>
          Receipt
        </Link>
      </div>
    </li>
  );
}

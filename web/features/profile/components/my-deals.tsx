import { Link } from "react-router-dom";
import type { Deal } from "@contract/deals";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import { dealUrl, useMyDeals } from "../../../lib/deals-api";
import { statusBadge, dealStay, formatMoney, moneyLine, nextStep, wasPaid } from "../../../lib/deal-status";
import { useSession } from "../../../lib/session";

/** The profile's "Deals": the user's deals as renter and as lister, each with its status, next step and money. */
export function MyDeals() {
  const { session } = useSession();
  const me = session!.user.id;
  const query = useMyDeals();
  const deals = query.data?.pages.flatMap((p) => p.data) ?? [];
  const renting = deals.filter((d) => d.renter.id === me);
  const listing = deals.filter((d) => d.lister.id === me);
  return (
    <section className="panel stack-sm full-row" aria-labelledby="deals-heading">
      <h2 id="deals-heading">Deals</h2>
      {query.isPending ? (
        <p className="muted" role="status">
          Loading your deals…
        </p>
      ) : query.isError && deals.length === 0 ? (
        <div className="form-error" role="alert">
          Could not load your deals: {errorMessage(query.error)}{" "}
          <button type="button" className="link-button" onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      ) : deals.length === 0 ? (
        <p className="muted">
          No deals yet. On a listing you like, choose Request to sublease; requests for your own listings show here too. <Link to={paths.home}>Browse listings</Link>
        </p>
      ) : (
        <div className="deal-groups">
          <DealGroup title="As renter" empty="You have not requested a sublease yet." deals={renting} me={me} />
          <DealGroup title="As lister" empty="No requests for your listings yet." deals={listing} me={me} />
          {query.hasNextPage && (
            <button type="button" className="button button-ghost" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {query.isFetchingNextPage ? "Loading…" : "Show more deals"}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function DealGroup({ title, empty, deals, me }: { title: string; empty: string; deals: Deal[]; me: string }) {
  return (
    <div className="stack-sm">
      <h3>{title}</h3>
      {deals.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="deal-list">
          {deals.map((d) => {
            const step = nextStep(d, me);
            return (
              <li key={d.id} className="deal-list-item">
                <div className="deal-list-head">
                  <Link to={dealUrl(d.id)} className="deal-list-title">
                    {d.listing_title}
                  </Link>
                  <span className={statusBadge(d, me).className}>{statusBadge(d, me).label}</span>
                </div>
                <p className="muted">
                  {dealStay(d)} · with {d.renter.id === me ? d.lister.first_name : d.renter.first_name}
                </p>
                <p className={`deal-next deal-next-${step.whose}`}>
                  {step.whose === "you" && <strong>Your step: </strong>}
                  {step.text}
                </p>
                <DealMoneyLine deal={d} me={me} />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/**
 * The money of one deal in the list: the lister's payouts step (this page's Payouts section), the
 * renter's payment (on the deal page, where the amounts and the policy are shown first), the receipt.
 */
function DealMoneyLine({ deal: d, me }: { deal: Deal; me: string }) {
  const p = d.payment;
  const total = formatMoney(p.total_cents, p.currency);
  if (d.waiting_for.step === "payouts" && d.lister.id === me)
    return (
      <p>
        <a href="#payouts">Set up payouts to get paid</a>
      </p>
    );
  if (d.actions.includes("checkout"))
    return (
      <p>
        <Link to={dealUrl(d.id)} className="button button-primary">
          Pay {total}{" "}
          <span className="visually-hidden">for {d.listing_title}</span>
        </Link>
      </p>
    );
  if (!wasPaid(d)) return null;
  // Who got how much, fee included (the one money line); "you" for the viewer.
  const moved = moneyLine(d, me);
  return (
    <p className="muted">
      Paid {total}
      {moved && ` · ${moved}`} ·{" "}
      <Link to={`${dealUrl(d.id)}#receipt`}>
        Receipt<span className="visually-hidden">: {d.listing_title}</span>
      </Link>
    </p>
  );
}

import type { Deal } from "@contract/deals";
import { dealStay, dealTime, formatMoney, moneyLine, personName, wasPaid } from "../../../lib/deal-status";
import { Amounts } from "./amounts";

/** Where the money stands, for the receipt: who got how much (the one money line, full names), and when. */
export function moneyState(deal: Deal): string {
  const p = deal.payment;
  const line = moneyLine(deal, undefined, { full: true }) ?? "Payment in progress.";
  switch (p.status) {
    case "held":
      return p.held_until ? `${line} Held until ${dealTime(p.held_until)}.` : line;
    case "released":
      return p.released_at ? `${line} Released on ${dealTime(p.released_at)}.` : line;
    case "disputed":
      return `${line} A problem is being looked into.`;
    case "release_failed":
      return `${line} The transfer to ${personName(deal.lister)} is being retried.`;
    default:
      return line;
  }
}

/** The class on <html> while the receipt prints: the print styles then show the receipt alone. */
const PRINTING = "printing-receipt";

/** After payment: the receipt (amounts, fee percentage, when paid, the deal, where the money is), printable. */
export function Receipt({ deal }: { deal: Deal }) {
  if (!wasPaid(deal)) return null;
  const p = deal.payment;
  const print = () => {
    // Printed from here, the receipt alone, titled as a receipt (the browser prints the document's title
    // in its header and names a saved PDF by it); the page's own print (Ctrl+P) prints the whole deal.
    const title = document.title;
    document.documentElement.classList.add(PRINTING);
    document.title = `CampusNest receipt: ${deal.listing_title}, ${personName(deal.renter)} to ${personName(deal.lister)}`;
    window.addEventListener(
      "afterprint",
      () => {
        document.documentElement.classList.remove(PRINTING);
        document.title = title;
      },
      { once: true },
    );
    window.print();
  };
  return (
    <section className="panel stack-sm deal-receipt" id="receipt" aria-labelledby="receipt-heading">
      {/* Printed, the document's title comes first (the brand, then "Receipt"), then the parties. */}
      <p className="receipt-brand" aria-hidden="true">
        CampusNest
      </p>
      <div className="section-head">
        <h2 id="receipt-heading">Receipt</h2>
        <button type="button" className="button button-ghost no-print" onClick={print}>
          Print the receipt
        </button>
      </div>
      <dl className="details deal-details">
        <div>
          <dt>Paid by</dt>
          <dd>{personName(deal.renter)}</dd>
        </div>
        <div>
          <dt>Paid to</dt>
          <dd>{personName(deal.lister)}, through CampusNest</dd>
        </div>
        {p.reference && (
          <div>
            <dt>Payment reference</dt>
            <dd className="mono">{p.reference}</dd>
          </div>
        )}
        <div>
          <dt>Deal</dt>
          <dd className="mono">{deal.id}</dd>
        </div>
        <div>
          <dt>Listing</dt>
          <dd>{deal.listing_title}</dd>
        </div>
        <div>
          <dt>Stay</dt>
          <dd>{dealStay(deal, { year: "always" })}</dd>
        </div>
        {p.paid_at && (
          <div>
            <dt>Paid at</dt>
            <dd>{dealTime(p.paid_at)}</dd>
          </div>
        )}
        <div>
          <dt>Where the money is</dt>
          <dd>{moneyState(deal)}</dd>
        </div>
        {p.refunded_cents > 0 && (
          <div>
            <dt>Refunded to {personName(deal.renter)}</dt>
            <dd>{formatMoney(p.refunded_cents, p.currency)}</dd>
          </div>
        )}
        {p.transferred_cents > 0 && (
          <div>
            <dt>Released to {personName(deal.lister)}</dt>
            <dd>{formatMoney(p.transferred_cents, p.currency)}</dd>
          </div>
        )}
      </dl>
      <Amounts deal={deal} totalLabel="Total paid" />
    </section>
  );
}

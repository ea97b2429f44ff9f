import { addMonths, DEAL_CANCELLATION_POLICY, DEAL_CANCELLATION_POLICY_FOR_LISTER, type Deal } from "@contract/deals";
import { formatMoney, type DealRole } from "../../../lib/deal-status";

/** "5%" or "2.5%": the deal's own fee percentage (its snapshot, never today's setting). */
export const feePercent = (deal: Pick<Deal, "payment">) => `${deal.payment.fee_percent.toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;

/** A stay shorter than a month pays its days' rent rather than a month's (contract firstPayment). */
export const rentLabel = (deal: Pick<Deal, "move_in" | "move_out">) => (deal.move_out < addMonths(deal.move_in, 1) ? "Rent for the stay (by days)" : "First month's rent");

/** The first payment's lines: the rent, the service fee with its percentage, the total. */
export function Amounts({ deal, totalLabel = "Total" }: { deal: Deal; totalLabel?: string }) {
  const p = deal.payment;
  return (
    <dl className="deal-amounts">
      <div>
        <dt>{rentLabel(deal)}</dt>
        <dd>{formatMoney(p.rent_cents, p.currency)}</dd>
      </div>
      <div>
        <dt>Service fee ({feePercent(deal)})</dt>
        <dd>{formatMoney(p.fee_cents, p.currency)}</dd>
      </div>
      <div className="deal-amounts-total">
        <dt>{totalLabel}</dt>
        <dd>{formatMoney(p.total_cents, p.currency)}</dd>
      </div>
    </dl>
  );
}

/** The cancellation policy's lines, in the reader's own words: the renter's as the agreement states them, or the lister's (one source: contract/deals). */
export function CancellationPolicy({ headingLevel = 3, role = "renter" }: { headingLevel?: 2 | 3 | 4; role?: DealRole | null }) {
  const Heading = `h${headingLevel}` as const;
  const lines = role === "lister" ? DEAL_CANCELLATION_POLICY_FOR_LISTER : DEAL_CANCELLATION_POLICY;
  return (
    <div className="deal-policy stack-sm">
      <Heading>If plans change</Heading>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

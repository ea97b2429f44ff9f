import { addMonths, DEAL_CANCELLATION_POLICY, type Deal } from "@contract/deals";
import { formatMoney } from "../../../lib/deal-status";

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

/** The cancellation policy's lines, as the agreement states them (one source: DEAL_CANCELLATION_POLICY). */
export function CancellationPolicy({ headingLevel = 3 }: { headingLevel?: 2 | 3 | 4 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="deal-policy stack-sm">
      <Heading>If plans change</Heading>
      <ul>
        {DEAL_CANCELLATION_POLICY.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

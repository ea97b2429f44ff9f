/**
 * A deal's amounts (docs/decisions/029, 035), in one place: the first payment from the snapshot (one fee
 * default: the deal's own percentage, else the configured one), and how money that went back splits the
 * rent. Integer cents.
 */
import { firstPayment } from "../../contract/deals";
import type { Config } from "../../env";
import type { DealColumns } from "../../db/queries/deals";

type AmountFacts = Pick<DealColumns, "monthly_rent" | "move_in" | "move_out" | "fee_percent">;

/** The fee percentage of a deal: its snapshot, taken at acceptance; before that, the configured default. */
export const feePercentOf = (d: Pick<DealColumns, "fee_percent">, config: Pick<Config, "dealFeePercent">) => d.fee_percent ?? config.dealFeePercent;

/** The first payment a deal asks (rent, fee, total), by its snapshot. */
export const dealAmounts = (d: AmountFacts, config: Pick<Config, "dealFeePercent">) => firstPayment(d.monthly_rent, d.move_in, d.move_out, feePercentOf(d, config));

/**
 * What the lister gets of a paid deal once `refunded` went back to the renter: a partial refund comes out
 * of the rent; a full refund (the fee too) leaves the lister nothing.
 */
export const listerShare = (paid: Pick<DealColumns, "paid_cents" | "paid_rent_cents">, refunded: number) => (refunded >= paid.paid_cents ? 0 : Math.max(0, paid.paid_rent_cents - refunded));

/** What the lister holds now: transferred, less what was reversed. */
export const netTransferred = (d: Pick<DealColumns, "transferred_cents" | "transfer_reversed_cents">) => d.transferred_cents - d.transfer_reversed_cents;

/** What went back to the renter in all, as decided or confirmed (the larger). */
export const refundedOf = (d: Pick<DealColumns, "refund_due_cents" | "refunded_cents">) => Math.max(d.refund_due_cents, d.refunded_cents);

/** The renter's cents as USD ("$945.00"), for words in notices and events. */
export const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

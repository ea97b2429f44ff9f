/**
 * Moving a deal's money to a target (docs/decisions/035): what the renter has been refunded in all, and
 * what the lister holds. Stripe is asked first what it holds (the payment's refunds, the transfer group's
 * transfers), so a resumed claim, a retry days later or a dead worker's half-done move completes exactly
 * what is missing; then, in this order, a reversal of what the lister holds beyond the target, the refund,
 * the transfer. Every call carries a key of the claim's attempt. At no step does what was transferred
 * plus what was refunded exceed what was paid.
 *
 * Without Stripe keys (development only) the money is simulated: the deal's own record is "what Stripe
 * holds", and the events Stripe would send are signed and delivered through the webhook's entry after
 * the claim settles (simulate.ts).
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { DealRow } from "../../db/queries/deals";
import { log } from "../../lib/log";
import { payoutAccountOf } from "../payouts";
import { stripeConfigured } from "../stripe/client";
import { listerShare } from "./amounts";
import { refusedByStripe, stripeHoldings, stripeRefund, stripeReversal, stripeTransfer, type GroupTransfer } from "./stripe";

/** Where the money should be once the move is made. */
export interface MoneyTarget {
  /** The renter's refunds in all (never less than Stripe already refunded), or "keep": no new refund (the bank returned the money). */
  refundTotal: number | "keep";
  /**
   * What the lister holds: exactly the rest of the rent after the refund; at most that (only a surplus comes
   * back: a reversal made outside CampusNest is never paid again); nothing; or what they hold now.
   */
  transfer: "rest_of_rent" | "at_most_rest_of_rent" | "none" | "keep";
}

/** What the deal's money is once moved, as Stripe holds it. */
export interface Moved {
  refunded: number;
  /** Transferred in all, and reversed of it (the lister holds the difference). */
  transferred: number;
  reversed: number;
  /** The newest transfer of the group. */
  transferId: string | null;
  /** Stripe (or the lister's account) refused the transfer: the reason; the lister holds less than the target. */
  transferRefused: string | null;
  /** Stripe refused a reversal (the lister's balance): what the lister still holds beyond the target. */
  unreversed: number;
  /** A surplus was held before this move: transferred + refunded > paid. */
  surplusBefore: number;
  /** The simulated transfer made (development), for its event after the settle. */
  simulatedTransfer?: { id: string; amount: number };
}

/** Whether the move needs Stripe, or development's simulation. */
export const usesStripe = (config: Config) => stripeConfigured(config.stripe);

/** What Stripe holds for the deal (the simulation: our record). */
export async function holdings(config: Config, d: DealRow): Promise<{ refunded: number; transfers: GroupTransfer[] }> {
  if (usesStripe(config) && d.payment_intent_id) return stripeHoldings(config.stripe, d.id, d.payment_intent_id);
  return { refunded: d.refunded_cents, transfers: d.transfer_id ? [{ id: d.transfer_id, amount: d.transferred_cents, reversed: d.transfer_reversed_cents }] : [] };
}

const sum = (transfers: GroupTransfer[]) => ({ gross: transfers.reduce((s, t) => s + t.amount, 0), reversed: transfers.reduce((s, t) => s + t.reversed, 0) });

/** Drives the deal's money to `target` under the claim `attempt`. Unknown failures (network, outage) throw: the claim stays for the jobs. */
export async function moveTo(db: Db, config: Config, d: DealRow, target: MoneyTarget, attempt: string): Promise<Moved> {
  const stripe = usesStripe(config);
  const paid = d.paid_cents;
  const held = await holdings(config, d);
  const before = sum(held.transfers);
  const surplusBefore = Math.max(0, before.gross - before.reversed + held.refunded - paid);
  const refunded = target.refundTotal === "keep" ? held.refunded : Math.min(paid, Math.max(target.refundTotal, held.refunded));
  const netNow = before.gross - before.reversed;
  const share = listerShare(d, refunded);
  const byTarget = { rest_of_rent: share, at_most_rest_of_rent: Math.min(netNow, share), none: 0, keep: netNow };
  const wanted = Math.min(paid - refunded, byTarget[target.transfer]);
  let reversed = before.reversed;
  let unreversed = 0;
  // 1. What the lister holds beyond the target comes back first (newest transfer first).
  let toReverse = Math.max(0, netNow - wanted);
  for (const t of held.transfers) {
    if (toReverse <= 0) break;
    const amount = Math.min(toReverse, t.amount - t.reversed);
    if (amount <= 0) continue;
    if (stripe) {
      try {
        await stripeReversal(config.stripe, d.id, t.id, amount, attempt);
      } catch (err) {
        if (!refusedByStripe(err)) throw err;
        log.warn("deal_reversal_refused", { deal_id: d.id, message: err instanceof Error ? err.message : "refused" });
        unreversed += toReverse;
        break;
      }
    }
    reversed += amount;
    toReverse -= amount;
  }
  // 2. The refund, never beyond what the lister does not hold.
  const net = before.gross - reversed;
  const refundTo = Math.min(refunded, paid - net);
  if (refundTo > held.refunded && d.payment_intent_id && stripe) await stripeRefund(config.stripe, d.id, d.payment_intent_id, refundTo - held.refunded, attempt);
  // 3. The transfer of what the lister is still owed.
  let transferred = before.gross;
  let transferId = held.transfers[0]?.id ?? d.transfer_id;
  let transferRefused: string | null = null;
  let simulatedTransfer: Moved["simulatedTransfer"];
  const owed = Math.min(wanted, paid - refundTo) - net;
  if (owed > 0) {
    const payout = await payoutAccountOf(db, d.lister_id);
    if (!payout || payout.status !== "ready") transferRefused = "The lister's payout account cannot receive transfers";
    else if (stripe) {
      try {
        transferId = await stripeTransfer(config.stripe, { dealId: d.id, destination: payout.stripeAccountId, chargeId: d.charge_id, amount: owed, attempt });
        transferred += owed;
      } catch (err) {
        if (!refusedByStripe(err)) throw err;
        transferRefused = err instanceof Error ? err.message : "refused";
      }
    } else {
      transferId = `tr_test_${d.id}_${attempt}`;
      transferred += owed;
      simulatedTransfer = { id: transferId, amount: owed };
    }
  }
  return { refunded: refundTo, transferred, reversed, transferId, transferRefused, unreversed, surplusBefore, simulatedTransfer };
}

/** What the lister holds after a move. */
export const heldByLister = (m: Pick<Moved, "transferred" | "reversed">) => m.transferred - m.reversed;

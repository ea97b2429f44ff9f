/**
 * Money a deal's state says is due, and money found where it should not be (docs/decisions/029, 035).
 * `settle_due`: what a decision or an event left owed (a refund decided whose call failed, a late or
 * second payment's refund, a transfer to reverse for a card dispute, a won dispute's transfer again).
 * `reconcile`: the jobs compare the deal with what Stripe holds; a surplus (transferred + refunded > paid,
 * or a lister holding more than the rent less what went back) is reversed where Stripe allows, and opened
 * as a staff case either way, never silently. Both are claimed money moves.
 */
import type { DealRow } from "../../db/queries/deals";
import { eventStatement } from "../../db/queries/deals";
import type { Db } from "../../db/client";
import { eventBy } from "../deals";
import type { Effects } from "../deals/process";
import { listerShare, netTransferred } from "./amounts";
import { movedFacts, openCase, runMoney, type MoneyOp } from "./claim";
import { holdings, type MoneyTarget } from "./move";

/** Where the deal's state says the money belongs. */
export function targetOfState(d: DealRow): MoneyTarget {
  // The bank returned the money (a lost dispute): no refund of ours on top, and nothing for the lister.
  if (d.dispute_status === "lost") return { refundTotal: "keep", transfer: "none" };
  const refundTotal = Math.max(d.refund_due_cents, d.refunded_cents);
  if (d.status === "refunded" || d.dispute_status === "open") return { refundTotal, transfer: "none" };
  // A reversal made outside CampusNest (not a won dispute's) is a decision to take the money back: never paid again.
  if (d.payment_status === "released" && (d.transfer_reversed_cents === 0 || d.dispute_status === "won")) return { refundTotal, transfer: "rest_of_rent" };
  return { refundTotal, transfer: "at_most_rest_of_rent" };
}

export const SETTLE_DUE: MoneyOp<Record<string, never>> = {
  name: "settle_due",
  target: (d) => targetOfState(d),
  settle: (d, _input, m, { now }) => ({
    set: {
      ...movedFacts(d, m),
      ...(m.transferRefused && d.payment_status === "released" ? { payment_status: "release_failed" as const, case_reason: "release_failed" as const } : {}),
    },
    statements: [eventStatement(d.id, { type: "money_settled", ...eventBy("system", null, now), details: { op: "settle_due", refunded_cents: m.refunded, transferred_cents: m.transferred - m.reversed } })],
  }),
  after: async (db, fx, d, m) => {
    if (m.transferRefused) openCase(db, fx, d, "release_failed");
  },
};

/** A surplus found: more out than in, or the lister holding more than their share (cents). */
export function surplusOf(d: DealRow, refunded: number, net: number): number {
  const over = Math.max(0, net + refunded - d.paid_cents);
  const beyondShare = d.payment_status === "released" || d.status === "refunded" ? Math.max(0, net - listerShare(d, Math.max(refunded, d.refund_due_cents))) : 0;
  return Math.max(over, beyondShare);
}

/** The jobs' comparison with Stripe: our record brought to Stripe's figures, any surplus taken back (claim.ts opens its case). */
export const RECONCILE: MoneyOp<Record<string, never>> = {
  name: "reconcile",
  target: (d) => ({ ...targetOfState(d), transfer: d.dispute_status === "open" || d.status === "refunded" || d.dispute_status === "lost" ? "none" : "at_most_rest_of_rent" }),
  settle: (d, _input, m, { now }) => ({
    set: { ...movedFacts(d, m), reconciled_at: now },
    statements: [eventStatement(d.id, { type: "money_settled", ...eventBy("system", null, now), details: { op: "reconcile", refunded_cents: m.refunded, transferred_cents: m.transferred - m.reversed } })],
  }),
};

/** Settles what the deal's state says is due (the jobs, and events' follow-ups); refused (a claim, a state) silently. */
export async function settleDue(db: Db, fx: Effects, id: string, nowMs: number): Promise<DealRow | null> {
  return runMoney(db, fx, id, SETTLE_DUE, { role: "system" }, {}, nowMs).catch((err: unknown) => {
    if ((err as { status?: number }).status === 409) return null;
    throw err;
  });
}

/**
 * Compares a deal with what Stripe holds: true when everything agrees. Otherwise the `reconcile` move
 * records Stripe's figures and takes back any surplus (a staff case when there was one).
 */
export async function reconcile(db: Db, fx: Effects, d: DealRow, nowMs: number): Promise<"ok" | "fixed" | "busy"> {
  if (!d.payment_intent_id) return "ok";
  const held = await holdings(fx.config, d);
  const net = held.transfers.reduce((s, t) => s + t.amount - t.reversed, 0);
  const bankReturned = d.dispute_status === "lost";
  const recorded = (bankReturned || held.refunded === d.refunded_cents) && net === netTransferred(d);
  if (recorded && surplusOf(d, bankReturned ? 0 : held.refunded, net) === 0) return "ok";
  try {
    await runMoney(db, fx, d.id, RECONCILE, { role: "system" }, {}, nowMs);
    return "fixed";
  } catch (err) {
    if ((err as { status?: number }).status === 409) return "busy";
    throw err;
  }
}

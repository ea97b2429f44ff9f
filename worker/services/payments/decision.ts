/**
 * A renter's late cancellation after payment (docs/decisions/029, 035): the lister decides within 72
 * hours how much of the rent goes back, with a reason both parties read; silence refunds it in full at
 * the deadline (the jobs' timer). Either way one claimed money move: that much back, the rest of the rent
 * to the lister. What already went back (a refund from Stripe's dashboard) stays back: never below it.
 */
import { PAYMENT_MESSAGES as P, type Deal } from "../../contract/deals";
import type { Db } from "../../db/client";
import { eventStatement, type DealRow } from "../../db/queries/deals";
import type { UserRow } from "../../db/queries/users";
import { validationFailed } from "../../lib/errors";
import { answerFor, eventBy, partyDeal } from "../deals";
import type { Effects } from "../deals/process";
import { purgeListingCache } from "../edge-cache";
import { listerShare, refundedOf } from "./amounts";
import { listingBack } from "./cancel-paid";
import { movedFacts, openCase, runMoney, type MoneyOp } from "./claim";

interface DecisionInput {
  /** The rent to give back; null: the deadline's (all of it). */
  refund_cents: number | null;
  reason: string | null;
}

/** The rent that goes back: the lister's decision, never below what already went back. */
const refundOf = (d: DealRow, input: DecisionInput) => Math.max(input.refund_cents ?? d.paid_rent_cents, refundedOf(d));

const decided = (name: "cancellation_refund" | "cancellation_lapse"): MoneyOp<DecisionInput> => ({
  name,
  check: (d, input) => {
    if (input.refund_cents !== null && input.refund_cents > d.paid_rent_cents) throw validationFailed([{ path: "refund_cents", message: P.refundTooHigh(d.paid_rent_cents) }]);
  },
  target: (d, input) => ({ refundTotal: refundOf(d, input), transfer: "rest_of_rent" }),
  settle: (d, input, m, { now, actor }) => {
    const refund = refundOf(d, input);
    const all = refund >= d.paid_rent_cents;
    const lapsed = name === "cancellation_lapse";
    return {
      set: {
        ...movedFacts(d, m),
        status: "cancelled",
        status_reason: d.status_reason || "cancelled_by_renter",
        payment_status: m.transferRefused ? "release_failed" : all ? "refunded" : "released",
        case_reason: m.transferRefused ? "release_failed" : d.case_reason,
        refund_due_cents: refund,
        released_at: all || m.transferRefused ? null : now,
        cancel_requested_at: null,
        cancel_decide_by: null,
        decision_by: lapsed ? "deadline" : "lister",
        decision_reason: input.reason,
        decided_at: now,
      },
      statements: [
        ...listingBack(d, now),
        eventStatement(d.id, {
          type: "cancellation_decided",
          ...eventBy(lapsed ? "system" : "lister", "user" in actor ? actor.user : null, now),
          details: { refund_cents: refund, transfer_cents: listerShare(d, refund), lapsed, reason: input.reason },
        }),
      ],
      noticeFacts: { reason: input.reason, refundCents: refund, transferCents: listerShare(d, refund) },
    };
  },
  after: async (db, fx, d, m) => {
    if (m.transferRefused) openCase(db, fx, d, "release_failed");
    if (d.listing_id) await purgeListingCache([d.listing_id], db);
  },
});

export const CANCELLATION_REFUND = decided("cancellation_refund");
export const CANCELLATION_LAPSE = decided("cancellation_lapse");

/** The lister's decision (`POST deals/{id}/cancellation-refund {refund_cents, reason?}`). */
export async function decideCancellation(db: Db, fx: Effects, user: UserRow, id: string, refundCents: number, reason: string | null, nowMs = Date.now()): Promise<Deal> {
  await partyDeal(db, id, user.id);
  const after = await runMoney(db, fx, id, CANCELLATION_REFUND, { user: user.id }, { refund_cents: refundCents, reason }, nowMs);
  return answerFor(db, fx, after, user.id, nowMs);
}

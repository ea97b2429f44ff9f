/**
 * Cancelling a deal (the route's `cancel`; DEAL_CANCELLATION_POLICY, docs/decisions/029, 035): before
 * paying, a withdrawal or a cancellation (services/deals); after it, the lister's cancellation refunds
 * everything, fee included; the renter's, 14 days or more before move-in, the rent; later, it opens the
 * lister's 72-hour decision (decision.ts). The refunds are claimed money moves.
 */
import { DEAL_TIMING, type Deal } from "../../contract/deals";
import type { Db } from "../../db/client";
import { eventStatement, findDeal, supersedeLinksStatement, type DealRow } from "../../db/queries/deals";
import { releaseListingStatement } from "../../db/queries/deal-payments";
import type { UserRow } from "../../db/queries/users";
import { isoNow } from "../../lib/time";
import { answerFor, cancelUnpaid, eventBy, transition, transitionFor, type RequestMeta } from "../deals";
import type { Effects } from "../deals/process";
import { purgeListingCache } from "../edge-cache";
import { refundedOf } from "./amounts";
import { movedFacts, runMoney, type MoneyOp } from "./claim";
import { primaryOf } from "../../db/client";
import { notFound } from "../../lib/errors";

interface CancelInput {
  reason: string | null;
}

/** The listing a refunded stay had taken is available again. */
export const listingBack = (d: DealRow, now: string) => (d.listing_taken && d.listing_id ? [releaseListingStatement(d.listing_id, now)] : []);

const cancelled = (who: "lister" | "renter", refundOf: (d: DealRow) => number): MoneyOp<CancelInput> => ({
  name: who === "lister" ? "lister_cancel" : "renter_cancel",
  target: (d) => ({ refundTotal: refundOf(d), transfer: "none" }),
  settle: (d, { reason }, m, { now, actor }) => ({
    set: {
      ...movedFacts(d, m),
      status: "cancelled",
      status_reason: reason || `cancelled_by_${who}`,
      payment_status: "refunded",
      refund_due_cents: refundOf(d),
      expires_at: null,
      cancel_requested_at: null,
      cancel_decide_by: null,
    },
    statements: [
      supersedeLinksStatement(d.id, now),
      ...listingBack(d, now),
      eventStatement(d.id, { type: "cancelled", ...eventBy(who, "user" in actor ? actor.user : null, now), details: { reason, refund_cents: refundOf(d) } }),
    ],
    noticeFacts: { reason, refundCents: refundOf(d) },
  }),
  after: async (db, _fx, d) => {
    if (d.listing_id) await purgeListingCache([d.listing_id], db);
  },
});

/** The lister cancels after payment: everything back at once, fee included. */
export const LISTER_CANCEL = cancelled("lister", (d) => d.paid_cents);
/** The renter cancels 14 days or more before move-in: the rent back in full (what went back already stays back); the fee is kept. */
export const RENTER_CANCEL = cancelled("renter", (d) => Math.max(d.paid_rent_cents, refundedOf(d)));

/** The route's cancel: whichever cancellation the declaration opens to this party now. */
export async function cancelDeal(db: Db, fx: Effects, user: UserRow, id: string, reason: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const d = await findDeal(primaryOf(db), id);
  if (!d || (d.renter_id !== user.id && d.lister_id !== user.id)) throw notFound("Deal not found");
  const name = transitionFor(d, "cancel", { user: user.id }, nowMs);
  const now = isoNow(nowMs);
  switch (name) {
    case "withdraw":
    case "cancel":
      return cancelUnpaid(db, fx, user, id, name, reason, meta, nowMs);
    case "lister_cancel":
      return answerFor(db, fx, await runMoney(db, fx, id, LISTER_CANCEL, { user: user.id }, { reason }, nowMs), user.id, nowMs);
    case "renter_cancel":
      return answerFor(db, fx, await runMoney(db, fx, id, RENTER_CANCEL, { user: user.id }, { reason }, nowMs), user.id, nowMs);
    default: {
      // Later than 14 days before move-in: the lister decides how much rent goes back, by a deadline; silence refunds it in full.
      const { after } = await transition(
        db,
        fx,
        id,
        "renter_cancel_late",
        { user: user.id },
        (row) => ({
          set: { cancel_requested_at: now, cancel_decide_by: isoNow(nowMs + DEAL_TIMING.listerDecisionMs), status_reason: reason || null },
          statements: [eventStatement(row.id, { type: "cancellation_requested", ...eventBy("renter", user.id, now, meta), details: { reason } })],
        }),
        nowMs,
      );
      return answerFor(db, fx, after, user.id, nowMs);
    }
  }
}

/**
 * `charge.dispute.created` and `.closed` (docs/decisions/029, 035): a card dispute freezes a held deal into
 * a staff case (the bank decides; staff cannot resolve meanwhile); after a release, what the lister holds is
 * reversed (a claimed move right after). Won puts the money back where it was (held again, or released with
 * the lister paid again); lost ends the deal `refunded` (the bank returned the money: no refund of ours on
 * top, and the lister keeps nothing). An outcome is final: a `created` arriving after it only records it.
 */
import { inGroup } from "../../contract/deal-process";
import { conflict } from "../../lib/errors";
import { eventStatement, type GuardedStatement } from "../../db/queries/deals";
import { eventBy } from "../deals";
import { purgeListingCache } from "../edge-cache";
import { netTransferred } from "./amounts";
import { PAYMENT_NOT_YET, type Handler } from "./apply-event";
import { openCase } from "./claim";
import { listingBack } from "./cancel-paid";
import type { DealEventFacts } from "./events";
import { settleDue } from "./settle-due";

type DisputeFacts = Extract<DealEventFacts, { kind: "dispute" }>;

export const onDispute: Handler<DisputeFacts> = async (d, f, now) => {
  if (!d.payment_intent_id) throw conflict(PAYMENT_NOT_YET);
  if (f.paymentIntentId && f.paymentIntentId !== d.payment_intent_id) return null;
  const by = eventBy("stripe", null, now);
  const final = d.dispute_id === f.disputeId && (d.dispute_status === "won" || d.dispute_status === "lost");
  if (final) {
    return f.status === "open"
      ? { name: "dispute_recorded", plan: { set: {}, statements: [eventStatement(d.id, { type: "card_dispute", ...by, details: { dispute: f.disputeId, cents: f.amount, late: true } })] } }
      : null;
  }
  const facts = { dispute_id: f.disputeId, dispute_status: f.status };
  if (f.status === "open") {
    if (d.dispute_id === f.disputeId) return null;
    const holds = inGroup("held", d.status) || d.status === "disputed" || d.status === "released";
    if (!holds) return { name: "dispute_recorded", plan: { set: facts, statements: [eventStatement(d.id, { type: "card_dispute", ...by, details: { dispute: f.disputeId } })] } };
    return {
      name: "dispute_opened",
      plan: {
        set: { ...facts, status: "disputed", payment_status: "disputed", case_reason: "card_dispute" },
        statements: [eventStatement(d.id, { type: "card_dispute", ...by, details: { dispute: f.disputeId, cents: f.amount, after_release: d.status === "released" } })],
      },
      follow: async (db, fx, after, nowMs) => {
        openCase(db, fx, after, "card_dispute");
        // After release: what the transfer still holds comes back while the bank decides.
        if (netTransferred(after) > 0) await settleDue(db, fx, after.id, nowMs);
      },
    };
  }
  const statements: GuardedStatement[] = [eventStatement(d.id, { type: f.status === "won" ? "card_dispute_won" : "card_dispute_lost", ...by, details: { dispute: f.disputeId, cents: f.amount } })];
  if (f.status === "won") {
    if (d.status === "disputed" && d.case_reason === "card_dispute") {
      // The bank sided with the lister: the money is where it was before. Released before (a reversal): owed again.
      const wasReleased = !!d.released_at;
      return {
        name: "dispute_won",
        plan: {
          set: wasReleased ? { ...facts, status: "released", payment_status: "released", case_reason: null } : { ...facts, status: d.moved_in_at ? "moved_in" : "paid", payment_status: "held", case_reason: null },
          statements,
        },
        follow: async (db, fx, after, nowMs) => {
          if (wasReleased) await settleDue(db, fx, after.id, nowMs);
        },
      };
    }
    return { name: "dispute_recorded", plan: { set: facts, statements } };
  }
  // Lost: the bank gave the disputed amount back to the renter; nothing more goes to the lister.
  const back = Math.max(d.refund_due_cents, Math.min(d.paid_cents, f.amount || d.paid_cents));
  if (inGroup("held", d.status) || d.status === "disputed" || d.status === "released") {
    return {
      name: "dispute_lost",
      plan: {
        set: { ...facts, status: "refunded", payment_status: "refunded", case_reason: null, refund_due_cents: back, refunded_cents: Math.max(d.refunded_cents, back) },
        statements: [...statements, ...listingBack(d, now)],
        noticeFacts: { refundCents: back },
      },
      follow: async (db, fx, after, nowMs) => {
        if (after.listing_id) await purgeListingCache([after.listing_id], db);
        if (netTransferred(after) > 0) await settleDue(db, fx, after.id, nowMs);
      },
    };
  }
  return { name: "dispute_recorded", plan: { set: facts, statements } };
};

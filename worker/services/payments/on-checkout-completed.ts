/**
 * `checkout.session.completed` of a deal's first payment (docs/decisions/029): a signed deal becomes
 * `paid` and held, unless another deal of the listing holds an overlapping paid stay (the condition is
 * inside the batch: the first payment applied wins; the loser is cancelled `stay_taken` and refunded in
 * full). A second payment of a deal already paid is refunded whole before its event is recorded; a
 * payment for a deal that already ended is refunded in full.
 */
import { DEAL_GROUPS } from "../../contract/deal-process";
import { DEAL_REASONS, heldUntil } from "../../contract/deals";
import { primaryOf } from "../../db/client";
import { completeDealCheckoutSessionStatement, listingTakenSql, takeListingStatement } from "../../db/queries/deal-payments";
import { eventStatement, noOverlapCondition, overlappingDeal, type GuardedStatement } from "../../db/queries/deals";
import { notify } from "../notify";
import { declineOverlappingDeals, eventBy } from "../deals";
import { purgeListingCache } from "../edge-cache";
import { dealAmounts } from "./amounts";
import { Reread, StripeFirst, type EventDecision, type Handler } from "./apply-event";
import type { DealEventFacts } from "./events";
import { settleDue } from "./settle-due";

type CheckoutFacts = Extract<DealEventFacts, { kind: "checkout" }>;

export const onCheckout: Handler<CheckoutFacts> = async (d, f, now, io) => {
  if (!f.paid) return null;
  const pi = f.paymentIntentId!;
  if (d.payment_intent_id === pi) return null;
  const by = eventBy("stripe", null, now);
  if (d.payment_intent_id) {
    // A second payment of the same deal (two tabs, Back): refunded in full before the event is recorded.
    if (!io.refunded.has(pi)) throw new StripeFirst(() => io.refundDuplicate(d, pi));
    return { name: "pay_duplicate", plan: { set: {}, statements: [eventStatement(d.id, { type: "duplicate_payment_refunded", ...by, details: { payment_intent: pi } })] } };
  }
  const pay = dealAmounts(d, io.config);
  const paidCents = f.amountTotal ?? pay.total_cents;
  const facts = { payment_intent_id: pi, charge_id: f.chargeId, paid_cents: paidCents, paid_rent_cents: Math.min(pay.rent_cents, paidCents), paid_at: now };
  const session: GuardedStatement = completeDealCheckoutSessionStatement(f.sessionId, now);
  const refundLater: EventDecision["follow"] = async (db, fx, after, nowMs) => {
    await settleDue(db, fx, after.id, nowMs);
    if (after.listing_id) await purgeListingCache([after.listing_id], db);
  };
  if (d.status !== "signed") {
    // Paid after the deal ended (a checkout tab left open past expiry or a cancel): refunded in full.
    if (d.status !== "cancelled" && d.status !== "expired" && d.status !== "declined") return null;
    return {
      name: "pay_after_end",
      plan: { set: { ...facts, payment_status: "refunded", refund_due_cents: paidCents }, statements: [session, eventStatement(d.id, { type: "payment_refused", ...by, details: { reason: d.status } })], noticeFacts: { refundCents: paidCents } },
      follow: refundLater,
    };
  }
  // The first payment applied wins the dates: no other deal of the listing holds an overlapping paid stay.
  const taken = d.listing_id ? await overlappingDeal(primaryOf(io.db), d.listing_id, d.move_in, d.move_out, DEAL_GROUPS.taken, d.id) : null;
  if (taken) {
    return {
      name: "pay_lost_overlap",
      plan: {
        set: { ...facts, status: "cancelled", status_reason: DEAL_REASONS.stayTaken, expires_at: null, payment_status: "refunded", refund_due_cents: paidCents },
        statements: [session, eventStatement(d.id, { type: "cancelled", ...by, details: { reason: DEAL_REASONS.stayTaken, refunded_cents: paidCents } })],
        noticeFacts: { refundCents: paidCents },
      },
      follow: refundLater,
    };
  }
  const statements: GuardedStatement[] = [session, eventStatement(d.id, { type: "paid", ...by, details: { payment_intent: pi, cents: paidCents } })];
  if (d.listing_id) statements.push(takeListingStatement(d.listing_id, d.move_in, d.move_out, now));
  return {
    name: "pay",
    plan: {
      set: { ...facts, status: "paid", status_reason: null, payment_status: "held", held_until: heldUntil(d.move_in, d.time_zone, now), expires_at: null, listing_taken: listingTakenSql(d.listing_id, d.move_in, d.move_out) },
      statements,
      condition: d.listing_id ? { statement: noOverlapCondition(DEAL_GROUPS.taken, d.listing_id, d.move_in, d.move_out, d.id), error: () => new Reread() } : undefined,
    },
    follow: async (db, fx, after, nowMs) => {
      await declineOverlappingDeals(db, fx, after, nowMs);
      if (after.listing_id) await purgeListingCache([after.listing_id], db);
      fx.defer(
        notify({ db, env: fx.env, config: fx.config }, { userId: after.renter_id }, {
          kind: "deal_receipt",
          dealId: after.id,
          title: after.listing_title,
          rentCents: after.paid_rent_cents,
          feeCents: after.paid_cents - after.paid_rent_cents,
          feePercent: after.fee_percent ?? fx.config.dealFeePercent,
          totalCents: after.paid_cents,
          heldUntil: after.held_until!,
          paidAt: after.paid_at!,
          paymentId: after.payment_intent_id!,
        }).catch(() => undefined),
      );
    },
  };
};

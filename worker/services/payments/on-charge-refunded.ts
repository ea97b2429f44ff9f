/**
 * `charge.refunded` (docs/decisions/029, 035): what Stripe says the payment's refunds add up to. Ours are
 * already recorded (their settle wrote them); one made outside CampusNest (Stripe's dashboard) counts, and
 * all of it ends a held deal `refunded`. After a release, the lister's share shrinks with it: the jobs'
 * reconciliation takes back what they hold beyond the rent less what went back (a staff case when more
 * went out than came in).
 */
import { inGroup } from "../../contract/deal-process";
import { conflict } from "../../lib/errors";
import { eventStatement, type DealSet, type GuardedStatement } from "../../db/queries/deals";
import { eventBy } from "../deals";
import { purgeListingCache } from "../edge-cache";
import { listerShare, netTransferred } from "./amounts";
import { PAYMENT_NOT_YET, type Handler } from "./apply-event";
import { listingBack } from "./cancel-paid";
import type { DealEventFacts } from "./events";
import { reconcile } from "./settle-due";

type RefundFacts = Extract<DealEventFacts, { kind: "refund" }>;

export const onChargeRefunded: Handler<RefundFacts> = async (d, f, now) => {
  if (!d.payment_intent_id) throw conflict(PAYMENT_NOT_YET);
  // A refund of another payment of the deal (a second payment, refunded whole).
  if ((f.paymentIntentId && f.paymentIntentId !== d.payment_intent_id) || (d.charge_id && f.chargeId !== d.charge_id && !f.paymentIntentId)) return null;
  const amount = f.amountRefunded;
  if (amount <= d.refunded_cents && amount <= d.refund_due_cents) return null;
  const set: DealSet = { refunded_cents: Math.max(d.refunded_cents, amount) };
  const statements: GuardedStatement[] = [];
  let ended = false;
  if (amount > d.refund_due_cents) {
    // A refund made outside CampusNest (Stripe's dashboard): it counts; all of it ends the deal as refunded.
    set.refund_due_cents = amount;
    if (amount >= d.paid_cents && (inGroup("held", d.status) || d.status === "disputed" || d.status === "released")) {
      Object.assign(set, { status: "refunded", payment_status: "refunded", case_reason: d.status === "released" ? d.case_reason : null } satisfies DealSet);
      statements.push(eventStatement(d.id, { type: "refunded", ...eventBy("stripe", null, now), details: { cents: amount, by: "stripe" } }), ...listingBack(d, now));
      ended = true;
    }
  }
  return {
    name: ended ? "refunded_in_full" : "refund_recorded",
    plan: { set, statements, noticeFacts: { refundCents: amount } },
    follow: async (db, fx, after, nowMs) => {
      if (ended && after.listing_id) await purgeListingCache([after.listing_id], db);
      // After a release: the lister holds more than the rent less what went back.
      const refunded = Math.max(after.refunded_cents, after.refund_due_cents);
      if (netTransferred(after) > listerShare(after, refunded)) await reconcile(db, fx, after, nowMs);
    },
  };
};

/**
 * What the Stripe events a promotion listens to say about its subscription, read field by field
 * (stripe/webhook.ts), and the development test checkout's events shaped like Stripe's.
 */
import { PROMOTION_PLAN } from "../../contract/promotions";
import { firstOf, idOf, MalformedEventError, num, obj, str, timestamp, type Obj } from "../stripe/webhook";

/** The event types promotion reads; any other verified event is acknowledged and ignored. */
export const PROMOTION_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "invoice.paid",
  "invoice.payment_failed",
  "customer.subscription.updated",
  "customer.subscription.deleted",
] as const;

/** What one event says about a subscription (the promotions service decides what it means). */
export interface SubscriptionChange {
  subscriptionId: string;
  listingId?: string;
  userId?: string;
  /** Epoch seconds: the end of a period paid for. */
  periodEnd?: number;
  paymentFailed?: boolean;
  /** Epoch seconds: the end of the period whose payment failed, when the invoice says. */
  failedPeriodEnd?: number;
  checkedOut?: boolean;
  /** Checked out, its payment still on its way (a delayed method): waits for async_payment_succeeded. */
  awaitingPayment?: boolean;
  /** The checkout session this event completes (so it is not offered again). */
  checkoutSessionId?: string;
  ended?: boolean;
  /** A subscription update, applied only if not older than the last one applied. */
  update?: { at: number; cancelAtPeriodEnd: boolean; status: string };
  billing?: { id: string; amount: number; currency: string; periodStart: number; periodEnd: number; created: number; status: string };
}



/**
 * The facts of the events promotion listens to, read field by field so that both older and newer
 * API versions' shapes work (invoice.subscription or invoice.parent.subscription_details). Null: not
 * ours (another mode, an invoice of no subscription). Throws MalformedEventError when an object of a
 * type we read lacks its ids.
 *
 * A completed checkout is paid when its payment_status is `paid` or `no_payment_required`; `unpaid`
 * (a delayed method) waits for checkout.session.async_payment_succeeded, and ..._failed ends it.
 */
export function readSubscriptionEvent(event: { type: string; created: number; data: { object: unknown } }): SubscriptionChange | null {
  const o = obj(event.data.object);
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed": {
      const sessionId = str(o.id);
      if (!sessionId) throw new MalformedEventError("checkout session without an id");
      if (o.mode !== "subscription") return null;
      const subscriptionId = idOf(o.subscription);
      if (!subscriptionId) throw new MalformedEventError("subscription checkout without a subscription");
      const md = obj(o.metadata);
      const base = { subscriptionId, listingId: str(md.listing_id) ?? str(o.client_reference_id), userId: str(md.user_id), checkoutSessionId: sessionId };
      if (event.type === "checkout.session.async_payment_failed") return { ...base, ended: true };
      if (event.type === "checkout.session.async_payment_succeeded") return { ...base, checkedOut: true };
      const paid = o.payment_status === "paid" || o.payment_status === "no_payment_required";
      return paid ? { ...base, checkedOut: true } : { ...base, awaitingPayment: true };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      if (!str(o.id)) throw new MalformedEventError("invoice without an id");
      const details = obj(obj(o.parent).subscription_details);
      const subscriptionId = idOf(o.subscription) ?? idOf(details.subscription);
      if (!subscriptionId) return null;
      const md = { ...obj(obj(o.subscription_details).metadata), ...obj(details.metadata) };
      const period = obj(firstOf(o.lines).period);
      const start = timestamp(period.start, "period.start") ?? timestamp(o.period_start, "period_start");
      const end = timestamp(period.end, "period.end") ?? timestamp(o.period_end, "period_end");
      const base = { subscriptionId, listingId: str(md.listing_id), userId: str(md.user_id) };
      if (event.type === "invoice.payment_failed") return { ...base, paymentFailed: true, failedPeriodEnd: end };
      const invoiceId = str(o.id);
      return {
        ...base,
        periodEnd: end,
        billing:
          invoiceId && start !== undefined && end !== undefined
            ? {
                id: invoiceId,
                amount: num(o.amount_paid) ?? num(o.total) ?? 0,
                currency: str(o.currency) ?? PROMOTION_PLAN.currency,
                periodStart: start,
                periodEnd: end,
                created: timestamp(o.created, "created") ?? event.created,
                status: str(o.status) ?? "paid",
              }
            : undefined,
      };
    }
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscriptionId = str(o.id);
      if (!subscriptionId) throw new MalformedEventError("subscription without an id");
      const md = obj(o.metadata);
      const base = { subscriptionId, listingId: str(md.listing_id), userId: str(md.user_id) };
      const status = str(o.status) ?? "active";
      // A subscription whose first payment never came (incomplete_expired) or that Stripe cancelled is over.
      if (event.type === "customer.subscription.deleted" || status === "canceled" || status === "incomplete_expired") return { ...base, ended: true };
      return { ...base, update: { at: event.created, cancelAtPeriodEnd: o.cancel_at_period_end === true, status } };
    }
    default:
      return null;
  }
}

/* ---------- the development test checkout's events ---------- */

export interface TestSubscription {
  subscriptionId: string;
  listingId: string;
  userId: string;
}

const testEvent = (type: string, object: Obj, created: number) => ({
  id: `evt_test_${crypto.randomUUID().replaceAll("-", "")}`,
  object: "event",
  api_version: null,
  created,
  livemode: false,
  type,
  data: { object },
});

type CheckoutEventType = "checkout.session.completed" | "checkout.session.async_payment_succeeded" | "checkout.session.async_payment_failed";

/** checkout.session.completed (or its delayed payment's outcome), shaped like Stripe's. */
export function testCheckoutCompleted(sessionId: string, s: TestSubscription, now: number, type: CheckoutEventType = "checkout.session.completed", paymentStatus: "paid" | "unpaid" | "no_payment_required" = "paid") {
  const metadata = { listing_id: s.listingId, user_id: s.userId };
  return testEvent(
    type,
    { id: sessionId, object: "checkout.session", mode: "subscription", status: "complete", payment_status: paymentStatus, subscription: s.subscriptionId, client_reference_id: s.listingId, metadata },
    now,
  );
}

/** invoice.paid or invoice.payment_failed for one weekly period, shaped like Stripe's (2025+ API: parent.subscription_details). */
export function testInvoice(type: "invoice.paid" | "invoice.payment_failed", s: TestSubscription, periodStart: number, now: number) {
  const periodEnd = periodStart + PROMOTION_PLAN.days * 86_400;
  const paid = type === "invoice.paid";
  return testEvent(
    type,
    {
      id: `in_test_${crypto.randomUUID().replaceAll("-", "")}`,
      object: "invoice",
      status: paid ? "paid" : "open",
      amount_paid: paid ? PROMOTION_PLAN.amount : 0,
      amount_due: PROMOTION_PLAN.amount,
      currency: PROMOTION_PLAN.currency,
      created: now,
      period_start: periodStart,
      period_end: periodEnd,
      parent: { type: "subscription_details", subscription_details: { subscription: s.subscriptionId, metadata: { listing_id: s.listingId, user_id: s.userId } } },
      lines: { object: "list", data: [{ period: { start: periodStart, end: periodEnd } }] },
    },
    now,
  );
}

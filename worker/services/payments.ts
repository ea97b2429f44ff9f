/**
 * The one place that talks to Stripe (the SDK, fetch based in workerd). A client is created per
 * request, so tests' fetch spy (or a fake Stripe at STRIPE_API_HOST) is picked up. Nothing here
 * changes our database: services/promotions.ts decides what an event means.
 */
import Stripe from "stripe";
import type { StripeConfig } from "../env";
import { PROMOTION_PLAN } from "../contract/promotions";

/** Stripe's default signature tolerance: a signature older than this is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const stripeConfigured = (config: StripeConfig) => !!config.secretKey;

function stripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    ...(config.apiHost && { host: config.apiHost }),
    ...(config.apiPort && { port: config.apiPort }),
    ...(config.apiProtocol && { protocol: config.apiProtocol }),
  });
}

export interface CheckoutRequest {
  listingId: string;
  userId: string;
  listingTitle: string;
  successUrl: string;
  cancelUrl: string;
  /** Epoch seconds after which the session cannot be paid (Stripe accepts 30 minutes to 24 hours). */
  expiresAt: number;
}

/** A Checkout session in subscription mode for the weekly plan; its id and hosted page address. */
export async function createStripeCheckoutSession(config: StripeConfig, req: CheckoutRequest): Promise<{ id: string; url: string }> {
  const metadata = { listing_id: req.listingId, user_id: req.userId };
  const session = await stripeClient(config).checkout.sessions.create(
    {
      mode: "subscription",
      line_items: [
        config.priceId
          ? { price: config.priceId, quantity: 1 }
          : {
              quantity: 1,
              price_data: {
                currency: PROMOTION_PLAN.currency,
                unit_amount: PROMOTION_PLAN.amount,
                recurring: { interval: PROMOTION_PLAN.interval },
                product_data: { name: `${PROMOTION_PLAN.name}: ${req.listingTitle}`.slice(0, 250) },
              },
            },
      ],
      metadata,
      subscription_data: { metadata },
      client_reference_id: req.listingId,
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      expires_at: req.expiresAt,
    },
  );
  if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
  return { id: session.id, url: session.url };
}

/** Closes a session nobody should pay (it lost a race to another session of the same listing). */
export async function expireStripeCheckoutSession(config: StripeConfig, sessionId: string): Promise<void> {
  await stripeClient(config).checkout.sessions.expire(sessionId);
}

/** Stops renewal at the end of the current period. */
export async function cancelStripeSubscriptionAtPeriodEnd(config: StripeConfig, subscriptionId: string): Promise<void> {
  await stripeClient(config).subscriptions.update(subscriptionId, { cancel_at_period_end: true });
}

/** A webhook payload checked against its Stripe-Signature header; throws when it does not match or is stale. */
export async function verifyWebhookEvent(config: StripeConfig, rawBody: string, signature: string): Promise<Stripe.Event> {
  // The key is not used to verify; a placeholder keeps the SDK from refusing to construct.
  const stripe = new Stripe(config.secretKey || "sk_test_unused", { httpClient: Stripe.createFetchHttpClient() });
  return stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, Stripe.createSubtleCryptoProvider());
}

/** A Stripe-Signature header for `payload` (the development test checkout signs its events like Stripe). */
export async function signWebhookPayload(secret: string, payload: string, timestamp?: number): Promise<string> {
  const stripe = new Stripe("sk_test_unused", { httpClient: Stripe.createFetchHttpClient() });
  return stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp, cryptoProvider: Stripe.createSubtleCryptoProvider() });
}

/* ---------- reading events ---------- */

/** A verified event's envelope: what every event we read must carry. */
export interface StripeEventEnvelope {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

/**
 * The envelope of a verified payload, or null when its shape is not an event's (not an object, no
 * id or type, no `data.object` object). A signed payload can still be malformed: it is refused.
 */
export function eventEnvelope(payload: unknown): StripeEventEnvelope | null {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return null;
  const e = payload as Obj;
  const data = e.data;
  if (!str(e.id) || !str(e.type) || !isTimestamp(e.created)) return null;
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const object = (data as Obj).object;
  if (!object || typeof object !== "object" || Array.isArray(object)) return null;
  return { id: e.id as string, type: e.type as string, created: e.created as number, data: { object: object as Obj } };
}

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

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const idOf = (v: unknown) => str(v) ?? str(obj(v).id);
/** Epoch seconds a Date can hold (before the year 5138): a larger one would throw when turned into a date. */
const isTimestamp = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0 && v < 1e11;
/** An optional epoch-seconds field: absent is undefined, anything but a plausible timestamp is a malformed event (400, not a 500). */
function timestamp(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isTimestamp(v)) throw new MalformedEventError(`${field} is not a timestamp`);
  return v;
}
const firstOf = (list: unknown) => obj((obj(list).data as unknown[] | undefined)?.[0]);

/** An event of a type we read whose object lacks what that type must carry (answered 400). */
export class MalformedEventError extends Error {}

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

/** Ends a subscription now (its listing or account is being deleted): no further charge. */
export async function cancelStripeSubscriptionNow(config: StripeConfig, subscriptionId: string): Promise<void> {
  await stripeClient(config).subscriptions.cancel(subscriptionId, undefined, { idempotencyKey: `cancel-now-${subscriptionId}` });
}

/**
 * Refunds what was paid for one invoice (every paid payment of it). Idempotency keys make a repeat
 * (a retried webhook, a second event of the same duplicate) refund nothing twice.
 */
export async function refundStripeInvoice(config: StripeConfig, invoiceId: string): Promise<number> {
  const stripe = stripeClient(config);
  const payments = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
  let refunded = 0;
  for (const p of payments.data) {
    if (p.status !== "paid") continue;
    const target = idOf(p.payment.payment_intent) ? { payment_intent: idOf(p.payment.payment_intent)! } : idOf(p.payment.charge) ? { charge: idOf(p.payment.charge)! } : null;
    if (!target) continue;
    try {
      await stripe.refunds.create({ ...target, reason: "duplicate", metadata: { invoice_id: invoiceId } }, { idempotencyKey: `refund-${invoiceId}-${p.id}` });
    } catch (err) {
      // Stripe keeps idempotency keys 24 hours: a refund repeated later is refused as already done.
      if ((err as { code?: string }).code !== "charge_already_refunded") throw err;
    }
    refunded++;
  }
  return refunded;
}

/**
 * A second subscription of a listing that already has one: ended at Stripe now and its latest
 * invoice refunded. Safe to repeat (idempotency keys; an already cancelled one is not cancelled again).
 */
export async function cancelAndRefundSubscription(config: StripeConfig, subscriptionId: string): Promise<void> {
  const stripe = stripeClient(config);
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  if (subscription.status !== "canceled" && subscription.status !== "incomplete_expired") {
    await stripe.subscriptions.cancel(subscriptionId, undefined, { idempotencyKey: `cancel-duplicate-${subscriptionId}` });
  }
  const invoiceId = idOf(subscription.latest_invoice);
  if (invoiceId) await refundStripeInvoice(config, invoiceId);
}

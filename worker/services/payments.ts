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
}

/** A Checkout session in subscription mode for the weekly plan; its id and hosted page address. */
export async function createStripeCheckoutSession(config: StripeConfig, req: CheckoutRequest): Promise<{ id: string; url: string }> {
  const metadata = { listing_id: req.listingId, user_id: req.userId };
  const session = await stripeClient(config).checkout.sessions.create({
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
  });
  if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
  return { id: session.id, url: session.url };
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
const firstOf = (list: unknown) => obj((obj(list).data as unknown[] | undefined)?.[0]);

/**
 * The facts of the five events promotion listens to, read field by field so that both older and
 * newer API versions' shapes work (invoice.subscription or invoice.parent.subscription_details).
 */
export function readSubscriptionEvent(event: { type: string; created: number; data: { object: unknown } }): SubscriptionChange | null {
  const o = obj(event.data.object);
  switch (event.type) {
    case "checkout.session.completed": {
      const subscriptionId = idOf(o.subscription);
      if (o.mode !== "subscription" || !subscriptionId) return null;
      const md = obj(o.metadata);
      return { subscriptionId, listingId: str(md.listing_id) ?? str(o.client_reference_id), userId: str(md.user_id), checkedOut: true };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const details = obj(obj(o.parent).subscription_details);
      const subscriptionId = idOf(o.subscription) ?? idOf(details.subscription);
      if (!subscriptionId) return null;
      const md = { ...obj(obj(o.subscription_details).metadata), ...obj(details.metadata) };
      const period = obj(firstOf(o.lines).period);
      const start = num(period.start) ?? num(o.period_start);
      const end = num(period.end) ?? num(o.period_end);
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
                created: num(o.created) ?? event.created,
                status: str(o.status) ?? "paid",
              }
            : undefined,
      };
    }
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscriptionId = str(o.id);
      if (!subscriptionId) return null;
      const md = obj(o.metadata);
      const base = { subscriptionId, listingId: str(md.listing_id), userId: str(md.user_id) };
      if (event.type === "customer.subscription.deleted") return { ...base, ended: true };
      return { ...base, update: { at: event.created, cancelAtPeriodEnd: o.cancel_at_period_end === true, status: str(o.status) ?? "active" } };
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

/** checkout.session.completed, shaped like Stripe's. */
export function testCheckoutCompleted(sessionId: string, s: TestSubscription, now: number) {
  const metadata = { listing_id: s.listingId, user_id: s.userId };
  return testEvent(
    "checkout.session.completed",
    { id: sessionId, object: "checkout.session", mode: "subscription", status: "complete", payment_status: "paid", subscription: s.subscriptionId, client_reference_id: s.listingId, metadata },
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
  await stripeClient(config).subscriptions.cancel(subscriptionId);
}

/**
 * The Stripe core every payment feature shares (promotions now, the deal's payments next): the SDK
 * client (fetch based in workerd, created per request so tests' fetch spy or a fake Stripe at
 * STRIPE_API_HOST is picked up) and the calls that move money. Nothing here changes our database:
 * each feature decides what an event means (services/promotions/webhook.ts). Decision 013.
 */
import Stripe from "stripe";
import type { StripeConfig } from "../../env";
import { idOf } from "./webhook";

export const stripeConfigured = (config: StripeConfig) => !!config.secretKey;

export function stripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    ...(config.apiHost && { host: config.apiHost }),
    ...(config.apiPort && { port: config.apiPort }),
    ...(config.apiProtocol && { protocol: config.apiProtocol }),
  });
}

/** Closes a session nobody should pay (it lost a race to another session of the same listing). */
export async function expireStripeCheckoutSession(config: StripeConfig, sessionId: string): Promise<void> {
  await stripeClient(config).checkout.sessions.expire(sessionId);
}

/** Stops renewal at the end of the current period. */
export async function cancelStripeSubscriptionAtPeriodEnd(config: StripeConfig, subscriptionId: string): Promise<void> {
  await stripeClient(config).subscriptions.update(subscriptionId, { cancel_at_period_end: true });
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

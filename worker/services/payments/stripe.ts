/**
 * The Stripe calls of a deal's money (docs/decisions/029): Checkout in payment mode charged to the
 * platform with the deal's transfer group, refunds and transfers that first look at what Stripe
 * already did (its idempotency keys last only 24 hours), reversals, and the reads that tie a charge or
 * a dispute to its deal. Nothing here writes our database.
 */
import type Stripe from "stripe";
import type { StripeConfig } from "../../env";
import { stripeClient } from "../stripe/client";
import { idOf } from "../stripe/webhook";

export interface DealCheckoutRequest {
  dealId: string;
  renterId: string;
  title: string;
  rentCents: number;
  feeCents: number;
  feePercent: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** Derived from the operation (the deal, its version, the minute), never random. */
  idempotencyKey: string;
}

/** What marks a Checkout session, payment intent and charge as a deal's (the promotion's webhook ignores them). */
export const DEAL_METADATA_KIND = "deal_first_payment";

export async function createDealCheckoutSession(config: StripeConfig, req: DealCheckoutRequest): Promise<{ id: string; url: string }> {
  const metadata = { kind: DEAL_METADATA_KIND, deal_id: req.dealId, renter_id: req.renterId };
  const line = (name: string, cents: number) => ({ quantity: 1, price_data: { currency: req.currency, unit_amount: cents, product_data: { name: name.slice(0, 250) } } });
  const session = await stripeClient(config).checkout.sessions.create({
    mode: "payment",
    allowed_payment_method_types: ["card"],
    line_items: [
      line(`First month's rent: ${req.title}`, req.rentCents),
      ...(req.feeCents > 0 ? [line(`CampusNest service fee (${req.feePercent}%)`, req.feeCents)] : []),
    ],
    // Separate charges and transfers: the platform is charged; the lister is paid by a transfer at release.
    payment_intent_data: { transfer_group: req.dealId, metadata, description: `First month: ${req.title}`.slice(0, 250) },
    metadata,
    client_reference_id: req.dealId,
    success_url: req.successUrl,
    cancel_url: req.cancelUrl,
    expires_at: req.expiresAt,
  }, { idempotencyKey: req.idempotencyKey });
  if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
  return { id: session.id, url: session.url };
}

/** The charge of a payment intent (a completed session names only the intent). */
export async function chargeOfPaymentIntent(config: StripeConfig, paymentIntentId: string): Promise<string | null> {
  const pi = await stripeClient(config).paymentIntents.retrieve(paymentIntentId);
  return idOf(pi.latest_charge) ?? null;
}

/** A charge's deal (its transfer group, or the payment's metadata): a dispute names only the charge. */
export async function dealOfCharge(config: StripeConfig, chargeId: string): Promise<string | null> {
  const charge = await stripeClient(config).charges.retrieve(chargeId);
  return charge.transfer_group ?? charge.metadata?.deal_id ?? null;
}

/**
 * Refunds `targetCents` in all for the payment intent: first sums what Stripe already refunded, then
 * refunds only the rest, so a retry (after a crash, or after Stripe forgot its key) never refunds twice.
 * Answers the total refunded.
 */
export async function refundUpTo(config: StripeConfig, dealId: string, paymentIntentId: string, targetCents: number): Promise<number> {
  const stripe = stripeClient(config);
  const existing = await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 });
  const done = existing.data.filter((r) => r.status !== "failed" && r.status !== "canceled").reduce((sum, r) => sum + r.amount, 0);
  if (done >= targetCents) return done;
  try {
    await stripe.refunds.create(
      { payment_intent: paymentIntentId, amount: targetCents - done, metadata: { deal_id: dealId } },
      { idempotencyKey: `deal-refund-${dealId}-${paymentIntentId}-${targetCents}` },
    );
  } catch (err) {
    if ((err as { code?: string }).code !== "charge_already_refunded") throw err;
  }
  return targetCents;
}

/** A whole payment that must not be kept (a second payment of one deal): refunded, once. */
export async function refundWholePayment(config: StripeConfig, dealId: string, paymentIntentId: string): Promise<void> {
  try {
    await stripeClient(config).refunds.create({ payment_intent: paymentIntentId, reason: "duplicate", metadata: { deal_id: dealId } }, { idempotencyKey: `deal-duplicate-${paymentIntentId}` });
  } catch (err) {
    if ((err as { code?: string }).code !== "charge_already_refunded") throw err;
  }
}

export interface TransferFacts {
  /** The newest transfer of the group. */
  id: string;
  /** What the group's transfers still hold (amounts minus reversals), cents. */
  net: number;
}

/** The transfers already made for a deal (its transfer group): Stripe is asked before any new one. */
export async function transfersOfDeal(config: StripeConfig, dealId: string): Promise<{ list: Stripe.Transfer[]; net: number }> {
  const list = (await stripeClient(config).transfers.list({ transfer_group: dealId, limit: 100 })).data;
  return { list, net: list.reduce((sum, t) => sum + t.amount - (t.amount_reversed ?? 0), 0) };
}

/**
 * The lister gets `owedCents` in all: what the group's transfers hold is read first; only the rest is
 * sent, from the deal's charge (`source_transaction`: it never waits for the charge's funds to settle).
 */
export async function transferUpTo(
  config: StripeConfig,
  req: { dealId: string; destination: string; chargeId: string | null; currency: string; owedCents: number; refusedBefore: number },
): Promise<TransferFacts | null> {
  const { list, net } = await transfersOfDeal(config, req.dealId);
  if (net >= req.owedCents) return list[0] ? { id: list[0].id, net } : null;
  const transfer = await stripeClient(config).transfers.create(
    {
      amount: req.owedCents - net,
      currency: req.currency,
      destination: req.destination,
      transfer_group: req.dealId,
      ...(req.chargeId && { source_transaction: req.chargeId }),
      metadata: { kind: DEAL_METADATA_KIND, deal_id: req.dealId },
    },
    // The same key for every racer of one attempt (the cron and "I have the keys" at once make one transfer);
    // a new one after each refusal Stripe recorded, whose answer the old key would repeat.
    { idempotencyKey: `deal-transfer-${req.dealId}-${list.length}-${req.owedCents}-${req.refusedBefore}` },
  );
  return { id: transfer.id, net: req.owedCents };
}

/** Takes back what a transfer still holds (a card dispute after release), once. Answers the amount reversed in all. */
export async function reverseTransfer(config: StripeConfig, dealId: string, transferId: string): Promise<number> {
  const stripe = stripeClient(config);
  const transfer = await stripe.transfers.retrieve(transferId);
  const left = transfer.amount - (transfer.amount_reversed ?? 0);
  if (left <= 0) return transfer.amount_reversed ?? 0;
  await stripe.transfers.createReversal(transferId, { amount: left, metadata: { deal_id: dealId } }, { idempotencyKey: `deal-reversal-${transferId}-${left}` });
  return transfer.amount;
}

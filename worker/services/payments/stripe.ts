/**
 * The Stripe calls of a deal's money (docs/decisions/029, 035): Checkout in payment mode charged to the
 * platform with the deal's transfer group; what Stripe holds for a deal (the payment's refunds, the
 * transfer group's transfers and reversals); refunds, transfers and reversals under keys of one claim's
 * attempt; and the reads that tie a charge or a dispute to its deal. Nothing here writes our database.
 */
import type Stripe from "stripe";
import type { StripeConfig } from "../../env";
import { stripeClient } from "../stripe/client";
import { idOf } from "../stripe/webhook";
import { IDEMPOTENCY_KEYS } from "./idempotency-keys";

/** What marks a Checkout session, payment intent and charge as a deal's (the promotion's webhook ignores them). */
export const DEAL_METADATA_KIND = "deal_first_payment";

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
  idempotencyKey: string | null;
}

export async function createDealCheckoutSession(config: StripeConfig, req: DealCheckoutRequest): Promise<{ id: string; url: string }> {
  const metadata = { kind: DEAL_METADATA_KIND, deal_id: req.dealId, renter_id: req.renterId };
  const line = (name: string, cents: number) => ({ quantity: 1, price_data: { currency: req.currency, unit_amount: cents, product_data: { name: name.slice(0, 250) } } });
  const session = await stripeClient(config).checkout.sessions.create(
    {
      mode: "payment",
      allowed_payment_method_types: ["card"],
      line_items: [line(`First month's rent: ${req.title}`, req.rentCents), ...(req.feeCents > 0 ? [line(`CampusNest service fee (${req.feePercent}%)`, req.feeCents)] : [])],
      // Separate charges and transfers: the platform is charged; the lister is paid by a transfer at release.
      payment_intent_data: { transfer_group: req.dealId, metadata, description: `First month: ${req.title}`.slice(0, 250) },
      metadata,
      client_reference_id: req.dealId,
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      expires_at: req.expiresAt,
    },
    req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : undefined,
  );
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

/** A whole payment that must not be kept (a second payment of one deal): refunded, once. */
export async function refundWholePayment(config: StripeConfig, dealId: string, paymentIntentId: string): Promise<void> {
  try {
    await stripeClient(config).refunds.create({ payment_intent: paymentIntentId, reason: "duplicate", metadata: { deal_id: dealId } }, { idempotencyKey: IDEMPOTENCY_KEYS.duplicatePayment(paymentIntentId) });
  } catch (err) {
    if ((err as { code?: string }).code !== "charge_already_refunded") throw err;
  }
}

/** One transfer of a deal's group: what it sent and what was reversed of it. */
export interface GroupTransfer {
  id: string;
  amount: number;
  reversed: number;
}

/** What Stripe holds for a deal: the payment's refunds (sum) and the transfer group's transfers, newest first. */
export async function stripeHoldings(config: StripeConfig, dealId: string, paymentIntentId: string): Promise<{ refunded: number; transfers: GroupTransfer[] }> {
  const stripe = stripeClient(config);
  const [refunds, transfers] = await Promise.all([stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 }), stripe.transfers.list({ transfer_group: dealId, limit: 100 })]);
  return {
    refunded: refunds.data.filter((r) => r.status !== "failed" && r.status !== "canceled").reduce((sum, r) => sum + r.amount, 0),
    transfers: transfers.data.map((t: Stripe.Transfer) => ({ id: t.id, amount: t.amount, reversed: t.amount_reversed ?? 0 })),
  };
}

/** Refunds `amount` more of the payment, under the attempt's key. */
export async function stripeRefund(config: StripeConfig, dealId: string, paymentIntentId: string, amount: number, attempt: string): Promise<void> {
  try {
    await stripeClient(config).refunds.create({ payment_intent: paymentIntentId, amount, metadata: { deal_id: dealId, attempt } }, { idempotencyKey: IDEMPOTENCY_KEYS.refund(dealId, attempt) });
  } catch (err) {
    // A refund repeated after Stripe forgot the key (24 h) is refused as already done.
    if ((err as { code?: string }).code !== "charge_already_refunded") throw err;
  }
}

/** Sends the lister `amount` from the deal's charge (it never waits for the charge's funds), under the attempt's key. */
export async function stripeTransfer(config: StripeConfig, req: { dealId: string; destination: string; chargeId: string | null; amount: number; attempt: string }): Promise<string> {
  const transfer = await stripeClient(config).transfers.create(
    {
      amount: req.amount,
      currency: "usd",
      destination: req.destination,
      transfer_group: req.dealId,
      ...(req.chargeId && { source_transaction: req.chargeId }),
      metadata: { kind: DEAL_METADATA_KIND, deal_id: req.dealId, attempt: req.attempt },
    },
    { idempotencyKey: IDEMPOTENCY_KEYS.transfer(req.dealId, req.attempt) },
  );
  return transfer.id;
}

/** Takes `amount` back from one transfer, under the attempt's key. */
export async function stripeReversal(config: StripeConfig, dealId: string, transferId: string, amount: number, attempt: string): Promise<void> {
  await stripeClient(config).transfers.createReversal(transferId, { amount, metadata: { deal_id: dealId, attempt } }, { idempotencyKey: IDEMPOTENCY_KEYS.reversal(dealId, attempt, transferId) });
}

/** Stripe refused a request (an invalid or forbidden one: a restricted account, no balance to reverse); a network error is not this. */
export const refusedByStripe = (err: unknown) => {
  const type = (err as { type?: string }).type;
  return type === "StripeInvalidRequestError" || type === "StripePermissionError";
};

/**
 * What the platform events a deal listens to say (docs/decisions/029), read field by field
 * (stripe/webhook.ts), and the development simulation's events shaped like Stripe's.
 */
import { idOf, MalformedEventError, num, obj, str, type Obj } from "../stripe/webhook";
import { DEAL_METADATA_KIND } from "./stripe";

export const DEAL_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "charge.refunded",
  "charge.dispute.created",
  "charge.dispute.closed",
  "transfer.created",
  "transfer.updated",
  "transfer.reversed",
] as const;

export type DealEventFacts =
  | { kind: "checkout"; sessionId: string; dealId: string; paid: boolean; ended: boolean; paymentIntentId: string | null; chargeId: string | null; amountTotal: number | null }
  | { kind: "refund"; chargeId: string; paymentIntentId: string | null; dealId: string | null; amountRefunded: number }
  | { kind: "dispute"; disputeId: string; chargeId: string | null; paymentIntentId: string | null; status: "open" | "won" | "lost"; amount: number }
  | { kind: "transfer"; transferId: string; dealId: string | null; amount: number; amountReversed: number };

/**
 * Which webhook an event is for. Both arrive at the one platform endpoint (decision 029): a Checkout
 * session in payment mode, a charge, a dispute and a transfer are a deal's; everything else is the
 * promotion's (subscription sessions, invoices, subscriptions).
 */
export function isDealEvent(event: { type: string; data: { object: unknown } }): boolean {
  if (event.type.startsWith("charge.") || event.type.startsWith("transfer.")) return true;
  if (event.type.startsWith("checkout.session.")) return obj(event.data.object).mode === "payment";
  return false;
}

const stateOfDispute = (status: string | undefined, closed: boolean): "open" | "won" | "lost" => {
  if (!closed) return "open";
  // `warning_closed` (an inquiry that never became a dispute) keeps the money where it was, as a win does.
  return status === "lost" ? "lost" : "won";
};

/** The facts of a deal event; null when it is not one we act on. Throws MalformedEventError when an object we read lacks its ids. */
export function readDealEvent(event: { type: string; data: { object: unknown } }): DealEventFacts | null {
  const o = obj(event.data.object);
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired": {
      const sessionId = str(o.id);
      if (!sessionId) throw new MalformedEventError("checkout session without an id");
      const md = obj(o.metadata);
      if (o.mode !== "payment" || md.kind !== DEAL_METADATA_KIND) return null;
      const dealId = str(md.deal_id) ?? str(o.client_reference_id);
      if (!dealId) throw new MalformedEventError("deal checkout without a deal id");
      const paid =
        event.type === "checkout.session.async_payment_succeeded" || (event.type === "checkout.session.completed" && (o.payment_status === "paid" || o.payment_status === "no_payment_required"));
      const paymentIntentId = idOf(o.payment_intent) ?? null;
      if (paid && !paymentIntentId) throw new MalformedEventError("paid deal checkout without a payment intent");
      return {
        kind: "checkout",
        sessionId,
        dealId,
        paid,
        ended: event.type === "checkout.session.async_payment_failed" || event.type === "checkout.session.expired",
        paymentIntentId,
        chargeId: idOf(obj(o.payment_intent).latest_charge) ?? null,
        amountTotal: num(o.amount_total) ?? null,
      };
    }
    case "charge.refunded": {
      const chargeId = str(o.id);
      if (!chargeId) throw new MalformedEventError("charge without an id");
      return { kind: "refund", chargeId, paymentIntentId: idOf(o.payment_intent) ?? null, dealId: str(o.transfer_group) ?? str(obj(o.metadata).deal_id) ?? null, amountRefunded: num(o.amount_refunded) ?? 0 };
    }
    case "charge.dispute.created":
    case "charge.dispute.closed": {
      const disputeId = str(o.id);
      if (!disputeId) throw new MalformedEventError("dispute without an id");
      return {
        kind: "dispute",
        disputeId,
        chargeId: idOf(o.charge) ?? null,
        paymentIntentId: idOf(o.payment_intent) ?? null,
        status: stateOfDispute(str(o.status), event.type === "charge.dispute.closed"),
        amount: num(o.amount) ?? 0,
      };
    }
    case "transfer.created":
    case "transfer.updated":
    case "transfer.reversed": {
      const transferId = str(o.id);
      if (!transferId) throw new MalformedEventError("transfer without an id");
      return { kind: "transfer", transferId, dealId: str(o.transfer_group) ?? str(obj(o.metadata).deal_id) ?? null, amount: num(o.amount) ?? 0, amountReversed: num(o.amount_reversed) ?? 0 };
    }
    default:
      return null;
  }
}

/* ---------- the development simulation's events (and the tests'), shaped like Stripe's ---------- */

const testEvent = (type: string, object: Obj, created = Math.floor(Date.now() / 1000)) => ({
  id: `evt_test_${crypto.randomUUID().replaceAll("-", "")}`,
  object: "event",
  api_version: null,
  created,
  livemode: false,
  type,
  data: { object },
});

/** checkout.session.completed of a deal's first payment (the intent expanded with its charge, as a retrieve would add). */
export function testDealCheckoutCompleted(s: { sessionId: string; dealId: string; paymentIntentId: string; chargeId: string; amountTotal: number; currency?: string }) {
  return testEvent("checkout.session.completed", {
    id: s.sessionId,
    object: "checkout.session",
    mode: "payment",
    status: "complete",
    payment_status: "paid",
    amount_total: s.amountTotal,
    currency: s.currency ?? "usd",
    client_reference_id: s.dealId,
    metadata: { kind: DEAL_METADATA_KIND, deal_id: s.dealId },
    payment_intent: { id: s.paymentIntentId, object: "payment_intent", latest_charge: s.chargeId },
  });
}

export function testChargeRefunded(c: { chargeId: string; paymentIntentId: string; dealId: string; amount: number; amountRefunded: number }) {
  return testEvent("charge.refunded", {
    id: c.chargeId,
    object: "charge",
    amount: c.amount,
    amount_refunded: c.amountRefunded,
    refunded: c.amountRefunded >= c.amount,
    payment_intent: c.paymentIntentId,
    transfer_group: c.dealId,
    metadata: { kind: DEAL_METADATA_KIND, deal_id: c.dealId },
  });
}

export function testTransfer(type: "transfer.created" | "transfer.reversed", t: { transferId: string; dealId: string; amount: number; amountReversed?: number; destination: string; chargeId: string | null }) {
  return testEvent(type, {
    id: t.transferId,
    object: "transfer",
    amount: t.amount,
    amount_reversed: t.amountReversed ?? 0,
    currency: "usd",
    destination: t.destination,
    source_transaction: t.chargeId,
    transfer_group: t.dealId,
    metadata: { kind: DEAL_METADATA_KIND, deal_id: t.dealId },
  });
}

export function testDispute(type: "charge.dispute.created" | "charge.dispute.closed", d: { disputeId: string; chargeId: string; paymentIntentId: string; amount: number; status?: "needs_response" | "won" | "lost" }) {
  return testEvent(type, { id: d.disputeId, object: "dispute", amount: d.amount, charge: d.chargeId, payment_intent: d.paymentIntentId, status: d.status ?? "needs_response", reason: "fraudulent" });
}

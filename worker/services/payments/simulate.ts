/**
 * Development without Stripe keys (docs/decisions/029): money moves are simulated, and after each settle
 * the events Stripe would send (charge.refunded, transfer.created, transfer.reversed) are signed with the
 * development webhook secret and delivered through the webhook's own entry, as Stripe would send them.
 * They find the facts already recorded, as Stripe's own events do after our settle.
 */
import type { Db } from "../../db/client";
import type { DealRow } from "../../db/queries/deals";
import { signWebhookPayload, verifiedEvent } from "../stripe/webhook";
import type { Effects } from "../deals/process";
import { eventRunner } from "./event-runner";
import { testChargeRefunded, testTransfer } from "./events";
import type { Moved } from "./move";

async function deliver(db: Db, fx: Effects, event: object) {
  const payload = JSON.stringify(event);
  const signature = await signWebhookPayload(fx.config.stripe.webhookSecret, payload);
  await eventRunner().applyDealEvent(db, fx, await verifiedEvent(fx.config.stripe, payload, signature));
}

/** The events of a simulated move: a refund made, a transfer made, a transfer reversed. */
export async function announceSimulated(db: Db, fx: Effects, before: DealRow, after: DealRow, moved: Moved) {
  if (moved.refunded > before.refunded_cents && after.payment_intent_id) {
    await deliver(db, fx, testChargeRefunded({ chargeId: after.charge_id ?? `ch_test_${after.id}`, paymentIntentId: after.payment_intent_id, dealId: after.id, amount: after.paid_cents, amountRefunded: moved.refunded }));
  }
  if (moved.simulatedTransfer) {
    await deliver(db, fx, testTransfer("transfer.created", { transferId: moved.simulatedTransfer.id, dealId: after.id, amount: moved.simulatedTransfer.amount, destination: "acct_simulated", chargeId: after.charge_id }));
  }
  if (moved.reversed > before.transfer_reversed_cents && after.transfer_id) {
    await deliver(db, fx, testTransfer("transfer.reversed", { transferId: after.transfer_id, dealId: after.id, amount: moved.transferred, amountReversed: moved.reversed, destination: "acct_simulated", chargeId: after.charge_id }));
  }
}

/**
 * Stripe's platform endpoint (docs/decisions/029): one entry for every platform event. The signature
 * is checked once (stripe/webhook.ts); a deal's events (payment-mode sessions, charges, disputes,
 * transfers) go to the deal's payments, everything else to promotions. `payments/webhook` and the older
 * `promotions/webhook` are this same entry, so a Stripe account that sends its events to both (or
 * either) applies each event once: a second delivery is a repeat (the event id is recorded with its effect).
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { Defer } from "../messaging";
import { applyStripeEvent } from "../promotions";
import { verifiedEvent } from "../stripe/webhook";
import { isDealEvent } from "./events";
import { applyDealEvent } from "./money";

export async function receivePlatformWebhook(db: Db, env: Env, config: Config, rawBody: string, signature: string | undefined, defer?: Defer): Promise<{ applied: boolean }> {
  const event = await verifiedEvent(config.stripe, rawBody, signature);
  if (!isDealEvent(event)) return applyStripeEvent(db, env, config, event);
  const tasks: Promise<unknown>[] = [];
  try {
    return await applyDealEvent(db, { env, config, defer: defer ?? ((t) => void tasks.push(t)) }, event);
  } finally {
    await Promise.allSettled(tasks);
  }
}

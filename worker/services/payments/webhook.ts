/**
 * Stripe's platform endpoint (docs/decisions/029, 035): one entry for every platform event. The signature
 * is checked once (stripe/webhook.ts); an event about a connected account (a Connect event, which names
 * its `account`) is refused here: it belongs to `payments/connect-webhook`, with its own secret. A deal's
 * events (payment-mode sessions, charges, disputes, transfers) go to the deal's payments, everything else
 * to promotions. `payments/webhook` and the older `promotions/webhook` are this same entry.
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { badRequest } from "../../lib/errors";
import type { Defer } from "../messaging";
import { applyStripeEvent } from "../promotions";
import { verifiedEvent } from "../stripe/webhook";
import { applyDealEvent } from "./apply-event";
import { isDealEvent } from "./events";

export async function receivePlatformWebhook(db: Db, env: Env, config: Config, rawBody: string, signature: string | undefined, defer?: Defer): Promise<{ applied: boolean }> {
  const event = await verifiedEvent(config.stripe, rawBody, signature);
  if (event.account) throw badRequest("Events of connected accounts go to the Connect endpoint (payments/connect-webhook)");
  if (!isDealEvent(event)) return applyStripeEvent(db, env, config, event);
  const tasks: Promise<unknown>[] = [];
  try {
    return await applyDealEvent(db, { env, config, defer: defer ?? ((t) => void tasks.push(t)) }, event);
  } finally {
    await Promise.allSettled(tasks);
  }
}

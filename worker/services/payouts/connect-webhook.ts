/**
 * The Connect endpoint (`POST payments/connect-webhook`, its own signing secret; docs/decisions/030):
 * `account.updated` applied once, in any order (decision 013's guarantees). The event id is recorded in
 * the same batch as its effect, so a repeat changes nothing; the effect is one statement conditional on
 * the row's `stripe_updated` (the `created` of the newest snapshot applied), so an older event arriving
 * late never overwrites a newer one. A single statement needs no version or retry: D1 applies it whole.
 */
import type { Db } from "../../db/client";
import { primaryOf } from "../../db/client";
import { findPayoutAccount, insertConnectEvent, ownerOfAccount, upsertAccountSnapshot } from "../../db/queries/payouts";
import { announcePayable, type Effects } from "../deals";
import { badRequest, isUniqueViolation } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { acknowledgeEvent, eventAlreadyApplied } from "../stripe/once";
import { obj, str, verifiedEvent, type StripeEventEnvelope } from "../stripe/webhook";
import { accountSnapshot } from ".";

export interface ConnectWebhookResult {
  applied: boolean;
  reason?: "duplicate" | "ignored" | "unknown_account" | "stale";
}

/** Applies one verified Connect event. Only `account.updated` changes anything; other types are acknowledged. */
export async function applyConnectEvent(db: Db, event: StripeEventEnvelope, now = Date.now(), fx?: Effects): Promise<ConnectWebhookResult> {
  if (event.type !== "account.updated") {
    await acknowledgeEvent(db, event.id, event.type);
    return { applied: false, reason: "ignored" };
  }
  const account = event.data.object;
  const accountId = str(account.id);
  if (!accountId || !accountId.startsWith("acct_")) throw badRequest("Malformed account.updated event: data.object.id is not an account id");
  if (await eventAlreadyApplied(db, event.id)) return { applied: false, reason: "duplicate" };
  // Our row names the owner; before onboarding stored it, the account's metadata (set by us at creation) does.
  const userId = (await ownerOfAccount(db, accountId)) ?? str(obj(account.metadata).user_id);
  if (!userId) {
    await acknowledgeEvent(db, event.id, event.type);
    log.warn("connect_event_unknown_account", { event_id: event.id });
    return { applied: false, reason: "unknown_account" };
  }
  const nowIso = isoNow(now);
  const wasReady = (await findPayoutAccount(primaryOf(db), userId))?.status === "ready";
  let results: D1Result[];
  try {
    results = await db.$client.batch([insertConnectEvent(db, event.id, event.type, nowIso), upsertAccountSnapshot(db, userId, accountSnapshot(account, event.created), nowIso)]);
  } catch (err) {
    // The same event delivered twice at once: the other delivery recorded it with its effect.
    if (isUniqueViolation(err) && (await eventAlreadyApplied(db, event.id))) return { applied: false, reason: "duplicate" };
    throw err;
  }
  if (!results[1]!.meta.changes) return { applied: false, reason: "stale" };
  // Ready now, not before: the renters of the lister's signed deals are told they can pay.
  if (fx && !wasReady && (await findPayoutAccount(primaryOf(db), userId))?.status === "ready") await announcePayable(db, fx, userId, now);
  return { applied: true };
}

/**
 * The endpoint's entry: the raw body checked against its Stripe-Signature with the Connect secret
 * (tolerance 300 s), then applied. A bad or stale signature, or a signed payload that is not an event,
 * is a 400 and changes nothing.
 */
export async function receiveConnectWebhook(db: Db, fx: Effects, rawBody: string, signature: string | undefined): Promise<ConnectWebhookResult> {
  const event = await verifiedEvent({ ...fx.config.stripe, webhookSecret: fx.config.stripe.connectWebhookSecret }, rawBody, signature);
  return applyConnectEvent(db, event, Date.now(), fx);
}

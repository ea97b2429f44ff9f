/**
 * Money stops before anything is deleted: a listing or a whole account is deleted only here, after its
 * live subscriptions were stopped (and a suspension stops them too).
 */
import { getConfig } from "../../env";
import type { Db } from "../../db/client";
import { closeCheckoutSessions, deleteIfPromotionVersion, liveSubscriptionsOfListing, liveSubscriptionsOfUser, openCheckoutSessionsOf, promotionVersionOf, suspendedUsersWithLiveSubscriptions } from "../../db/queries/promotions";
import { cancelStripeSubscriptionNow, expireStripeCheckoutSession, stripeConfigured } from "../stripe/client";
import { RETRY, untilApplied } from "../stripe/once";
import { busy, changeSubscriptionsOfListing, listingColumnsFor } from "./record";
import { apiError } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";

/**
 * Before a listing (or a whole account) is deleted, and when an account is suspended: its live
 * subscriptions (every one, not only the newest) are cancelled at Stripe now, so nobody keeps paying
 * for a listing that is gone or that nobody can see, and are ended here at once (the listing's paid
 * promotion with them); open checkout sessions are expired. Without keys there is nothing to tell
 * Stripe. A Stripe failure stops a deletion (502): retrying is better than charging on. A suspension
 * calls this after its takedown and does not wait for Stripe: the cron retries
 * (stopSubscriptionsOfSuspendedUsers).
 */
export async function stopSubscriptionsBeforeDelete(db: Db, env: Env, scope: { listingId: string } | { userId: string }): Promise<void> {
  const config = getConfig(env);
  // Checkouts still open (a tab left open) are closed first. Best effort: a session paid anyway is
  // cancelled and refunded when its events arrive (applyStripeEvent).
  const open = await openCheckoutSessionsOf(db, scope, isoNow());
  if (open.length) {
    for (const session of open) {
      if (session.kind !== "stripe" || !stripeConfigured(config.stripe)) continue;
      await expireStripeCheckoutSession(config.stripe, session.id).catch((err) =>
        log.warn("stripe_expire_failed", { session_id: session.id, message: err instanceof Error ? err.message : "unknown" }),
      );
    }
    await closeCheckoutSessions(db, open.map((s) => s.id), isoNow()).run();
  }
  const live = "listingId" in scope ? await liveSubscriptionsOfListing(db, scope.listingId) : await liveSubscriptionsOfUser(db, scope.userId);
  if (stripeConfigured(config.stripe)) {
    for (const subscription of live) {
      try {
        await cancelStripeSubscriptionNow(config.stripe, subscription.id);
      } catch (err) {
        log.error("stripe_cancel_failed", { subscription_id: subscription.id, message: err instanceof Error ? err.message : "unknown" });
        throw apiError(502, { detail: "Could not cancel the promotion subscription. Please try again." });
      }
    }
  }
  const stopped = new Set(live.map((r) => r.id));
  for (const listingId of new Set(live.map((r) => r.listingId))) {
    await changeSubscriptionsOfListing(db, listingId, (current, row, now) => {
      const ending = current.filter((r) => stopped.has(r.id)).map((r) => ({ ...r, ended: true, status: "canceled" }));
      if (!ending.length) return null;
      const othersLive = current.some((r) => !stopped.has(r.id));
      const columns = ending.map((r) => listingColumnsFor(r, row, now, othersLive)).find((c) => c) ?? null;
      return { records: ending, columns };
    });
  }
}

/**
 * The cron's retry of a suspension's last step: suspended users whose subscriptions could not be
 * cancelled then (Stripe down) are stopped now. The number of users stopped.
 */
export async function stopSubscriptionsOfSuspendedUsers(db: Db, env: Env): Promise<number> {
  let stopped = 0;
  for (const { userId } of await suspendedUsersWithLiveSubscriptions(db)) {
    try {
      await stopSubscriptionsBeforeDelete(db, env, { userId });
      stopped++;
    } catch (err) {
      log.error("suspended_subscriptions_stop_failed", { message: err instanceof Error ? err.message : "unknown" });
    }
  }
  return stopped;
}

/**
 * Deletes a listing or an account with no subscription left live: every live one is stopped first
 * (stopSubscriptionsBeforeDelete), then the row is deleted only if no Stripe event made one live in
 * between (the promotion version it read); otherwise it stops again. An event that read the row before
 * the delete finds it gone and cancels at Stripe itself (applyStripeEvent). False: nothing to delete.
 */
export async function deleteAfterStoppingSubscriptions(db: Db, env: Env, scope: { listingId: string } | { userId: string }): Promise<boolean> {
  return untilApplied(busy, async () => {
    await stopSubscriptionsBeforeDelete(db, env, scope);
    const version = await promotionVersionOf(db, scope);
    if (version === null) return false;
    const live = "listingId" in scope ? await liveSubscriptionsOfListing(db, scope.listingId) : await liveSubscriptionsOfUser(db, scope.userId);
    if (live.length) return RETRY;
    if ((await deleteIfPromotionVersion(db, scope, version)).meta.changes) return true;
    return RETRY;
  });
}

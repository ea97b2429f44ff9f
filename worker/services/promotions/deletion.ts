/**
 * Money stops before anything is deleted: a listing or a whole account is deleted only here, after
 * every renewal of its promotions stopped as Cancel does; a suspension ends its subscriptions at once.
 */
import { getConfig, type Config } from "../../env";
import type { Db } from "../../db/client";
import { archivePromotedListing, closeCheckoutSessions, wasPromoted, deleteIfPromotionVersion, liveSubscriptionsOfListing, liveSubscriptionsOfUser, openCheckoutSessionsOf, promotionVersionOf, suspendedUsersWithLiveSubscriptions } from "../../db/queries/promotions";
import { cancelStripeSubscriptionNow, expireStripeCheckoutSession, stripeConfigured } from "../stripe/client";
import { RETRY, untilApplied } from "../stripe/once";
import { busy, changeSubscriptionsOfListing, listingColumnsFor } from "./record";
import { stopRenewing, tellOwner } from "./cancel";
import { findListing, findOwnerListing } from "../../db/queries/listings";
import { findUserById } from "../../db/queries/users";
import type { PromotionStopReason } from "../email-templates";
import { apiError } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";

/**
 * When an account is suspended: its live subscriptions (every one, not only the newest) are cancelled
 * at Stripe now, so nobody keeps paying for listings nobody can see, and are ended here at once (the
 * listings' paid promotions with them); open checkout sessions are expired. Without keys there is
 * nothing to tell Stripe. A suspension calls this after its takedown and does not wait for Stripe: a
 * failure is a 502 that the cron retries (stopSubscriptionsOfSuspendedUsers).
 */
export async function endSubscriptionsNow(db: Db, env: Env, scope: Scope): Promise<void> {
  const config = getConfig(env);
  await closeOpenCheckouts(db, config, scope);
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
      await endSubscriptionsNow(db, env, { userId });
      stopped++;
    } catch (err) {
      log.error("suspended_subscriptions_stop_failed", { message: err instanceof Error ? err.message : "unknown" });
    }
  }
  return stopped;
}

/**
 * Deletes a listing or an account, money first: every subscription that still renews stops renewing as
 * Cancel does (Stripe told first, a failure is a 502: retrying beats charging on) and open checkouts
 * close; then the row is deleted only if no Stripe event made one live in between (the promotion version
 * read after stopping); otherwise it stops again. An event that read the row before the delete finds it
 * gone and cancels at Stripe itself (applyStripeEvent). A promoted listing's snapshot is kept for its
 * owner's /billing (its billing rows outlive it), and the owner is emailed for each renewal stopped.
 * False: nothing to delete.
 */
export async function deleteAfterStoppingSubscriptions(db: Db, env: Env, scope: Scope, by: "owner" | "staff" = "owner"): Promise<boolean> {
  const ctx = { db, env, config: getConfig(env) };
  await closeOpenCheckouts(db, ctx.config, scope);
  // An account's emails follow its deletion: its address is read while the row exists.
  const account = "userId" in scope ? await findUserById(db, scope.userId) : null;
  const reason: PromotionStopReason = "userId" in scope ? "account_deleted" : by === "staff" ? "deleted_by_staff" : "deleted";
  const stopped = new Map<string, { id: string; userId: string; title: string; promotionEnd: string | null }>();
  const liveOf = () => ("listingId" in scope ? liveSubscriptionsOfListing(db, scope.listingId) : liveSubscriptionsOfUser(db, scope.userId));
  const deleted = await untilApplied(busy, async () => {
    for (const listingId of new Set((await liveOf()).filter((r) => !r.cancelAtPeriodEnd).map((r) => r.listingId))) {
      try {
        if (!(await stopRenewing(db, ctx.config, listingId))) continue;
      } catch (err) {
        log.error("stripe_stop_renewal_failed", { listing_id: listingId, message: err instanceof Error ? err.message : "unknown" });
        throw apiError(502, { detail: "Could not stop the promotion's renewal. Please try again." });
      }
      const listing = await findListing(db, listingId);
      if (listing) stopped.set(listingId, listing);
    }
    const version = await promotionVersionOf(db, scope);
    if (version === null) return false;
    if ((await liveOf()).some((r) => !r.cancelAtPeriodEnd)) return RETRY;
    if ("listingId" in scope) await keepSnapshot(db, scope.listingId);
    if ((await deleteIfPromotionVersion(db, scope, version)).meta.changes) return true;
    return RETRY;
  });
  if (deleted) {
    for (const listing of stopped.values()) {
      await tellOwner(ctx, account ? { address: account.email, firstName: account.firstName } : { userId: listing.userId }, listing, reason);
    }
  }
  return deleted;
}

type Scope = { listingId: string } | { userId: string };

/**
 * Checkouts still open (a tab left open) are closed. Best effort at Stripe: a session paid anyway is
 * cancelled and refunded when its events arrive (applyStripeEvent).
 */
async function closeOpenCheckouts(db: Db, config: Config, scope: Scope) {
  const open = await openCheckoutSessionsOf(db, scope, isoNow());
  if (!open.length) return;
  for (const session of open) {
    if (session.kind !== "stripe" || !stripeConfigured(config.stripe)) continue;
    await expireStripeCheckoutSession(config.stripe, session.id).catch((err) =>
      log.warn("stripe_expire_failed", { session_id: session.id, message: err instanceof Error ? err.message : "unknown" }),
    );
  }
  await closeCheckoutSessions(db, open.map((s) => s.id), isoNow()).run();
}

/**
 * A promoted (or paid for) listing about to be deleted: what its owner's /billing shows of it, kept
 * (photos dropped: their files go with it; it no longer renews).
 */
async function keepSnapshot(db: Db, listingId: string) {
  if (!(await wasPromoted(db, listingId))) return;
  const listing = await findOwnerListing(db, listingId);
  if (!listing) return;
  const snapshot = { ...listing, pictures: [], thumbnails: [], auto_renew: false, stripe_subscription_id: null };
  await archivePromotedListing(db, { listingId, userId: listing.user_id, listing: JSON.stringify(snapshot), deletedAt: isoNow() });
}

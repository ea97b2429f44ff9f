/**
 * Stopping renewal: the promotion runs to promotion_end, auto_renew false, and then ends (cron or
 * Stripe's deletion). The owner's Cancel, and the same rule when a promoted listing is marked taken or
 * hidden, paused by the freshness check or deleted (api-contract "Promotions"); the owner is emailed
 * each time. Making the listing available again does not restart it.
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { findListing } from "../../db/queries/listings";
import { liveSubscriptionsOfListing, unavailableListingsStillRenewing } from "../../db/queries/promotions";
import type { PromotionStatus } from "../../contract/promotions";
import type { PromotionStopReason } from "../email-templates";
import { notify, type NotifyContext } from "../notify";
import { cancelStripeSubscriptionAtPeriodEnd, stripeConfigured } from "../stripe/client";
import { changeSubscriptionsOfListing, currentSubscription, listingColumnsFor, newest, ownListing, statusOf } from "./record";
import { apiError, conflict } from "../../lib/errors";
import { log } from "../../lib/log";

/**
 * Stops renewal of every live subscription of the listing that still renews (normally one). With keys
 * Stripe is told first; the same change is applied here at once, under the compare-and-set. True when
 * one was renewing.
 */
export async function stopRenewing(db: Db, config: Config, listingId: string): Promise<boolean> {
  const live = await liveSubscriptionsOfListing(db, listingId);
  // Only these are marked cancelled here: one recorded after this read was not told to Stripe.
  const toldStripe = new Set(live.filter((r) => !r.cancelAtPeriodEnd).map((r) => r.id));
  if (!toldStripe.size) return false;
  if (stripeConfigured(config.stripe)) {
    for (const id of toldStripe) await cancelStripeSubscriptionAtPeriodEnd(config.stripe, id);
  }
  await changeSubscriptionsOfListing(db, listingId, (current, row, now) => {
    const toCancel = current.filter((r) => !r.cancelAtPeriodEnd && toldStripe.has(r.id));
    if (!toCancel.length) return null;
    const at = Math.floor(now / 1000);
    const records = toCancel.map((r) => ({ ...r, cancelAtPeriodEnd: true, updatedEventAt: Math.max(r.updatedEventAt, at) }));
    const holder = newest(current.map((r) => records.find((c) => c.id === r.id) ?? r));
    return { records, columns: holder ? listingColumnsFor(holder, row, now) : null };
  });
  return true;
}

/** The owner's Cancel: 409 when nothing renews or runs. */
export async function cancelPromotion(ctx: NotifyContext, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const { db, config } = ctx;
  const listing = await ownListing(db, user, listingId);
  const live = await liveSubscriptionsOfListing(db, listing.id);
  if (!live.length) throw conflict("This listing has no promotion subscription to cancel");
  const stopped = await stopRenewing(db, config, listing.id);
  const fresh = (await findListing(db, listing.id))!;
  if (stopped) await tellOwner(ctx, { userId: fresh.userId }, fresh, "cancelled");
  return statusOf(fresh, await currentSubscription(db, listing.id));
}

/**
 * The listing left the market (taken, hidden, paused, about to be deleted): its promotion stops
 * renewing as Cancel does and the owner is told. A Stripe failure is a 502 for a deletion (retrying
 * beats charging on); otherwise it is logged and the cron tries again (stopRenewalOfUnavailableListings).
 * True when a subscription was renewing.
 */
export async function stopRenewal(ctx: NotifyContext, listingId: string, reason: PromotionStopReason, recipient?: { address: string; firstName: string }): Promise<boolean> {
  let stopped: boolean;
  try {
    stopped = await stopRenewing(ctx.db, ctx.config, listingId);
  } catch (err) {
    log.error("stripe_stop_renewal_failed", { listing_id: listingId, message: err instanceof Error ? err.message : "unknown" });
    if (reason === "deleted" || reason === "deleted_by_staff" || reason === "account_deleted") {
      throw apiError(502, { detail: "Could not stop the promotion's renewal. Please try again." });
    }
    return false;
  }
  const listing = await findListing(ctx.db, listingId);
  if (stopped && listing) await tellOwner(ctx, recipient ?? { userId: listing.userId }, listing, reason);
  return stopped;
}

export async function tellOwner(
  ctx: NotifyContext,
  recipient: { userId: string } | { address: string; firstName: string },
  listing: { id: string; title: string; promotionEnd: string | null },
  reason: PromotionStopReason,
) {
  await notify(ctx, recipient, { kind: "promotion_stopped", listingId: listing.id, title: listing.title, reason, endsAt: listing.promotionEnd });
}

/**
 * The cron's step: taken, hidden or paused listings whose promotion still renews (the freshness check
 * pauses in one statement; an owner's change whose Stripe call failed) stop renewing. How many stopped.
 */
export async function stopRenewalOfUnavailableListings(ctx: NotifyContext): Promise<number> {
  let stopped = 0;
  for (const { id, status } of await unavailableListingsStillRenewing(ctx.db)) {
    if (await stopRenewal(ctx, id, status as "taken" | "hidden" | "paused")) stopped++;
  }
  return stopped;
}

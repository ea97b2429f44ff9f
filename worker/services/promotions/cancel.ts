/** The owner stops renewal: the promotion runs to promotion_end (Cancel). */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { findListing } from "../../db/queries/listings";
import { liveSubscriptionsOfListing } from "../../db/queries/promotions";
import type { PromotionStatus } from "../../contract/promotions";
import { cancelStripeSubscriptionAtPeriodEnd, stripeConfigured } from "../stripe/client";
import { changeSubscriptionsOfListing, currentSubscription, listingColumnsFor, newest, ownListing, statusOf } from "./record";
import { conflict } from "../../lib/errors";

/**
 * The owner stops renewal of every live subscription of the listing (normally one): the promotion
 * runs to promotion_end and then ends (cron or Stripe's deletion). With keys Stripe is told first; the
 * same change is applied here at once, under the compare-and-set.
 */
export async function cancelPromotion(db: Db, config: Config, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const listing = await ownListing(db, user, listingId);
  const live = await liveSubscriptionsOfListing(db, listing.id);
  if (!live.length) throw conflict("This listing has no promotion subscription to cancel");
  // Only these are marked cancelled here: one recorded after this read was not told to Stripe.
  const toldStripe = new Set(live.filter((r) => !r.cancelAtPeriodEnd).map((r) => r.id));
  if (stripeConfigured(config.stripe)) {
    for (const id of toldStripe) await cancelStripeSubscriptionAtPeriodEnd(config.stripe, id);
  }
  await changeSubscriptionsOfListing(db, listing.id, (current, row, now) => {
    const toCancel = current.filter((r) => !r.cancelAtPeriodEnd && toldStripe.has(r.id));
    if (!toCancel.length) return null;
    const at = Math.floor(now / 1000);
    const records = toCancel.map((r) => ({ ...r, cancelAtPeriodEnd: true, updatedEventAt: Math.max(r.updatedEventAt, at) }));
    const holder = newest(current.map((r) => records.find((c) => c.id === r.id) ?? r));
    return { records, columns: holder ? listingColumnsFor(holder, row, now) : null };
  });
  const fresh = (await findListing(db, listing.id))!;
  return statusOf(fresh, await currentSubscription(db, listing.id));
}

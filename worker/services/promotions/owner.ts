/** What an owner reads about their promotions: status, billing history, the promoted listings. */
import type { Db } from "../../db/client";
import { promotedListingsOfUser } from "../../db/queries/listings";
import { billingHistoryOfListing, liveSubscriptionsOfUser, pendingPromotionsOfUser } from "../../db/queries/promotions";
import { type BillingHistoryEntry, type PromotedListing, type PromotionStatus } from "../../contract/promotions";
import { currentSubscription, ownListing, promotionStateOf, statusOf } from "./record";

export async function promotionStatus(db: Db, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const listing = await ownListing(db, user, listingId);
  return statusOf(listing, await currentSubscription(db, listing.id));
}

export async function billingHistory(db: Db, user: { id: string }, listingId: string): Promise<BillingHistoryEntry[]> {
  const listing = await ownListing(db, user, listingId);
  const rows = await billingHistoryOfListing(db, listing.id);
  return rows.map((r) => ({
    id: r.id,
    amount: r.amount,
    currency: r.currency,
    period_start: r.periodStart,
    period_end: r.periodEnd,
    created: r.created,
    status: r.status,
  }));
}


/** GET users/promoted-listings: the user's listings that are or were promoted (or wait for approval), with their state. */
export async function promotedListingsWithState(db: Db, userId: string): Promise<PromotedListing[]> {
  const [listings, subscriptions, pending] = await Promise.all([
    promotedListingsOfUser(db, userId),
    liveSubscriptionsOfUser(db, userId),
    pendingPromotionsOfUser(db, userId),
  ]);
  const subOf = new Map(subscriptions.map((s) => [s.listingId, s]));
  const pendingOf = new Map(pending.map((p) => [p.id, p.promotionPendingDays]));
  const now = Date.now();
  return listings.map((l) => ({
    ...l,
    promotion_state: promotionStateOf(
      {
        verificationStatus: l.verification_status,
        pendingDays: pendingOf.get(l.id) ?? null,
        promotionStart: l.promotion_start,
        promotionEnd: l.promotion_end,
        autoRenew: l.auto_renew,
        subscriptionId: l.stripe_subscription_id,
      },
      subOf.get(l.id),
      now,
    ),
  }));
}

/** What an owner reads about their promotions: status, billing history, the promoted listings. */
import type { Db } from "../../db/client";
import { findListing, promotedListingsOfUser } from "../../db/queries/listings";
import { billingHistoryOfListing, deletedPromotedListingsOfUser, findDeletedPromotedListing, liveSubscriptionsOfUser, pendingPromotionsOfUser } from "../../db/queries/promotions";
import type { BillingHistoryEntry, PromotedListing, PromotionStatus } from "../../contract/promotions";
import type { OwnerListing } from "../../contract/listings";
import { notFound } from "../../lib/errors";
import { currentSubscription, ownListing, promotionStateOf, statusOf } from "./record";

export async function promotionStatus(db: Db, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const listing = await ownListing(db, user, listingId);
  return statusOf(listing, await currentSubscription(db, listing.id));
}

/** The listing's paid invoices; they outlive the listing: a deleted one's still answer its owner (404 to anyone else). */
export async function billingHistory(db: Db, user: { id: string }, listingId: string): Promise<BillingHistoryEntry[]> {
  const deleted = (await findListing(db, listingId)) ? undefined : await findDeletedPromotedListing(db, listingId);
  if (deleted && deleted.userId !== user.id) throw notFound("Listing not found");
  const id = deleted ? deleted.listingId : (await ownListing(db, user, listingId)).id;
  const rows = await billingHistoryOfListing(db, id);
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
  const [listings, subscriptions, pending, deleted] = await Promise.all([
    promotedListingsOfUser(db, userId),
    liveSubscriptionsOfUser(db, userId),
    pendingPromotionsOfUser(db, userId),
    deletedPromotedListingsOfUser(db, userId),
  ]);
  const subOf = new Map(subscriptions.map((s) => [s.listingId, s]));
  const pendingOf = new Map(pending.map((p) => [p.id, p.promotionPendingDays]));
  const now = Date.now();
  const live = listings.map((l) => ({
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
  return [...live, ...deleted.map((row) => deletedEntry(row.listing, now))];
}

/** A deleted listing as its snapshot kept it: no renewal, no pending start, marked deleted. */
function deletedEntry(json: string, now: number): PromotedListing {
  const l = JSON.parse(json) as OwnerListing;
  const facts = { verificationStatus: l.verification_status, pendingDays: null, promotionStart: l.promotion_start, promotionEnd: l.promotion_end, autoRenew: false, subscriptionId: null };
  return { ...l, promotion_state: promotionStateOf(facts, undefined, now), deleted: true };
}

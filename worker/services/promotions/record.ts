/**
 * A promotion's state: the window (promotion_start..promotion_end) with a source (stripe | admin) and
 * an auto_renew flag, and each Stripe subscription's record (stripe_subscriptions), which events only
 * move forward; the listing's promotion columns are derived from the record here. Ending a promotion
 * clears the window, its source and auto_renew, everywhere. Writes go through the compare-and-set of
 * stripe/once.ts (decision 013).
 */
import type { Db } from "../../db/client";
import { purgeListingCache } from "../edge-cache";
import { findListing } from "../../db/queries/listings";
import { liveSubscriptionsOfListing, nextPromotionVersion, promotionBatch, saveSubscriptionIf, updateListingPromotionIf, type GuardedStatement, type SubscriptionRecord } from "../../db/queries/promotions";
import { isListingOwner } from "../../contract/policies";
import { requireViewableListing } from "../viewable-listing";
import { isPromotedNow } from "../../contract/owner-rules";
import { PROMOTION_PLAN, type PromotionState, type PromotionStatus } from "../../contract/promotions";
import { applied, RETRY, untilApplied } from "../stripe/once";
import type { SubscriptionChange } from "./events";
import { apiError, forbidden } from "../../lib/errors";
import { isoIn, isoNow } from "../../lib/time";

export const DAY_MS = 86_400_000;

export const busy = () => apiError(503, { detail: "The promotion is being updated by another request. Please try again." });

/**
 * Writes of the promotion columns that do not read them first (staff, approval, the cron) still move
 * the version on, so a guarded write based on a read from before them retries. (drizzle writes an
 * SQL value as it is; the insert type only knows numbers.)
 */
export const bumpVersion = { promotionVersion: nextPromotionVersion as unknown as number };

export type PromotionSource = "stripe" | "admin";

/** The columns of a promotion that runs `days` from `now` (replacing any window it had). */
export const promotionStarted = (days: number, source: PromotionSource, now: number) => ({
  promotionStart: isoNow(now),
  promotionEnd: isoIn(days * DAY_MS, now),
  promotionSource: source,
});

/** The columns of a listing whose promotion ended. */
export const promotionEnded = () => ({ promotionStart: null, promotionEnd: null, promotionSource: null, autoRenew: false });

/**
 * Each Stripe subscription has a record (stripe_subscriptions) that webhook events only ever move
 * forward: the paid period grows, `checked_out` and `ended` never go back, and a subscription
 * update older than the one applied is ignored. The listing's promotion columns are derived from
 * that record here, so events give the same result in any order: a deletion that arrives before
 * the checkout's completion still ends in "ended".
 */
export type { SubscriptionRecord };

const isoAt = (ms: number) => new Date(ms).toISOString();
const laterIso = (a: string | null, b: string | null) => (!a ? b : !b ? a : a > b ? a : b);

/** Paid for (an invoice) or checked out, and not ended: the promotion runs (or waits for approval). */
export const isLive = (r: SubscriptionRecord) => !r.ended && (r.checkedOut || !!r.currentPeriodEnd);
/** A renewal failed: its period reaches beyond what was paid. */
export const isPastDue = (r: SubscriptionRecord) => !r.ended && !!r.failedPeriodEnd && (!r.currentPeriodEnd || r.failedPeriodEnd > r.currentPeriodEnd);
/** The subscription the listing's promotion belongs to: live, and not a cancelled one whose paid period is over. */
export const holdsListing = (r: SubscriptionRecord, nowIso: string) => isLive(r) && !(r.cancelAtPeriodEnd && r.currentPeriodEnd && r.currentPeriodEnd <= nowIso);
/** Blocks a second purchase: holds the listing, or its delayed payment is on its way. */
export const blocksCheckout = (r: SubscriptionRecord, nowIso: string) => !r.ended && (holdsListing(r, nowIso) || r.awaitingPayment);

/** The record after one event's facts. */
export function mergeSubscription(existing: SubscriptionRecord | undefined, change: SubscriptionChange, listing: ListingRecord, now: number): SubscriptionRecord {
  const base: SubscriptionRecord = existing ?? {
    id: change.subscriptionId,
    listingId: listing.id,
    userId: change.userId ?? listing.userId,
    status: "incomplete",
    currentPeriodEnd: null,
    failedPeriodEnd: null,
    cancelAtPeriodEnd: false,
    updatedEventAt: 0,
    checkedOut: false,
    awaitingPayment: false,
    ended: false,
    duplicate: false,
    createdAt: isoNow(now),
  };
  const r = { ...base };
  if (change.periodEnd) r.currentPeriodEnd = laterIso(r.currentPeriodEnd, isoAt(change.periodEnd * 1000));
  if (change.paymentFailed) {
    const failedEnd = change.failedPeriodEnd
      ? isoAt(change.failedPeriodEnd * 1000)
      : isoAt(Math.max(now, r.currentPeriodEnd ? Date.parse(r.currentPeriodEnd) : 0) + PROMOTION_PLAN.days * DAY_MS);
    r.failedPeriodEnd = laterIso(r.failedPeriodEnd, failedEnd);
  }
  if (change.checkedOut) r.checkedOut = true;
  // Waiting for a delayed payment only until it is paid (checked out, or an invoice paid).
  if (change.awaitingPayment && !r.checkedOut) r.awaitingPayment = true;
  if (r.checkedOut || r.currentPeriodEnd) r.awaitingPayment = false;
  if (change.update && change.update.at >= r.updatedEventAt) {
    r.updatedEventAt = change.update.at;
    r.cancelAtPeriodEnd = change.update.cancelAtPeriodEnd;
    r.status = change.update.status;
  }
  if (change.ended) {
    r.ended = true;
    r.status = "canceled";
  }
  if (r.ended) r.awaitingPayment = false;
  return r;
}

export type ListingRecord = NonNullable<Awaited<ReturnType<typeof findListing>>>;

/**
 * The listing's promotion columns that follow from its subscription record (null: leave them).
 * `othersLive`: another subscription of the listing has not ended (then an ended one only clears
 * what names it).
 */
export function listingColumnsFor(r: SubscriptionRecord, listing: ListingRecord, now: number, othersLive = false) {
  if (r.duplicate) return null;
  if (r.ended) {
    // Only the promotion this subscription paid for ends (not a newer one, not staff's).
    const wasLive = r.checkedOut || !!r.currentPeriodEnd;
    const ours =
      listing.stripeSubscriptionId === r.id ||
      (wasLive && !othersLive && listing.stripeSubscriptionId === null && (listing.promotionSource === "stripe" || listing.promotionPendingDays !== null));
    return ours ? { ...promotionEnded(), stripeSubscriptionId: null, promotionPendingDays: null } : null;
  }
  if (!isLive(r)) return null;
  const renewing = !r.cancelAtPeriodEnd;
  // Spec: a renewing promotion carries its subscription id ('Promoted'); a cancelled one does not ('Cancelled').
  const subscription = { autoRenew: renewing, stripeSubscriptionId: renewing ? r.id : null };
  const paidEnd = r.currentPeriodEnd ? Date.parse(r.currentPeriodEnd) : null;
  if (listing.verificationStatus !== "approved") {
    // Bought while the listing awaits review: what was paid for waits and starts on approval.
    const days = Math.max(1, Math.ceil(((paidEnd ?? now + PROMOTION_PLAN.days * DAY_MS) - now) / DAY_MS));
    return { ...subscription, promotionPendingDays: days };
  }
  const running = listing.promotionSource === "stripe" && !!listing.promotionEnd && Date.parse(listing.promotionEnd) > now;
  // To the end of the period paid for (the record's period only moves forward); until an invoice
  // tells it, 7 days from the checkout.
  const end = paidEnd ?? (running ? Date.parse(listing.promotionEnd!) : now + PROMOTION_PLAN.days * DAY_MS);
  return {
    ...subscription,
    promotionStart: running && listing.promotionStart ? listing.promotionStart : isoNow(now),
    promotionEnd: isoAt(end),
    promotionSource: "stripe" as const,
    promotionPendingDays: null,
  };
}


/** The facts the rules read, from a listing row and its subscription record. */
interface PromotionFacts {
  verificationStatus: string;
  pendingDays: number | null;
  promotionStart: string | null;
  promotionEnd: string | null;
  autoRenew: boolean;
  subscriptionId: string | null;
}

/** Where a listing's promotion stands (contract PromotionState). */
export function promotionStateOf(f: PromotionFacts, subscription: SubscriptionRecord | undefined, now = Date.now()): PromotionState {
  if (f.pendingDays && f.verificationStatus !== "approved") return "awaiting_approval";
  if (subscription && isPastDue(subscription)) return "past_due";
  if (!isPromotedNow(f.promotionStart, f.promotionEnd, now)) return "none";
  return f.autoRenew && f.subscriptionId ? "promoted" : "cancelled";
}

export function statusOf(listing: ListingRecord, subscription: SubscriptionRecord | undefined, now = Date.now()): PromotionStatus {
  const facts: PromotionFacts = {
    verificationStatus: listing.verificationStatus,
    pendingDays: listing.promotionPendingDays,
    promotionStart: listing.promotionStart,
    promotionEnd: listing.promotionEnd,
    autoRenew: listing.autoRenew,
    subscriptionId: listing.stripeSubscriptionId,
  };
  const promoted = isPromotedNow(facts.promotionStart, facts.promotionEnd, now);
  return {
    promoted,
    promotion_start: listing.promotionStart,
    promotion_end: listing.promotionEnd,
    days_remaining: promoted ? Math.max(0, Math.ceil((Date.parse(listing.promotionEnd!) - now) / DAY_MS)) : 0,
    auto_renew: listing.autoRenew,
    state: promotionStateOf(facts, subscription, now),
  };
}

/** The owner's listing (404 to those who cannot see it, 403 to others who can). */
export async function ownListing(db: Db, user: { id: string }, listingId: string): Promise<ListingRecord> {
  const listing = await findListing(db, listingId);
  const facts = listing && { user_id: listing.userId, verification_status: listing.verificationStatus, status: listing.status, moderation_status: listing.moderationStatus };
  const visible = requireViewableListing(facts, user);
  if (!listing || !isListingOwner(user, visible)) throw forbidden("Only the listing's owner can manage its promotion");
  return listing;
}

export const newest = (records: SubscriptionRecord[]) => [...records].sort((a, b) => (b.createdAt > a.createdAt ? 1 : -1))[0];

/** The listing's current subscription record: the live one, if any. */
export async function currentSubscription(db: Db, listingId: string): Promise<SubscriptionRecord | undefined> {
  return newest(await liveSubscriptionsOfListing(db, listingId));
}


/** Moves a listing's live subscription records and promotion columns under the compare-and-set, retrying a lost race. */
export async function changeSubscriptionsOfListing(
  db: Db,
  listingId: string,
  change: (live: SubscriptionRecord[], listing: ListingRecord, now: number) => { records: SubscriptionRecord[]; columns: ReturnType<typeof listingColumnsFor> } | null,
): Promise<boolean> {
  return untilApplied(busy, async () => {
    const listing = await findListing(db, listingId);
    if (!listing) return false;
    const now = Date.now();
    const next = change(await liveSubscriptionsOfListing(db, listingId), listing, now);
    if (!next) return false;
    const statements: GuardedStatement[] = next.records.map((r) => saveSubscriptionIf(db, r, listing.promotionVersion));
    statements.push(updateListingPromotionIf(db, listingId, listing.promotionVersion, next.columns ? { ...next.columns, updatedAt: isoNow(now) } : {}));
    if (!applied(await promotionBatch(db, statements))) return RETRY;
    if (next.columns) await purgeListingCache([listingId]);
    return true;
  });
}

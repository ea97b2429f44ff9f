/**
 * The rules about an owner's own listing that only the owner's pages, staff and the worker use: its
 * promotion, the state the profile names, the price check and the edits that send it back to review.
 * Kept apart from policies.ts, which the home page loads (its first load stays in budget; docs/decisions/023).
 */
import { isListingOwner, PUBLIC_LISTING, type Actor, type ListingFacts, type Someone } from "./policies";
import { formatMomentDate } from "./dates";

/** Owners promote their own approved listings that staff have not hidden. */
export function canPromoteListing(user: Actor, listing: ListingFacts): boolean {
  return isListingOwner(user, listing) && listing.verification_status === PUBLIC_LISTING.verification_status && listing.moderation_status === PUBLIC_LISTING.moderation_status;
}

/**
 * Owners buy a paid promotion for their own listing that is approved, or pending review (the
 * promotion then starts on approval), and not hidden by staff.
 */
export function canBuyPromotion(user: Someone, listing: ListingFacts): boolean {
  return (
    isListingOwner(user, listing) &&
    (listing.verification_status === PUBLIC_LISTING.verification_status || listing.verification_status === "pending") &&
    listing.moderation_status === PUBLIC_LISTING.moderation_status
  );
}

/** Staff promote any approved listing (docs/product-rules.md "States"). */
export function canStaffPromoteListing(listing: Pick<ListingFacts, "verification_status">): boolean {
  return listing.verification_status === PUBLIC_LISTING.verification_status;
}

/**
 * Promoted right now: the window has an end after `now` (ms) and a start at or before it (none: since
 * always). One rule for the listing's badge, the promotion status and browse's promoted-first phase;
 * its SQL twin is `promotedNowSql` (db/queries/listing-sql.ts), which compares the stored ISO strings.
 */
export function isPromotedNow(promotionStart: string | null, promotionEnd: string | null, now: number): boolean {
  return !!promotionEnd && Date.parse(promotionEnd) > now && (!promotionStart || Date.parse(promotionStart) <= now);
}


/** The one state an owner's own listing is in, as the profile names it (each state has its own actions). */
export type OwnerListingState = "pending" | "rejected" | "hidden_by_staff" | "taken" | "paused" | "unconfirmed" | "live";

/**
 * Review comes first (a pending or rejected listing is public to nobody, whatever its owner set),
 * then staff's hiding, then the owner's own status.
 */
export function ownerListingState(listing: Omit<ListingFacts, "user_id">): OwnerListingState {
  if (listing.verification_status === "rejected") return "rejected";
  if (listing.verification_status !== PUBLIC_LISTING.verification_status) return "pending";
  if (listing.moderation_status !== PUBLIC_LISTING.moderation_status) return "hidden_by_staff";
  if (listing.status === "taken") return "taken";
  // Paused by the freshness check (not confirmed as available for 21 days): Confirm availability brings it back.
  if (listing.status === "paused") return "unconfirmed";
  if (listing.status !== PUBLIC_LISTING.status) return "paused";
  return "live";
}

/** Whether the owner may confirm the place is still available: a live or freshness-paused listing (not taken or hidden). */
export function canConfirmAvailability(listing: Pick<ListingFacts, "status">): boolean {
  return listing.status === "available" || listing.status === "paused";
}

/** Price check (docs/decisions/015): a rent below `belowFraction` of the median of at least `minComparables` similar approved listings. */
export const PRICE_CHECK = { minComparables: 5, belowFraction: 0.5 } as const;

/**
 * The price check: rent strictly below half the median of similar approved listings, judged only with
 * at least PRICE_CHECK.minComparables of them (fewer: no verdict).
 */
export function isRentFarBelow(rent: number, comparables: { count: number; median: number | null }): boolean {
  if (comparables.count < PRICE_CHECK.minComparables || comparables.median === null) return false;
  return rent < comparables.median * PRICE_CHECK.belowFraction;
}

/**
 * An approved listing's rent may drop by at most this share of the rent staff last approved without
 * another review (docs/decisions/015): a bigger cut is the bait-price pattern (approved at a real rent, then
 * lowered to draw deposits). Exactly a quarter is allowed; more is not.
 */
export const MAX_RENT_DROP_WITHOUT_REVIEW = 0.25;

/** What staff judged when they approved a listing: the facts an owner's edit is compared on. */
export interface ReviewedFacts {
  title: string;
  description: string;
  university_id: number;
  unit_type: string;
  address: string;
  monthly_rent: number;
  /** The photos in order (keys or addresses: only compared with each other). */
  photos: readonly string[];
}

/** Why an edit sends an approved listing back to review (staff and the edit form can say which). */
export type MaterialChange = "title" | "description" | "university" | "unit_type" | "address" | "photos" | "rent_far_below" | "rent_drop";

/**
 * The material changes of an owner's edit of an approved listing (docs/decisions/015): the
 * title, the description, the university, the unit type, the address and the photos (any added,
 * removed or reordered) always (text is what a bait-and-switch rewrites, so staff read every new
 * word); the rent when it is lowered below the price check's "far below typical" line
 * (`isRentFarBelow` on `comparables`, null when unknown) or to less than three quarters of
 * `approvedRent` (the rent staff last approved; the rent before this edit when unknown). Anything
 * else (the dates, parking, pets, a higher rent, availability) keeps the listing live.
 */
export function materialChanges(
  before: ReviewedFacts & { approvedRent?: number | null },
  after: ReviewedFacts,
  comparables: { count: number; median: number | null } | null,
): MaterialChange[] {
  const changes: MaterialChange[] = [];
  if (after.title.trim() !== before.title.trim()) changes.push("title");
  if (after.description.trim() !== before.description.trim()) changes.push("description");
  if (after.university_id !== before.university_id) changes.push("university");
  if (after.unit_type !== before.unit_type) changes.push("unit_type");
  if (after.address.trim() !== before.address.trim()) changes.push("address");
  if (after.photos.length !== before.photos.length || after.photos.some((p, i) => p !== before.photos[i])) changes.push("photos");
  if (after.monthly_rent < before.monthly_rent) {
    if (comparables && isRentFarBelow(after.monthly_rent, comparables)) changes.push("rent_far_below");
    const approved = before.approvedRent ?? before.monthly_rent;
    if (after.monthly_rent < approved * (1 - MAX_RENT_DROP_WITHOUT_REVIEW)) changes.push("rent_drop");
  }
  return changes;
}

/** Whether an owner's edit of an approved listing sends it back to review (see `materialChanges`). */
export function editNeedsReview(
  before: ReviewedFacts & { approvedRent?: number | null },
  after: ReviewedFacts,
  comparables: { count: number; median: number | null } | null,
): boolean {
  return materialChanges(before, after, comparables).length > 0;
}

/**
 * What the owner reads before taking a promoted listing off the market (Mark taken, Delete): its
 * promotion stops renewing as Cancel does (api-contract "Promotions"). Null when nothing renews.
 */
export function renewalStopNotice(
  listing: { auto_renew: boolean; stripe_subscription_id: string | null; promotion_end: string | null },
  action: "taken" | "delete",
): string | null {
  if (!listing.auto_renew || !listing.stripe_subscription_id) return null;
  const end = formatMomentDate(listing.promotion_end, { year: "always" });
  const until = end ? ` It stays promoted until ${end}.` : "";
  return action === "taken"
    ? `Its weekly promotion will stop renewing and you will not be charged again.${until} Marking it available later does not restart the promotion.`
    : "Its weekly promotion will stop renewing and you will not be charged again. Its billing history stays on your Billing page.";
}

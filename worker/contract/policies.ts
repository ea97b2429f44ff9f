/**
 * The product's rules, one home each (docs/product-rules.md "Who may do what"), for the worker and the SPA alike: pure
 * functions, no I/O. Routes throw when a rule says no; screens hide or lock what a rule forbids;
 * `db/queries` builds its SQL from the same constants. Changing a rule means editing it here.
 */
import type { GenderPreference, UnitType } from "./constants";

/**
 * Fair preferences (docs/decisions/018): the unit types where the renter shares a living space
 * (kitchen, living room) with others ("other" is most often a room in a house). Any other type (studio, 1x1, 1x2) is a whole
 * unit, open to everyone. migrations/0009_fair_preferences.sql repeats this list.
 */
export const SHARED_UNIT_TYPES: readonly UnitType[] = ["2x1", "2x2", "3x1", "3x2", "3x3", "4x2", "4x3", "4x4", "other"];

/** A gender preference may be stated only for a shared unit (the US fair-housing shared-living exception). */
export function allowsGenderPreference(unitType: string): boolean {
  return (SHARED_UNIT_TYPES as readonly string[]).includes(unitType);
}

/** The preference a listing of this unit type stores: the one asked for where allowed, else no_preference. */
export function fairGenderPreference(unitType: string, preference: GenderPreference): GenderPreference {
  return allowsGenderPreference(unitType) ? preference : "no_preference";
}

/** The one status that counts as identity-verified ("approved" is a review decision, not a user status). */
export const ID_VERIFIED = "verified";

/** What a listing must be for anyone but its owner (and staff) to see it. */
export const PUBLIC_LISTING = {
  verification_status: "approved",
  status: "available",
  moderation_status: "visible",
} as const;

/** Who is asking: a signed-in user's id and identity status, or nobody. */
export type Actor = { id: string; id_verification_status: string } | null | undefined;
/** Who is asking, where only their id matters. */
export type Someone = { id: string } | null | undefined;

/** The parts of a listing the rules look at. */
export interface ListingFacts {
  user_id: string;
  verification_status: string;
  status: string;
  moderation_status: string;
}

/**
 * How the user's own pages word their status: "approved" reads as verified there (docs/product-rules.md "States"),
 * though only `isIdVerified` unlocks anything.
 */
export function looksIdVerified(status: string): boolean {
  return status === ID_VERIFIED || status === "approved";
}

export function isIdVerified(user: { id_verification_status: string } | null | undefined): boolean {
  return user?.id_verification_status === ID_VERIFIED;
}

/** Only users whose identity is verified may create listings. */
export function canCreateListing(user: Actor): boolean {
  return isIdVerified(user);
}

/** Public: approved by staff, available by its owner, not hidden by staff. */
export function isPublicListing(listing: Omit<ListingFacts, "user_id">): boolean {
  return (
    listing.verification_status === PUBLIC_LISTING.verification_status &&
    listing.status === PUBLIC_LISTING.status &&
    listing.moderation_status === PUBLIC_LISTING.moderation_status
  );
}

export function isListingOwner(user: Someone, listing: Pick<ListingFacts, "user_id">): boolean {
  return !!user && user.id === listing.user_id;
}

/** Whether this person may see the listing at all (everyone else gets "not found"). */
export function canViewListing(user: Someone, listing: ListingFacts): boolean {
  return isPublicListing(listing) || isListingOwner(user, listing);
}

/** Owners edit and delete their own listings, whatever their review state (docs/product-rules.md "Who may do what"). */
export function canEditListing(user: Someone, listing: Pick<ListingFacts, "user_id">): boolean {
  return isListingOwner(user, listing);
}

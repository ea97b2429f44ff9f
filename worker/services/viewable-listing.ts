/**
 * The one view-or-404 rule for a listing: whoever may not see it (policies.canViewListing: public, or
 * their own) hears "Listing not found", never "forbidden", so a hidden or pending listing's existence
 * does not leak. Every route and service that looks a listing up on someone's behalf goes through it.
 */
import { canViewListing, type ListingFacts, type Someone } from "../contract/policies";
import { notFound } from "../lib/errors";

export const LISTING_NOT_FOUND = "Listing not found";

/** The listing (or its facts) when `viewer` may see it; else 404 "Listing not found". */
export function requireViewableListing<T extends ListingFacts>(listing: T | null | undefined, viewer: Someone): T {
  if (!listing || !canViewListing(viewer, listing)) throw notFound(LISTING_NOT_FOUND);
  return listing;
}

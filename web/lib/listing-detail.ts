/**
 * One listing's read (the listing page, its edit and promote pages, favourites, a deal's card, the server
 * render). Not in listings-api.ts, which the home page loads in its first chunk and never needs this
 * for (docs/decisions/023); the query keys stay there (main.tsx reads the detail key).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListingResponse, OwnerListing, PublicListing } from "@contract/listings";
import { apiRequest } from "./api-client";
import { listingKeys } from "./listings-api";

/** The owner reads their own listing (an OwnerListing), anyone else its public form. */
export const getListing = (id: string) => apiRequest<ListingResponse>(`subleases/${encodeURIComponent(id)}`).then((r) => r.data);

/** The detail call answers the owner's view (review notes included) only to the owner. */
export const isOwnerView = (listing: PublicListing | OwnerListing): listing is OwnerListing => "rejection_reason" in listing;

/**
 * A failed read is not repeated on mount: "Listing not found" rendered by the server hydrates as is
 * (a 500's page offers Try again).
 */
export const listingQuery = (id: string | undefined) =>
  queryOptions({ queryKey: listingKeys.detail(id), queryFn: () => getListing(id!), enabled: !!id, retryOnMount: false });

export function useListing(id: string | undefined) {
  return useQuery(listingQuery(id));
}

/**
 * An owner's calls on their own listings (the profile, the edit form, the listing page's freshness
 * notices, staff's delete): apart from listings-api.ts, which the home page loads (the first load's budget, docs/decisions/023).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { listingPatchSchema, OwnerListingResponse, OwnerListingsResponse } from "@contract/listings";
import { apiRequest } from "./api-client";
import { listingKeys } from "./listings-api";

/** What an owner may send to change a listing (booleans may go as "true"/"false", as the original client sends them). */
export type ListingPatch = z.input<typeof listingPatchSchema>;

export const getOwnListings = () => apiRequest<OwnerListingsResponse>("users/listings", { query: { include_unavailable: true } }).then((r) => r.data);

export function useOwnListings() {
  return useQuery({ queryKey: listingKeys.own(), queryFn: getOwnListings });
}

export const updateListing = (id: string, patch: ListingPatch) =>
  apiRequest<OwnerListingResponse>(`subleases/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }).then((r) => r.data);

/** An owner's edit (status or fields): the detail takes the answer, own listings and browse refetch. */
export function useUpdateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: ListingPatch }) => updateListing(id, patch),
    onSuccess: (saved) => {
      queryClient.setQueryData(listingKeys.detail(saved.id), saved);
      return Promise.all([queryClient.invalidateQueries({ queryKey: listingKeys.own() }), queryClient.invalidateQueries({ queryKey: listingKeys.browse() })]);
    },
  });
}

/** Fresh listings: the owner confirms a live or paused listing is still available. */
export const confirmAvailability = (id: string) =>
  apiRequest<OwnerListingResponse>(`subleases/${encodeURIComponent(id)}/confirm-availability`, { method: "POST" }).then((r) => r.data);

/** Confirming brings a paused listing back: own listings, browse and its detail refetch. */
export function useConfirmAvailability() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmAvailability,
    onSuccess: (saved) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listingKeys.detail(saved.id) }),
        queryClient.invalidateQueries({ queryKey: listingKeys.own() }),
        queryClient.invalidateQueries({ queryKey: listingKeys.browse() }),
      ]),
  });
}

export const deleteListing = (id: string) => apiRequest<void>(`subleases/${encodeURIComponent(id)}`, { method: "DELETE" });

/** Deleting drops the detail and refetches own listings and browse. */
export function useDeleteListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteListing,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: listingKeys.detail(id) });
      return Promise.all([queryClient.invalidateQueries({ queryKey: listingKeys.own() }), queryClient.invalidateQueries({ queryKey: listingKeys.browse() })]);
    },
  });
}

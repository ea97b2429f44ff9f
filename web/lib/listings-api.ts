/** Listing calls shared by browse, detail, favourites and profile (one place for each call). */
import { useQuery } from "@tanstack/react-query";
import type { Listing, Pagination } from "@contract/listings";
import type { PublicUser } from "@contract/users";
import { apiRequest } from "./api-client";

export interface BrowseParams {
  university_id?: string | null;
  lease_term?: string | null;
  unit_type?: string | null;
  parking?: boolean;
  allow_pets?: boolean;
  gender_preference?: string | null;
  min_rent?: string | null;
  max_rent?: string | null;
  q?: string | null;
  sort?: string | null;
}

export const browseListings = (params: BrowseParams, lastKey: string | null, limit = 40) =>
  apiRequest<{ data: Listing[]; pagination: Pagination }>("subleases/", {
    auth: false,
    query: {
      ...params,
      parking: params.parking ? "true" : undefined,
      allow_pets: params.allow_pets ? "true" : undefined,
      limit,
      last_evaluated_key: lastKey,
    },
  });

export const getListing = (id: string) => apiRequest<{ data: Listing }>(`subleases/${encodeURIComponent(id)}`).then((r) => r.data);

export function useListing(id: string | undefined) {
  return useQuery({ queryKey: ["listing", id], queryFn: () => getListing(id!), enabled: !!id });
}

export function usePublicUser(id: string | undefined) {
  return useQuery({
    queryKey: ["user", id],
    queryFn: () => apiRequest<{ data: PublicUser }>(`users/${encodeURIComponent(id!)}`, { auth: false }).then((r) => r.data),
    enabled: !!id,
  });
}

/** Every favourite of the user, newest first: the server answers bounded pages, walked here (at most 20). */
export async function getFavorites() {
  const all: { listing_id: string; created_at: string }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const res: { favorites: typeof all; pagination: Pagination } = await apiRequest("favorites", { query: { last_evaluated_key: cursor } });
    all.push(...res.favorites);
    if (!res.pagination.has_more) break;
    cursor = res.pagination.next_token;
  }
  return all;
}

export function useFavoriteIds(enabled: boolean) {
  return useQuery({ queryKey: ["favorites"], queryFn: getFavorites, enabled, select: (f) => new Set(f.map((x) => x.listing_id)) });
}

export const addFavorite = (listingId: string) => apiRequest("favorites", { method: "POST", body: { listing_id: listingId } });
export const removeFavorite = (listingId: string) => apiRequest(`favorites/${encodeURIComponent(listingId)}`, { method: "DELETE" });

export const UNIT_LABELS: Record<string, string> = { studio: "Studio", other: "Other" };
export const unitLabel = (unit: string) => UNIT_LABELS[unit] ?? unit;
export const termLabel = (term: string) => term[0]!.toUpperCase() + term.slice(1);
export const GENDER_LABELS: Record<string, string> = {
  no_preference: "No preference",
  male_preferred: "Male preferred",
  female_preferred: "Female preferred",
};
export const formatRent = (rent: number) => `$${rent.toLocaleString("en-US")}`;

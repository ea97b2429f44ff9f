/**
 * Listing calls shared by browse, favourites, profile and the listing form (one place for each call); one
 * listing's own read is in listing-detail.ts, off the home page (docs/decisions/023).
 */
import { infiniteQueryOptions, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BrowseResponse, FavoritesResponse, Favorite } from "@contract/listings";
import { browseApiQuery, type BrowseParams, type PromotedMode } from "@contract/browse-url";
import { PAGE_SIZES } from "@contract/constants";
import { apiRequest } from "./api-client";

export type { BrowseParams } from "@contract/browse-url";

export const listingKeys = {
  all: ["listings"] as const,
  browse: (params?: BrowseParams) => (params ? ([...listingKeys.all, "browse", params] as const) : ([...listingKeys.all, "browse"] as const)),
  detail: (id: string | undefined) => [...listingKeys.all, "detail", id] as const,
  /** The signed-in user's own listings, in every state. */
  own: () => [...listingKeys.all, "own"] as const,
};

export const favoriteKeys = {
  all: ["favorites"] as const,
  ids: () => [...favoriteKeys.all, "ids"] as const,
  listings: () => [...favoriteKeys.all, "listings"] as const,
};

export const browseListings = (params: BrowseParams, lastKey: string | null, limit: number = PAGE_SIZES.browseServer, promoted?: PromotedMode) =>
  apiRequest<BrowseResponse>("subleases/", {
    auth: false,
    query: {
      ...browseApiQuery(params),
      limit,
      last_evaluated_key: lastKey,
      promoted,
    },
  });

/** The Featured row's cards (docs/decisions/006): one desktop row of listings promoted now. */
export const FEATURED_COUNT = 4;

/**
 * The browse page's Featured row (docs/decisions/006): the listings promoted now that match the filters, in the
 * chosen order, at most one row; the results below (browseQuery) follow the order exactly, without them.
 */
export const featuredQuery = (params: BrowseParams) =>
  queryOptions({
    queryKey: [...listingKeys.browse(params), "featured"] as const,
    queryFn: () => browseListings(params, null, FEATURED_COUNT, "only").then((r) => r.data),
  });

/**
 * Browse by cursor (the same options on the server render and in the browser): a first page of the
 * first screen's 12 cards (a small first answer and page, docs/decisions/023), then pages of 40. Promoted
 * listings in their place in the chosen order (the Featured row shows them first; docs/decisions/006).
 */
export const browseQuery = (params: BrowseParams) =>
  infiniteQueryOptions({
    queryKey: listingKeys.browse(params),
    queryFn: ({ pageParam }) => browseListings(params, pageParam, pageParam === null ? PAGE_SIZES.browseDisplay : PAGE_SIZES.browseServer, "in_order"),
    initialPageParam: null as string | null,
    getNextPageParam: (last: BrowseResponse) => last.pagination.next_token,
  });

/** Every favourite of the user, newest first: the server answers bounded pages, walked here (at most 20). */
export async function getFavorites() {
  const all: Favorite[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const res: FavoritesResponse = await apiRequest("favorites", { query: { last_evaluated_key: cursor } });
    all.push(...res.favorites);
    if (!res.pagination.has_more) break;
    cursor = res.pagination.next_token;
  }
  return all;
}

export function useFavoriteIds(enabled: boolean) {
  return useQuery({ queryKey: favoriteKeys.ids(), queryFn: getFavorites, enabled, select: (f) => new Set(f.map((x) => x.listing_id)) });
}

export const addFavorite = (listingId: string) => apiRequest("favorites", { method: "POST", body: { listing_id: listingId } });
export const removeFavorite = (listingId: string) => apiRequest(`favorites/${encodeURIComponent(listingId)}`, { method: "DELETE" });

/**
 * Adds or removes a favourite; every favourites query (hearts, the favourites page) refetches. `onDone`
 * is given at the hook, not to `mutate`, so it still runs when the button unmounts first (a card on the
 * favourites page leaves as soon as the list refetches).
 */
export function useToggleFavorite(onDone: { success: (removed: boolean) => void; error: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ listingId, active }: { listingId: string; active: boolean }) => (active ? removeFavorite(listingId) : addFavorite(listingId)),
    onSuccess: async (_, { active }) => {
      onDone.success(active);
      // A first read still under way (the one a sign-in starts, from a heart's tap) may have been answered
      // before this change; invalidating would reuse it, as a query with no data yet is not refetched
      // over. Cancelled, it is read again.
      await queryClient.cancelQueries({ queryKey: favoriteKeys.all });
      return queryClient.invalidateQueries({ queryKey: favoriteKeys.all });
    },
    onError: () => onDone.error(),
  });
}

export const UNIT_LABELS: Record<string, string> = { studio: "Studio", other: "Other" };
/** A unit type in words: studio and other by name, "2x1" as "2 bed / 1 bath". */
export const unitLabel = (unit: string) => UNIT_LABELS[unit] ?? unit.replace(/^(\d+)x(\d+)$/, "$1 bed / $2 bath");
export const termLabel = (term: string) => term[0]!.toUpperCase() + term.slice(1);
export const GENDER_LABELS: Record<string, string> = {
  no_preference: "No preference",
  male_preferred: "Male preferred",
  female_preferred: "Female preferred",
};
/**
 * "$1,030": grouped by hand, not with Intl, whose first formatter loads the browser's locale data on
 * the home page's first load (tens of ms on a slow phone, docs/decisions/023; toLocaleString per call was worse).
 * Rents are whole dollars; a fraction would be kept as it is.
 */
export const formatRent = (rent: number) => {
  const [whole, fraction] = String(Math.abs(rent)).split(".");
  return `${rent < 0 ? "-" : ""}$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction ? `.${fraction}` : ""}`;
};

/**
 * Deal reads shared by the deals pages, the deal card in a conversation (messages) and the profile's
 * Deals: one query-key factory, so a write anywhere and the conversation room's `deal` event refresh
 * every copy. The writes are the deals feature's (features/deals/api).
 */
import { infiniteQueryOptions, useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Deal, DealResponse } from "@contract/deals";
import type { Pagination } from "@contract/listings";
import { apiRequest } from "./api-client";

/** GET deals and GET admin/deals: newest first. */
export interface DealsResponse {
  data: Deal[];
  pagination: Pagination;
}

export const dealKeys = {
  all: ["deals"] as const,
  /** The signed-in user's deals, both roles, newest first. */
  mine: () => [...dealKeys.all, "mine"] as const,
  detail: (id: string) => [...dealKeys.all, "detail", id] as const,
  agreement: (id: string) => [...dealKeys.all, "agreement", id] as const,
};

/**
 * The deal pages' route patterns and URL, kept here rather than in config/paths (which every page loads
 * first, `/` included: its JS budget has no room left): `/deals/{id}`, and `/landlord-consent/{token}`
 * where a landlord's consent email lands (no account; the token is the permission).
 */
export const DEAL_ROUTES = { deal: "/deals/:id", landlordConsent: "/landlord-consent/:token" } as const;
export const dealUrl = (id: string) => `/deals/${encodeURIComponent(id)}`;

export const dealPath = (id: string, rest = "") => `deals/${encodeURIComponent(id)}${rest}`;

export const getDeal = (id: string) => apiRequest<DealResponse>(dealPath(id)).then((r) => r.data);

/** The deal page has no room: it is read again this often, so the other party's steps show. */
export const DEAL_PAGE_POLL_MS = 30_000;

/**
 * One deal, read again every `pollMs` (false: a room pushes its changes, nothing polls). The thread
 * passes its own interval (lib/activity), so the card polls exactly when the conversation does.
 */
export function useDeal(id: string, pollMs: number | false = DEAL_PAGE_POLL_MS) {
  return useQuery({
    queryKey: dealKeys.detail(id),
    queryFn: () => getDeal(id),
    retry: (failures, err) => !(err && typeof err === "object" && "status" in err && err.status === 404) && failures < 3,
    refetchInterval: pollMs,
  });
}

export const myDealsQuery = () =>
  infiniteQueryOptions({
    queryKey: dealKeys.mine(),
    queryFn: ({ pageParam }) => apiRequest<DealsResponse>("deals", { query: { last_evaluated_key: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: DealsResponse) => (last.pagination.has_more && last.pagination.next_token ? last.pagination.next_token : undefined),
  });

export const useMyDeals = () => useInfiniteQuery(myDealsQuery());

/**
 * A deal changed elsewhere (a room's `deal` event, another tab): the pushed copy is shown at once and
 * the deal is read again, since an event may carry less than the full deal.
 */
export function useDealChanged() {
  const queryClient = useQueryClient();
  return (deal: { id: string } & Partial<Deal>) => {
    if (isWholeDeal(deal)) queryClient.setQueryData(dealKeys.detail(deal.id), deal);
    void queryClient.invalidateQueries({ queryKey: dealKeys.detail(deal.id) });
    void queryClient.invalidateQueries({ queryKey: dealKeys.agreement(deal.id) });
    void queryClient.invalidateQueries({ queryKey: dealKeys.mine() });
  };
}

const isWholeDeal = (deal: Partial<Deal>): deal is Deal =>
  typeof deal.status === "string" && typeof deal.move_in === "string" && !!deal.renter && !!deal.lister && !!deal.landlord_consent && !!deal.payment;

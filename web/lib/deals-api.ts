/**
 * Deal reads shared by the deals pages, the deal card in a conversation (messages) and the profile's
 * Deals: one query-key factory, so a write anywhere and the conversation room's `deal` event refresh
 * every copy. The writes are the deals feature's (features/deals/api).
 */
import { infiniteQueryOptions, useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AgreementResponse, Deal, DealResponse } from "@contract/deals";
import type { Pagination } from "@contract/listings";
import { apiBlob, apiRequest } from "./api-client";
import { authStore } from "./auth-store";
import { canSave, isSaved, keepPageCode, keptOffline, keptRead, NotSavedOffline, saveCopy } from "./saved-deals";

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

/** One deal; an active one is kept on this device and read from it when offline (docs/decisions/042). */
export const getDeal = (id: string) => keptRead({ dealId: id, part: "deal", read: () => apiRequest<DealResponse>(dealPath(id)).then((r) => r.data), keep: (deal) => keptOffline(deal) });

const signedByBoth = (deal: Deal) => deal.status !== "accepted" && !!deal.agreement?.renter_signed_at && !!deal.agreement?.lister_signed_at;

/** The agreement's text, kept with its deal. */
export const getAgreement = (deal: Deal) =>
  keptRead({
    dealId: deal.id,
    part: "agreement",
    read: () => apiRequest<AgreementResponse>(dealPath(deal.id, "/agreement")).then((r) => r.data),
    keep: () => keptOffline(deal),
    version: deal.agreement?.sha256 ?? null,
  });

/**
 * The agreement's PDF, fetched with the session's bearer header (a link alone would carry no
 * credential). The signed one is kept with its deal; a draft (made on each request) never is.
 */
export const getAgreementPdf = (deal: Deal) =>
  keptRead({
    dealId: deal.id,
    part: "agreement.pdf",
    read: () => apiBlob(dealPath(deal.id, "/agreement.pdf"), { headers: { Accept: "application/pdf" } }),
    keep: () => keptOffline(deal) && signedByBoth(deal),
    version: deal.agreement?.sha256 ?? null,
    notSaved: "You're offline, and the PDF wasn't saved on this device. It can be downloaded when you're back online.",
  });

/**
 * Keeps an active deal readable offline before it is opened: its agreement's text and signed PDF,
 * each fetched once per agreement version (the deal itself is kept by whatever read it). Failures are
 * left for the next time.
 */
export async function keepDealOffline(deal: Deal): Promise<void> {
  const owner = authStore.get()?.user.id;
  if (!owner || !canSave() || !keptOffline(deal) || !deal.agreement) return;
  const version = deal.agreement.sha256;
  const wants: Promise<unknown>[] = [keepPageCode()];
  if (!(await isSaved(owner, deal.id, "agreement", version))) wants.push(getAgreement(deal));
  if (signedByBoth(deal) && !(await isSaved(owner, deal.id, "agreement.pdf", version))) wants.push(getAgreementPdf(deal));
  await Promise.all(wants.map((want) => want.catch(() => undefined)));
}

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
    retry: (failures, err) => !(err instanceof NotSavedOffline) && !(err && typeof err === "object" && "status" in err && err.status === 404) && failures < 3,
    refetchInterval: pollMs,
    // Offline it still runs: the copy kept on this device answers, or it says it was not saved (never a spinner forever).
    networkMode: "always",
  });
}

export const myDealsQuery = () =>
  infiniteQueryOptions({
    queryKey: dealKeys.mine(),
    queryFn: async ({ pageParam }) => {
      const page = await apiRequest<DealsResponse>("deals", { query: { last_evaluated_key: pageParam } });
      // Each active deal listed is kept for reading offline, its agreement and signed PDF too (docs/decisions/042).
      const owner = authStore.get()?.user.id;
      if (owner) for (const deal of page.data.filter((d) => keptOffline(d))) void saveCopy(owner, deal.id, "deal", deal).then(() => keepDealOffline(deal));
      return page;
    },
    networkMode: "always",
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

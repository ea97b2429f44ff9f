import { useInfiniteQuery, useQuery, type QueryKey } from "@tanstack/react-query";
import { adminApi, type AdminDealsView, type AdminListingsView, type AdminReviewsView, type StaffPage, type VerificationQueue } from "./admin-api";

/** Every staff query lives under "admin": logging out removes them all at once. */
export const adminKeys = {
  all: ["admin"] as const,
  stats: () => [...adminKeys.all, "stats"] as const,
  audit: () => [...adminKeys.all, "audit"] as const,
  users: () => [...adminKeys.all, "users"] as const,
  userSearch: (q: string) => [...adminKeys.users(), q] as const,
  verifications: () => [...adminKeys.all, "verifications"] as const,
  verificationQueue: (status: VerificationQueue) => [...adminKeys.verifications(), status] as const,
  document: (id: string) => [...adminKeys.all, "document", id] as const,
  listings: () => [...adminKeys.all, "listings"] as const,
  listingsView: (which: AdminListingsView, q: string) => [...adminKeys.listings(), which, q] as const,
  feedback: () => [...adminKeys.all, "feedback"] as const,
  allDeals: () => [...adminKeys.all, "deals"] as const,
  deals: (status: AdminDealsView) => [...adminKeys.allDeals(), status] as const,
  deal: (id: string) => [...adminKeys.all, "deal", id] as const,
  feedbackList: (archived: boolean) => [...adminKeys.feedback(), archived] as const,
  allReviews: () => [...adminKeys.all, "reviews"] as const,
  reviews: (status: AdminReviewsView) => [...adminKeys.allReviews(), status] as const,
  conditionReports: (dealId: string) => [...adminKeys.deal(dealId), "condition-reports"] as const,
};

export const useAdminStats = () => useQuery({ queryKey: adminKeys.stats(), queryFn: adminApi.stats });
export const useAdminAudit = () => useQuery({ queryKey: adminKeys.audit(), queryFn: adminApi.audit });

/**
 * A staff list a page at a time (docs/decisions/038): the first page, then "Load more" follows each
 * page's cursor. `items` are the pages loaded so far, in order. Any staff list (PagedList shows it) uses
 * this with its own key and page call.
 */
export function useStaffList<T>(queryKey: QueryKey, page: (cursor: string | null) => Promise<StaffPage<T>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => page(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}
export type StaffListQuery<T> = ReturnType<typeof useStaffList<T>>;

export const useAdminUsers = (q: string) => useStaffList(adminKeys.userSearch(q), (cursor) => adminApi.users(q, cursor));

export const useVerificationQueue = (status: VerificationQueue) =>
  useStaffList(adminKeys.verificationQueue(status), (cursor) => adminApi.verifications(status, cursor));

/** A private document: fetched once, dropped from the cache as soon as nobody shows it. */
export const useIdentityDocument = (id: string) =>
  useQuery({ queryKey: adminKeys.document(id), queryFn: () => adminApi.document(id), staleTime: Infinity, gcTime: 0 });

export const useAdminListings = (which: AdminListingsView, q: string) => useStaffList(adminKeys.listingsView(which, q), (cursor) => adminApi.listings(which, q, cursor));

export const useAdminFeedback = (archived: boolean) => useStaffList(adminKeys.feedbackList(archived), (cursor) => adminApi.feedback(archived, cursor));

export const useAdminDeals = (status: AdminDealsView) => useStaffList(adminKeys.deals(status), (cursor) => adminApi.deals(status, cursor));

export const useAdminDeal = (id: string) => useQuery({ queryKey: adminKeys.deal(id), queryFn: () => adminApi.deal(id) });

export const useAdminReviews = (status: AdminReviewsView) => useStaffList(adminKeys.reviews(status), (cursor) => adminApi.reviews(status, cursor));

export const useAdminConditionReports = (dealId: string) => useQuery({ queryKey: adminKeys.conditionReports(dealId), queryFn: () => adminApi.conditionReports(dealId) });

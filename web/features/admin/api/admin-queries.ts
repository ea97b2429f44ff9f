import { useQuery } from "@tanstack/react-query";
import type { DealStatus } from "@contract/deals";
import { adminApi, type AdminListingsView, type VerificationQueue } from "./admin-api";

/** Every staff query lives under "admin": logging out removes them all at once. */
export const adminKeys = {
  all: ["admin"] as const,
  stats: () => [...adminKeys.all, "stats"] as const,
  audit: () => [...adminKeys.all, "audit"] as const,
  users: () => [...adminKeys.all, "users"] as const,
  verifications: () => [...adminKeys.all, "verifications"] as const,
  verificationQueue: (status: VerificationQueue) => [...adminKeys.verifications(), status] as const,
  document: (id: string) => [...adminKeys.all, "document", id] as const,
  listings: () => [...adminKeys.all, "listings"] as const,
  listingsView: (which: AdminListingsView) => [...adminKeys.listings(), which] as const,
  feedback: () => [...adminKeys.all, "feedback"] as const,
  deals: (status: DealStatus | null) => [...adminKeys.all, "deals", status] as const,
  deal: (id: string) => [...adminKeys.all, "deal", id] as const,
  feedbackList: (archived: boolean) => [...adminKeys.feedback(), archived] as const,
};

export const useAdminStats = () => useQuery({ queryKey: adminKeys.stats(), queryFn: adminApi.stats });
export const useAdminAudit = () => useQuery({ queryKey: adminKeys.audit(), queryFn: adminApi.audit });
export const useAdminUsers = () => useQuery({ queryKey: adminKeys.users(), queryFn: adminApi.users });

export const useVerificationQueue = (status: VerificationQueue) =>
  useQuery({ queryKey: adminKeys.verificationQueue(status), queryFn: () => adminApi.verifications(status) });

/** A private document: fetched once, dropped from the cache as soon as nobody shows it. */
export const useIdentityDocument = (id: string) =>
  useQuery({ queryKey: adminKeys.document(id), queryFn: () => adminApi.document(id), staleTime: Infinity, gcTime: 0 });

export const useAdminListings = (which: AdminListingsView) =>
  useQuery({ queryKey: adminKeys.listingsView(which), queryFn: () => adminApi.listings(which) });

export const useAdminFeedback = (archived: boolean) =>
  useQuery({ queryKey: adminKeys.feedbackList(archived), queryFn: () => adminApi.feedback(archived) });

export const useAdminDeals = (status: DealStatus | null) => useQuery({ queryKey: adminKeys.deals(status), queryFn: () => adminApi.deals(status) });

export const useAdminDeal = (id: string) => useQuery({ queryKey: adminKeys.deal(id), queryFn: () => adminApi.deal(id) });

/**
 * Staff calls: the admin token is kept under `admin_token` and sent as a bearer header, so it never
 * lands in a URL or a request log (the API refuses a `?token=` with 401).
 * Any 401 ends the admin session; logging out revokes the token on the server.
 */
import { useSyncExternalStore } from "react";
import type { z } from "zod";
import type {
  AdminAuditResponse,
  AdminListingEditResponse,
  adminListingEditSchema,
  AdminListingReviewResponse,
  AdminListingsResponse,
  AdminLoginResponse,
  AdminPromoteResponse,
  AdminStatsResponse,
  AdminTablesResponse,
  AdminUserResponse,
  AdminUsersResponse,
  adminUserStatusSchema,
  CleanupPromotionsResponse,
  DeleteItemResponse,
  FeedbackArchiveResponse,
  FeedbackListResponse,
  SuccessResponse,
  VerifyAllResponse,
} from "@contract/admin";
import type { AdminDealResponse, DealResponse, DealStatus } from "@contract/deals";
import type { AdminReview, ConditionReportsResponse } from "@contract/reviews";
import type { Pagination } from "@contract/listings";
import type { DealsResponse } from "../../../lib/deals-api";
import type { AdminVerificationItem, AdminVerificationListResponse, VerificationReviewResponse } from "@contract/verification";
import { NEXT_TOKEN_HEADER, STAFF_PAGE } from "@contract/staff-lists";
import { ApiError, apiBlob, apiRequest, apiResponse, type RequestOptions } from "../../../lib/api-client";
import { readStorage, writeStorage } from "../../../lib/storage";

const KEY = "admin_token";
let token = readStorage(KEY);
let expiredNotice = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const adminSession = {
  get: () => token,
  set(next: string | null, expired = false) {
    token = next;
    expiredNotice = expired;
    writeStorage(KEY, next);
    emit();
  },
  expired: () => expiredNotice,
};

export function useAdminToken() {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => token,
  );
}

async function asAdmin<T>(call: (bearer: string | null) => Promise<T>): Promise<T> {
  try {
    return await call(token);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) adminSession.set(null, true);
    throw err;
  }
}

export const adminRequest = <T>(path: string, options: RequestOptions = {}) => asAdmin((bearer) => apiRequest<T>(path, { ...options, bearer }));

/**
 * One page of a staff list (docs/decisions/038): its items and the next page's cursor (null on the
 * last). The panel never holds a whole table: it shows the pages loaded, and counts from admin/stats.
 */
export interface StaffPage<T> {
  items: T[];
  next: string | null;
}

/** A page's query: the staff list's page size, the cursor, and a search when there is one. */
const pageQuery = (cursor: string | null, q?: string) => ({ limit: STAFF_PAGE.default, last_evaluated_key: cursor ?? undefined, q: q?.trim() || undefined });
/** A list's answer as a page: the cursor only while the server says more follow. */
export const pageOf = <T>(items: T[], pagination: { next_token: string | null; has_more?: boolean }): StaffPage<T> => ({
  items,
  next: pagination.has_more === false ? null : pagination.next_token,
});

/** A submitted request in the review list (the unverified list also holds users who never sent one). */
export type ReviewItem = Extract<AdminVerificationItem, { id: string }>;
export type AdminListingsView = "all" | "pending" | "promoted";
/** The Deals tab's list: every deal (null), one status, or the open cases (disputed, release failed). */
export type AdminDealsView = DealStatus | "cases" | null;
export type VerificationQueue = "pending" | "unverified";
/** The Reviews tab's lists: the queue (reported or flagged, not yet decided) or the hidden ones. */
export type AdminReviewsView = "queue" | "hidden";
export type ReviewDecision = "approved" | "rejected";
export type AdminUserStatus = z.infer<typeof adminUserStatusSchema>["verification_status"];
export type AdminListingEdit = z.infer<typeof adminListingEditSchema>;
/** Only a successful login answers 200 (a wrong password is a 401). */
type AdminLoginSuccess = Extract<AdminLoginResponse, { success: true }>;

export const adminApi = {
  login: (password: string) => apiRequest<AdminLoginSuccess>("admin/login", { method: "POST", body: { password }, auth: false }),
  tables: () => adminRequest<AdminTablesResponse>("admin/tables"),
  audit: () =>
    adminRequest<AdminAuditResponse>("admin/audit").then((r) => r.audit),
  stats: () => adminRequest<AdminStatsResponse>("admin/stats").then((r) => r.stats),
  users: (q: string, cursor: string | null) => adminRequest<AdminUsersResponse>("admin/users", { query: pageQuery(cursor, q) }).then((r) => pageOf(r.users, r.pagination)),
  setUserStatus: (id: string, status: AdminUserStatus) => adminRequest<AdminUserResponse>(`admin/users/${id}/verify`, { method: "PATCH", body: { verification_status: status } }),
  listings: (which: AdminListingsView, q: string, cursor: string | null) =>
    adminRequest<AdminListingsResponse>(which === "all" ? "admin/listings" : `admin/listings/${which}`, { query: pageQuery(cursor, q) }).then((r) => pageOf(r.listings, r.pagination)),
  /** A decision on the version staff saw (`revision`): a listing that changed since answers 409. */
  reviewListing: (id: string, status: ReviewDecision, revision: number, reason?: string) =>
    adminRequest<AdminListingReviewResponse>(`admin/listings/${id}/verify`, { method: "PATCH", body: { status, rejection_reason: reason ?? null, revision } }),
  editListing: (id: string, edit: AdminListingEdit) =>
    adminRequest<AdminListingEditResponse>(`admin/listings/${id}`, { method: "PATCH", body: edit }),
  notACopy: (id: string, picture: string, matched_picture: string) =>
    adminRequest<SuccessResponse>(`admin/listings/${id}/photo-matches/not-a-copy`, { method: "POST", body: { picture, matched_picture } }),
  verifyAll: () => adminRequest<VerifyAllResponse>("admin/listings/verify-all", { method: "POST" }),
  promote: (id: string) => adminRequest<AdminPromoteResponse>(`admin/listings/${id}/promote`, { method: "POST" }),
  unpromote: (id: string) => adminRequest<SuccessResponse>(`admin/listings/${id}/unpromote`, { method: "POST" }),
  cleanup: () => adminRequest<CleanupPromotionsResponse>("admin/cleanup-expired-promotions", { method: "POST" }),
  deleteItem: (tableName: string, itemId: string) => adminRequest<DeleteItemResponse>("admin/delete-item", { method: "DELETE", body: { tableName, itemId } }),
  verifications: (status: VerificationQueue, cursor: string | null) =>
    adminRequest<AdminVerificationListResponse>("verification/admin/all", { query: { status, ...pageQuery(cursor) } }).then((r) => pageOf(r.data, r.pagination)),
  reviewVerification: (id: string, status: ReviewDecision, reason?: string) =>
    adminRequest<VerificationReviewResponse>(`verification/admin/${id}/review`, { method: "PATCH", body: { status, rejection_reason: reason ?? null } }),
  /** A deal's private evidence photo (`evidence/{name}`), fetched with the bearer header, shown from a blob: URL. */
  evidence: (path: string) => asAdmin((bearer) => apiBlob(path, { bearer })),
  /** The private document as a file (fetched with the bearer header, shown from a blob: URL). */
  document: (id: string) => asAdmin((bearer) => apiBlob(`verification/admin/${encodeURIComponent(id)}/document`, { bearer })),
  /** Ends the admin token on the server; the panel forgets it whatever the answer. */
  logout: () => apiRequest("admin/logout", { method: "POST", bearer: token }).catch(() => undefined),
  /** The spec's bare array; the next page's cursor in a header. */
  feedback: (archived: boolean, cursor: string | null) =>
    asAdmin((bearer) => apiResponse<FeedbackListResponse>("feedback/admin", { bearer, query: { status: archived ? "archived" : undefined, ...pageQuery(cursor) } })).then(
      (r): StaffPage<FeedbackListResponse[number]> => ({ items: r.body, next: r.headers.get(NEXT_TOKEN_HEADER) }),
    ),
  /** Every deal, newest first, optionally of one status, or the open cases oldest first, a page at a time. */
  deals: (status: AdminDealsView, cursor: string | null) =>
    adminRequest<DealsResponse>("admin/deals", { query: { status, ...pageQuery(cursor) } }).then((r) => pageOf(r.data, r.pagination)),
  /** One deal with every event (IP address and user agent whole, for staff) and a case's evidence. */
  deal: (id: string) => adminRequest<AdminDealResponse>(`admin/deals/${encodeURIComponent(id)}`).then((r) => r.data),
  /** A case's decision: `refundCents` back to the renter (0 releases everything, the total refunds everything). */
  resolveDeal: (id: string, refundCents: number, reason?: string) =>
    adminRequest<DealResponse>(`admin/deals/${encodeURIComponent(id)}/resolve`, { method: "POST", body: { refund_cents: refundCents, ...(reason && { reason }) } }).then((r) => r.data),
  /** The agreement's PDF with the admin bearer (a link alone would carry no credential). */
  agreementPdf: (id: string) => asAdmin((bearer) => apiBlob(`deals/${encodeURIComponent(id)}/agreement.pdf`, { bearer, headers: { Accept: "application/pdf" } })),
  /** Reviews reported by someone or flagged by the scam shield (docs/decisions/040), or the hidden ones, a page at a time. */
  reviews: (status: AdminReviewsView, cursor: string | null) =>
    adminRequest<{ reviews: AdminReview[]; pagination: Pagination }>("admin/reviews", { query: { status, ...pageQuery(cursor) } }).then((r) => pageOf(r.reviews, r.pagination)),
  hideReview: (id: string, reason: string) => adminRequest<{ data: AdminReview }>(`admin/reviews/${encodeURIComponent(id)}/hide`, { method: "POST", body: { reason } }).then((r) => r.data),
  keepReview: (id: string) => adminRequest<{ data: AdminReview }>(`admin/reviews/${encodeURIComponent(id)}/keep`, { method: "POST" }).then((r) => r.data),
  /** A deal's move-in and move-out reports (staff read them with the bearer, as the parties do). */
  conditionReports: (id: string) => adminRequest<ConditionReportsResponse>(`deals/${encodeURIComponent(id)}/condition-reports`),
  archiveFeedback: (id: string) => adminRequest<FeedbackArchiveResponse>(`feedback/admin/${id}/status`, { method: "PUT", query: { status: "archived" } }),
};

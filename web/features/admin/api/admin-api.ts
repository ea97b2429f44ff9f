/**
 * Staff calls: the admin token is kept under `admin_token` and sent as a bearer header, so it never
 * lands in a URL or a request log (the API still accepts the spec's `?token=` from other clients).
 * Any 401 ends the admin session; logging out revokes the token on the server.
 */
import { useSyncExternalStore } from "react";
import type { AdminStats, FeedbackItem } from "@contract/admin";
import type { Listing } from "@contract/listings";
import type { PrivateUser } from "@contract/users";
import type { VerificationRequest } from "@contract/verification";
import { ApiError, apiBlob, apiRequest, type RequestOptions } from "../../../lib/api-client";
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

export type AdminListing = Listing & { price: number; location: string };
export type ReviewItem = VerificationRequest & { user_email: string; user_name: string };

export const adminApi = {
  login: (password: string) => apiRequest<{ success: boolean; token: string }>("admin/login", { method: "POST", body: { password }, auth: false }),
  tables: () => adminRequest<{ tables: string[] }>("admin/tables"),
  audit: () =>
    adminRequest<{ audit: { id: string; actor: string; action: string; table: string | null; item_id: string | null; created_at: string }[] }>("admin/audit").then((r) => r.audit),
  stats: () => adminRequest<{ stats: AdminStats }>("admin/stats").then((r) => r.stats),
  users: () => adminRequest<{ users: PrivateUser[] }>("admin/users").then((r) => r.users),
  setUserStatus: (id: string, status: string) => adminRequest(`admin/users/${id}/verify`, { method: "PATCH", body: { verification_status: status } }),
  listings: (which: "all" | "pending" | "promoted") =>
    adminRequest<{ listings: AdminListing[] }>(which === "all" ? "admin/listings" : `admin/listings/${which}`).then((r) => r.listings),
  reviewListing: (id: string, status: "approved" | "rejected", reason?: string) =>
    adminRequest(`admin/listings/${id}/verify`, { method: "PATCH", body: { status, rejection_reason: reason ?? null } }),
  editListing: (id: string, edit: { title?: string; description?: string; monthly_rent?: number; moderation_status?: "visible" | "hidden" }) =>
    adminRequest(`admin/listings/${id}`, { method: "PATCH", body: edit }),
  verifyAll: () => adminRequest<{ verified_count: number; total_listings: number }>("admin/listings/verify-all", { method: "POST" }),
  promote: (id: string) => adminRequest(`admin/listings/${id}/promote`, { method: "POST" }),
  unpromote: (id: string) => adminRequest(`admin/listings/${id}/unpromote`, { method: "POST" }),
  cleanup: () => adminRequest<{ expired_count: number }>("admin/cleanup-expired-promotions", { method: "POST" }),
  deleteItem: (tableName: string, itemId: string) => adminRequest("admin/delete-item", { method: "DELETE", body: { tableName, itemId } }),
  verifications: (status: "pending" | "unverified") =>
    adminRequest<{ data: ReviewItem[] }>("verification/admin/all", { query: { status } }).then((r) => r.data),
  reviewVerification: (id: string, status: "approved" | "rejected", reason?: string) =>
    adminRequest(`verification/admin/${id}/review`, { method: "PATCH", body: { status, rejection_reason: reason ?? null } }),
  /** The private document as a file (fetched with the bearer header, shown from a blob: URL). */
  document: (id: string) => asAdmin((bearer) => apiBlob(`verification/admin/${encodeURIComponent(id)}/document`, { bearer })),
  /** Ends the admin token on the server; the panel forgets it whatever the answer. */
  logout: () => apiRequest("admin/logout", { method: "POST", bearer: token }).catch(() => undefined),
  feedback: (archived: boolean) => adminRequest<FeedbackItem[]>("feedback/admin", { query: { status: archived ? "archived" : undefined } }),
  archiveFeedback: (id: string) => adminRequest(`feedback/admin/${id}/status`, { method: "PUT", query: { status: "archived" } }),
};

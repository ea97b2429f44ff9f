/** Staff's reports queue (docs/decisions/015): the calls, their keys, the list query and the writes. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminReportsResponse, ReportAction, ResolveReportResponse, UnsuspendResponse } from "@contract/reports";
import { adminRequest, pageOf } from "./admin-api";
import { adminKeys, useStaffList } from "./admin-queries";

export type ReportQueue = "open" | "resolved";

export const reportKeys = {
  all: () => [...adminKeys.all, "reports"] as const,
  queue: (status: ReportQueue) => [...reportKeys.all(), status] as const,
};

export const reportsApi = {
  list: (status: ReportQueue, lastKey: string | null) => adminRequest<AdminReportsResponse>("admin/reports", { query: { status, last_evaluated_key: lastKey } }),
  resolve: (id: string, action: ReportAction) => adminRequest<ResolveReportResponse>(`admin/reports/${encodeURIComponent(id)}/resolve`, { method: "POST", body: { action } }),
  unsuspend: (userId: string) => adminRequest<UnsuspendResponse>(`admin/users/${encodeURIComponent(userId)}/unsuspend`, { method: "POST" }),
};

export const useAdminReports = (status: ReportQueue) => useStaffList(reportKeys.queue(status), (cursor) => reportsApi.list(status, cursor).then((r) => pageOf(r.reports, r.pagination)));

/** Resolving moves the report between the queues and may hide a listing or suspend a user. */
export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; action: ReportAction }) => reportsApi.resolve(v.id, v.action),
    onSuccess: () =>
      Promise.all([reportKeys.all(), adminKeys.listings(), adminKeys.users(), adminKeys.audit()].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function useUnsuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reportsApi.unsuspend,
    onSuccess: () =>
      Promise.all([adminKeys.users(), adminKeys.listings(), reportKeys.all(), adminKeys.audit()].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/**
 * Reports and blocks (docs/decisions/015): calls shared by the listing page, messages and the profile (features
 * never import each other, so they live here), each write a useMutation hook.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BlockedUsersResponse, ReportInput, ReportResponse } from "@contract/reports";
import { apiRequest } from "./api-client";
import { messagesRootKey } from "./unread";

export const blockKeys = {
  all: ["blocks"] as const,
};

export const sendReport = (input: ReportInput) => apiRequest<ReportResponse>("reports", { method: "POST", body: input }).then((r) => r.data);

/** Files a report (a repeat of an open one answers that one: the same thanks). */
export function useReport(onReported?: () => void) {
  return useMutation({ mutationFn: sendReport, onSuccess: () => onReported?.() });
}

export const getBlockedUsers = () => apiRequest<BlockedUsersResponse>("users/blocks").then((r) => r.data);

export function useBlockedUsers(enabled = true) {
  return useQuery({ queryKey: blockKeys.all, queryFn: getBlockedUsers, enabled });
}

/** Blocking or unblocking changes the blocker's conversation list and unread count: both refetch. */
function useBlockWrite<T>(fn: (userId: string) => Promise<T>, onDone?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      onDone?.();
      return Promise.all([queryClient.invalidateQueries({ queryKey: blockKeys.all }), queryClient.invalidateQueries({ queryKey: messagesRootKey })]);
    },
  });
}

export const useBlockUser = (onBlocked?: () => void) =>
  useBlockWrite((userId: string) => apiRequest<BlockedUsersResponse>("users/blocks", { method: "POST", body: { user_id: userId } }), onBlocked);

export const useUnblockUser = () => useBlockWrite((userId: string) => apiRequest<void>(`users/blocks/${encodeURIComponent(userId)}`, { method: "DELETE" }));

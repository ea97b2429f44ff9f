/** Staff's Safety queue (scam shield; docs/decisions/015): the calls, their keys, the list query and the review. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SafetyQueueResponse, SafetyReviewResponse } from "@contract/safety";
import { adminRequest, pageOf } from "./admin-api";
import { adminKeys, useStaffList } from "./admin-queries";

export const safetyKeys = {
  queue: () => [...adminKeys.all, "safety"] as const,
};

export const safetyApi = {
  list: (lastKey: string | null) => adminRequest<SafetyQueueResponse>("admin/safety", { query: { last_evaluated_key: lastKey } }),
  review: (conversationId: string) => adminRequest<SafetyReviewResponse>(`admin/safety/${encodeURIComponent(conversationId)}/review`, { method: "POST" }),
};

export const useSafetyQueue = () => useStaffList(safetyKeys.queue(), (cursor) => safetyApi.list(cursor).then((r) => pageOf(r.conversations, r.pagination)));

/** A review takes the conversation out of the queue and is written to the audit log. */
export function useReviewSafety() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: safetyApi.review,
    onSuccess: () => Promise.all([safetyKeys.queue(), adminKeys.audit()].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

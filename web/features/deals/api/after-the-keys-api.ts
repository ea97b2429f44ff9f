/**
 * A deal's reviews and condition reports (docs/decisions/040): reads and writes. Every write invalidates
 * the deal (its `actions` change) and the part it wrote.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ConditionReport, ConditionReportInput, ConditionReportsResponse, ConditionPhase, DealReviews, Review, ReviewInput } from "@contract/reviews";
import { apiRequest } from "../../../lib/api-client";
import { dealKeys, dealPath } from "../../../lib/deals-api";

export const afterKeys = {
  reviews: (id: string) => [...dealKeys.detail(id), "reviews"] as const,
  reports: (id: string) => [...dealKeys.detail(id), "condition-reports"] as const,
};

export const useDealReviews = (id: string, enabled = true) =>
  useQuery({ queryKey: afterKeys.reviews(id), queryFn: () => apiRequest<{ data: DealReviews }>(dealPath(id, "/reviews")).then((r) => r.data), enabled });

export const useConditionReports = (id: string, enabled = true) =>
  useQuery({ queryKey: afterKeys.reports(id), queryFn: () => apiRequest<ConditionReportsResponse>(dealPath(id, "/condition-reports")), enabled });

function useAfterKeysWrite<V, R>(id: string, key: readonly unknown[], call: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: dealKeys.detail(id), exact: true })]),
  });
}

export const useWriteReview = (id: string) =>
  useAfterKeysWrite(id, afterKeys.reviews(id), (input: ReviewInput) => apiRequest<{ data: Review }>(dealPath(id, "/review"), { method: "POST", body: input }).then((r) => r.data));

export const useReplyToReview = (dealId: string) =>
  useAfterKeysWrite(dealId, afterKeys.reviews(dealId), ({ reviewId, text }: { reviewId: string; text: string }) =>
    apiRequest<{ data: Review }>(`reviews/${encodeURIComponent(reviewId)}/reply`, { method: "POST", body: { text } }).then((r) => r.data),
  );

export const sendConditionReport = (id: string, input: ConditionReportInput) =>
  apiRequest<{ data: ConditionReport }>(dealPath(id, "/condition-report"), { method: "POST", body: input }).then((r) => r.data);

export const useCommentReport = (id: string) =>
  useAfterKeysWrite(id, afterKeys.reports(id), ({ phase, text }: { phase: ConditionPhase; text: string }) =>
    apiRequest<{ data: ConditionReport }>(dealPath(id, `/condition-report/${phase}/comment`), { method: "POST", body: { text } }).then((r) => r.data),
  );

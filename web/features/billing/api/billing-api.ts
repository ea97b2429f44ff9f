/** The billing page's calls: the user's promoted listings, a listing's billing history, cancelling. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  PROMOTION_MESSAGES,
  type BillingHistoryResponse,
  type PromotedListing,
  type PromotedListingsResponse,
  type PromotionStatus,
  type PromotionStatusResponse,
} from "@contract/promotions";
import { ApiError, apiRequest } from "../../../lib/api-client";
import { listingKeys } from "../../../lib/listings-api";

export const billingKeys = {
  all: ["promotions"] as const,
  promotedListings: () => [...billingKeys.all, "promoted-listings"] as const,
  history: (listingId: string | undefined) => [...billingKeys.all, "billing-history", listingId] as const,
  status: (listingId: string) => [...billingKeys.all, "status", listingId] as const,
};

export const getPromotedListings = () => apiRequest<PromotedListingsResponse>("users/promoted-listings").then((r) => r.data);

export function usePromotedListings() {
  return useQuery({ queryKey: billingKeys.promotedListings(), queryFn: getPromotedListings });
}

export const getBillingHistory = (listingId: string) =>
  apiRequest<BillingHistoryResponse>(`promotions/billing-history/${encodeURIComponent(listingId)}`).then((r) => r.data);

/** Fetched only while its modal is open (`listingId` undefined otherwise). */
export function useBillingHistory(listingId: string | undefined) {
  return useQuery({ queryKey: billingKeys.history(listingId), queryFn: () => getBillingHistory(listingId!), enabled: !!listingId });
}

export const cancelSubscription = (listingId: string) =>
  apiRequest<PromotionStatusResponse>(`promotions/cancel/${encodeURIComponent(listingId)}`, { method: "POST" }).then((r) => r.data);

/** The row takes the server's answer at once (it reads 'Cancelled'), then the lists refetch. */
function applyStatus(list: PromotedListing[] | undefined, listingId: string, status: PromotionStatus): PromotedListing[] | undefined {
  return list?.map((l) =>
    l.id === listingId
      ? {
          ...l,
          promoted: status.promoted,
          promotion_start: status.promotion_start,
          promotion_end: status.promotion_end,
          days_remaining: status.days_remaining,
          auto_renew: status.auto_renew,
          promotion_state: status.state,
        }
      : l,
  );
}

/**
 * Stops renewal (the promotion runs to promotion_end). `onDone` is given here, not to `mutate`, so it
 * runs even when the confirm dialog has closed first.
 */
export function useCancelSubscription(onDone?: { success?: (listingId: string) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (status, listingId) => {
      queryClient.setQueryData<PromotedListing[]>(billingKeys.promotedListings(), (list) => applyStatus(list, listingId, status));
      queryClient.setQueryData(billingKeys.status(listingId), status);
      onDone?.success?.(listingId);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: billingKeys.promotedListings() }),
        queryClient.invalidateQueries({ queryKey: listingKeys.own() }),
        queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
      ]);
    },
  });
}

/** The server's reason when it gave one, else the product's text (docs/product-rules.md "Wording"). */
export function billingErrorMessage(err: unknown, fallback: string = PROMOTION_MESSAGES.cancelSubscriptionFailed): string {
  if (err instanceof ApiError && typeof err.body?.detail === "string" && err.body.detail) return err.body.detail;
  return fallback;
}

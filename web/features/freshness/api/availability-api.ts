/** Fresh listings' emailed links (no sign-in: the signed token is the permission). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AvailabilityLinkResponse } from "@contract/freshness";
import { apiRequest } from "../../../lib/api-client";
import { listingKeys } from "../../../lib/listings-api";

export const availabilityKeys = {
  link: (token: string) => ["availability-link", token] as const,
};

/**
 * What a link is about (changes nothing). A POST with the token in the body: a 30-day token in the API's
 * URL would land in request logs. It only reads, so it runs as a query.
 */
export function useAvailabilityLink(token: string) {
  return useQuery({
    queryKey: availabilityKeys.link(token),
    queryFn: () => apiRequest<AvailabilityLinkResponse>("availability/check", { method: "POST", auth: false, body: { token } }),
    enabled: !!token,
    retry: false,
  });
}

/** Applies the link; the listing's views refetch. */
export function useApplyAvailabilityLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiRequest<AvailabilityLinkResponse>("availability/confirm", { method: "POST", auth: false, body: { token } }),
    onSuccess: (res) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listingKeys.detail(res.listing_id) }),
        queryClient.invalidateQueries({ queryKey: listingKeys.own() }),
        queryClient.invalidateQueries({ queryKey: listingKeys.browse() }),
      ]),
  });
}

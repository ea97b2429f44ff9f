import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { CreateListingResponse, listingInputSchema } from "@contract/listings";
import { apiRequest } from "../../../lib/api-client";
import { listingKeys } from "../../../lib/listings-api";

/** What the create call takes (the product's client sends parking/allow_pets as "true"/"false"). */
export type ListingBody = z.input<typeof listingInputSchema>;

export const createListing = (body: ListingBody) => apiRequest<CreateListingResponse>("subleases/", { method: "POST", body });

/** A new listing waits for review: only the owner's own listings change. */
export function useCreateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: ({ data }) => {
      queryClient.setQueryData(listingKeys.detail(data.id), data);
      return queryClient.invalidateQueries({ queryKey: listingKeys.own() });
    },
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { CreateListingResponse, listingInputSchema, UploadResponse } from "@contract/listings";
import { ApiError, apiRequest } from "../../../lib/api-client";
import { readAsDataUrl, uploadJson } from "../../../lib/upload";
import { listingKeys } from "../../../lib/listings-api";
import type { PreparedPhoto } from "../lib/images";

const RETRY_WAITS_MS = [2000, 4000];

/** Upload with the product's retries (docs/product-rules.md "Timings and sizes"): 3 attempts, waiting 2 s then 4 s, on network errors only. */
export async function uploadPhotos(photos: PreparedPhoto[], onProgress: (percent: number) => void, wait = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<UploadResponse> {
  const images = await Promise.all(
    photos.map(async (p) => ({
      filename: p.name,
      content_type: "image/jpeg",
      image_data: await readAsDataUrl(p.full),
      thumbnail_data: await readAsDataUrl(p.thumb),
    })),
  );
  for (let attempt = 0; ; attempt++) {
    try {
      return await uploadJson<UploadResponse>("upload/multiple-base64", { images }, onProgress);
    } catch (err) {
      if (!(err instanceof ApiError && err.isNetworkError) || attempt >= RETRY_WAITS_MS.length) throw err;
      await wait(RETRY_WAITS_MS[attempt]!);
    }
  }
}

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

import type { Listing, ListingInput, UploadResponse } from "@contract/listings";
import { ApiError, apiRequest, readAsDataUrl, uploadJson } from "../../../lib/api-client";
import type { PreparedPhoto } from "../lib/images";

const RETRY_WAITS_MS = [2000, 4000];

/** Upload with the spec's retries: 3 attempts, waiting 2 s then 4 s, on network errors only. */
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

type ListingBody = Omit<ListingInput, "parking" | "allow_pets"> & { parking: "true" | "false"; allow_pets: "true" | "false" };

export const createListing = (body: ListingBody) =>
  apiRequest<{ id: string; data: Listing }>("subleases/", { method: "POST", body });

export const updateListing = (id: string, body: Partial<ListingBody> & { status?: string }) =>
  apiRequest<{ data: Listing }>(`subleases/${encodeURIComponent(id)}`, { method: "PATCH", body }).then((r) => r.data);

/**
 * The listing form's submission as one mutation: check the session, compress and upload new
 * photos, then create or update. Each step's failure carries the product's wording (docs/product-rules.md "Wording").
 */
import { useMutation } from "@tanstack/react-query";
import type { ListingFormData } from "@contract/forms";
import type { OwnerListing } from "@contract/listings";
import { ApiError } from "../../../lib/api-client";
import { useUpdateListing } from "../../../lib/own-listings-api";
import { fetchProfile } from "../../../lib/session";
import { MESSAGES, preparePhoto, uploadPhotos } from "../../../lib/upload";
import { useCreateListing, type ListingBody } from "./listing-form-api";

/** A failed submission: the form's message, and the server's per-field messages of a 422. */
export class ListingSubmitError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The product's wording for a failed upload, by cause (docs/product-rules.md "Wording"). */
function uploadErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return "Your session has expired. Please log in again.";
    if (err.status === 413) return "Images are too large. Please choose smaller photos.";
    if (err.status === 403) return "Access denied. Please check your permissions.";
    if (err.status >= 500) return "Server error. Please try again later.";
    return `Image upload failed: ${err.message}`;
  }
  return `Image upload failed: ${err instanceof Error ? err.message : "unknown error"}`;
}

/** The product's wording for a failed create: the server's detail first (docs/product-rules.md "Wording"). */
function saveErrorMessage(err: unknown, editing: boolean): string {
  if (!(err instanceof ApiError)) return editing ? "Failed to update listing. Please try again." : "Failed to create listing";
  if (err.body?.detail) return err.body.detail;
  if (err.isNetworkError) return "Unable to connect to server. Please check your internet connection.";
  if (err.status === 401) return "Authentication failed. Please log in again.";
  if (err.status === 403) return "You do not have permission to create listings";
  if (err.status === 422) return "Invalid data provided. Please check your form inputs.";
  if (err.status >= 500) return "Server error. Please try again later.";
  return editing ? "Failed to update listing. Please try again." : "Failed to create listing";
}

/** A photo already on the server, or a file chosen in this form. */
export type FormPhoto = { kind: "existing"; url: string; thumb: string } | { kind: "new"; file: File; preview: string };

export interface ListingSubmission {
  data: ListingFormData;
  photos: FormPhoto[];
  /** The step shown on the button ('Compressing images...'), or null between steps. */
  onStage: (stage: string | null) => void;
  onUploadProgress: (percent: number | null) => void;
  /** The modal variant's steps: 10, 20, 30, 70, 80, 90, 100 (0 when the session check fails). */
  onProgress: (percent: number) => void;
}

export function useSubmitListing(listing: OwnerListing | undefined) {
  const create = useCreateListing();
  const update = useUpdateListing();
  const editing = !!listing;

  async function submit({ data, photos, onStage, onUploadProgress, onProgress }: ListingSubmission): Promise<OwnerListing> {
    onProgress(10);
    try {
      await fetchProfile();
    } catch {
      onProgress(0);
      throw new ListingSubmitError("Unable to verify authentication. Please log in again.");
    }
    onProgress(20);
    const fresh = photos.filter((p): p is Extract<FormPhoto, { kind: "new" }> => p.kind === "new");
    const uploaded = new Map<File, string>();
    if (fresh.length) {
      onStage("Compressing images...");
      onProgress(30);
      let prepared;
      try {
        prepared = await Promise.all(fresh.map((p) => preparePhoto(p.file)));
      } catch {
        throw new ListingSubmitError(MESSAGES.processing);
      }
      onStage("Uploading photos...");
      onUploadProgress(0);
      let result;
      try {
        result = await uploadPhotos(prepared, onUploadProgress);
      } catch (err) {
        throw new ListingSubmitError(uploadErrorMessage(err));
      } finally {
        onUploadProgress(null);
      }
      if (result.failed_files.length) {
        throw new ListingSubmitError(
          result.uploaded_files.length
            ? `Some images failed to upload: ${result.failed_files.map((f) => `${f.filename}: ${f.error}`).join(", ")}`
            : "No images were uploaded successfully",
        );
      }
      result.uploaded_files.forEach((u, i) => uploaded.set(fresh[i]!.file, u.url));
    }
    onProgress(70);
    const body: ListingBody = {
      ...data,
      parking: data.parking ? "true" : "false",
      allow_pets: data.allow_pets ? "true" : "false",
      pictures: photos.map((p) => (p.kind === "existing" ? p.url : uploaded.get(p.file)!)),
    };
    onStage(editing ? "Saving changes..." : "Creating listing...");
    onProgress(80);
    try {
      const saved = editing ? await update.mutateAsync({ id: listing.id, patch: body }) : (await create.mutateAsync(body)).data;
      onProgress(90);
      return saved;
    } catch (err) {
      const fieldErrors = err instanceof ApiError && err.body?.errors ? Object.fromEntries(err.body.errors.map((e) => [e.path, e.message])) : {};
      throw new ListingSubmitError(saveErrorMessage(err, editing), fieldErrors);
    }
  }

  return useMutation({ mutationFn: submit });
}

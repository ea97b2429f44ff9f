/**
 * POST upload/multiple-base64: listing photos, checked, cleaned and stored by services/images.ts
 * (storeListingPhoto). POST upload/evidence: the same body, private evidence for a deal's problem,
 * statement or condition report (services/evidence.ts, docs/decisions/032). Images fail one by one: the
 * answer lists uploaded_files and failed_files (and, when none was stored, a 400 whose `detail` is the
 * first failure).
 *
 * The body (up to ~141 MB) is read one image at a time (stream-images.ts; the cap is counted in
 * middleware/body-limit.ts, which also reads a refused body to its end: decision 025). A request
 * refused half way (a bad entry, an 11th image, malformed JSON, too large) keeps nothing: the images
 * already stored for it are deleted.
 */
import { LIMITS } from "../../contract/limits";
import { UPLOAD_MESSAGES, uploadImageSchema, type UploadResponse } from "../../contract/listings";
import { z } from "../../contract/zod";
import type { Context } from "hono";
import { createRouter, type AppContext } from "../../lib/context";
import { badRequest, validationFailed } from "../../lib/errors";
import { issuesToErrors } from "../../lib/validate";
import { BODY_LIMITS } from "../../middleware/body-limit";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { deleteEvidence, storeEvidencePhoto } from "../../services/evidence";
import { deleteListingPhotos, IMAGE_TOO_BIG, storeListingPhoto, type PhotoEntry } from "../../services/images";
import { INVALID_JSON, streamImageEntries } from "./stream-images";

/** The body with each image replaced by 0: the count and shape are checked once it has ended. */
const skeletonSchema = z.object({
  images: z.array(z.unknown(), "images must be a list").min(1, UPLOAD_MESSAGES.none).max(LIMITS.photosPerListing, UPLOAD_MESSAGES.max),
});

type StoreResult = { uploaded: UploadResponse["uploaded_files"][number] } | { failed: UploadResponse["failed_files"][number] };

/**
 * Reads the body's images one at a time, each stored by `store` (which records what it wrote in
 * `stored`); a request refused half way has `discard` remove what it stored.
 */
async function receiveImages(c: Context<AppContext>, store: (entry: PhotoEntry, stored: string[]) => Promise<StoreResult>, discard: (stored: string[]) => Promise<void>) {
  if (!c.req.raw.body) throw badRequest(INVALID_JSON);
  const result: UploadResponse = { uploaded_files: [], failed_files: [] };
  const stored: string[] = [];

  const entries = streamImageEntries(c.req.raw.body, BODY_LIMITS.listingPhoto, IMAGE_TOO_BIG);
  try {
    for (let index = 0; ; index++) {
      const next = await entries.next();
      if (next.done) {
        const rest = skeletonSchema.safeParse(next.value);
        if (!rest.success) throw validationFailed(issuesToErrors(rest.error.issues));
        break;
      }
      if (index >= LIMITS.photosPerListing) throw validationFailed([{ path: "images", message: UPLOAD_MESSAGES.max }]);
      const entry = uploadImageSchema.safeParse(next.value);
      if (!entry.success) throw validationFailed(issuesToErrors(entry.error.issues).map((e) => ({ ...e, path: e.path === "body" ? `images.${index}` : `images.${index}.${e.path}` })));
      const outcome = await store(entry.data, stored);
      if ("uploaded" in outcome) result.uploaded_files.push(outcome.uploaded);
      else result.failed_files.push(outcome.failed);
    }
  } catch (err) {
    // Refused half way: what this request stored goes too (it was never answered with its URLs).
    if (stored.length) await discard(stored);
    throw err;
  } finally {
    // Left at an entry (refused): the reader is released, so the middleware can finish the body.
    await entries.return(undefined);
  }
  if (!result.uploaded_files.length) {
    return c.json({ detail: result.failed_files[0]?.error ?? UPLOAD_MESSAGES.none, ...result }, 400);
  }
  return c.json(result, 200);
}

export const uploadRoutes = createRouter()
  .post("/multiple-base64", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    return receiveImages(
      c,
      (entry, stored) => storeListingPhoto(c.env, user.id, entry, stored),
      (stored) => deleteListingPhotos(c.env, stored),
    );
  })
  // Private evidence: the same body and per-file checks; thumbnails are not kept (nothing shows evidence on a card).
  .post("/evidence", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    return receiveImages(
      c,
      (entry, stored) => storeEvidencePhoto(c.var.db, c.env, user.id, entry, stored),
      (stored) => deleteEvidence(c.var.db, c.env, stored),
    );
  });

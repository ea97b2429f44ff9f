/**
 * POST upload/multiple-base64: listing photos. Each image is checked, cleaned and stored by
 * services/images.ts (storeListingPhoto). Images fail one by one: the answer lists uploaded_files and
 * failed_files (and, when none was stored, a 400 whose `detail` is the first failure).
 *
 * The body (up to ~141 MB) is read one image at a time (stream-images.ts; the cap is counted in
 * middleware/body-limit.ts, which also reads a refused body to its end: decision 025). A request
 * refused half way (a bad entry, an 11th image, malformed JSON, too large) keeps nothing: the images
 * already stored for it are deleted.
 */
import { LIMITS } from "../../contract/limits";
import { UPLOAD_MESSAGES, uploadImageSchema, type UploadResponse } from "../../contract/listings";
import { z } from "../../contract/zod";
import { createRouter } from "../../lib/context";
import { badRequest, validationFailed } from "../../lib/errors";
import { issuesToErrors } from "../../lib/validate";
import { BODY_LIMITS } from "../../middleware/body-limit";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { deleteListingPhotos, IMAGE_TOO_BIG, storeListingPhoto } from "../../services/images";
import { INVALID_JSON, streamImageEntries } from "./stream-images";

/** The body with each image replaced by 0: the count and shape are checked once it has ended. */
const skeletonSchema = z.object({
  images: z.array(z.unknown(), "images must be a list").min(1, UPLOAD_MESSAGES.none).max(LIMITS.photosPerListing, UPLOAD_MESSAGES.max),
});

export const uploadRoutes = createRouter().post("/multiple-base64", async (c) => {
  const user = await requireUser(c);
  await enforceLimit(c, "WRITE_LIMITER", user.id);
  if (!c.req.raw.body) throw badRequest(INVALID_JSON);
  const result: UploadResponse = { uploaded_files: [], failed_files: [] };
  const storedKeys: string[] = [];

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
      const stored = await storeListingPhoto(c.env, user.id, entry.data, storedKeys);
      if ("uploaded" in stored) result.uploaded_files.push(stored.uploaded);
      else result.failed_files.push(stored.failed);
    }
  } catch (err) {
    // Refused half way: what this request stored goes too (it was never answered with its URLs).
    if (storedKeys.length) await deleteListingPhotos(c.env, storedKeys);
    throw err;
  } finally {
    // Left at an entry (refused): the reader is released, so the middleware can finish the body.
    await entries.return(undefined);
  }
  if (!result.uploaded_files.length) {
    return c.json({ detail: result.failed_files[0]?.error ?? UPLOAD_MESSAGES.none, ...result }, 400);
  }
  return c.json(result, 200);
});

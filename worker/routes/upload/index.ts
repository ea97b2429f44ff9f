/**
 * POST upload/multiple-base64: listing photos. Each image is checked from its bytes (JPEG, PNG,
 * WebP or GIF), at most 10 MB decoded, stripped of metadata (a file whose structure cannot be read
 * is refused), stored under a key carrying the uploader's id; an optional client-made thumbnail is
 * stored beside it. Images fail one by one: the answer lists uploaded_files and failed_files (and,
 * when none was stored, a 400 whose `detail` is the first failure).
 *
 * The body (up to ~141 MB) is read one image at a time (stream-images.ts; the cap is counted in
 * middleware/body-limit.ts). A request refused half way (a bad entry, an 11th image, malformed JSON,
 * too large) keeps nothing: the images already stored for it are deleted.
 */
import { LIMITS } from "../../contract/constants";
import { UPLOAD_MESSAGES, uploadImageSchema, type UploadResponse } from "../../contract/listings";
import { z } from "../../contract/zod";
import { imageUrl } from "../../lib/image-url";
import { newId } from "../../lib/ids";
import { createRouter } from "../../lib/context";
import { badRequest, validationFailed } from "../../lib/errors";
import { issuesToErrors } from "../../lib/validate";
import { log } from "../../lib/log";
import { BODY_LIMITS } from "../../middleware/body-limit";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { decodeDataUrl, decodedSize, detectFileType, EXTENSIONS } from "../../services/files";
import { stripMetadata } from "../../services/images";
import { IMMUTABLE } from "../../services/storage";
import { INVALID_JSON, streamImageEntries } from "./stream-images";

const TOO_BIG = "Each image must be less than 10MB";
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

  /** One entry: checked, cleaned, stored; a problem with its file is a failed_files entry. */
  const store = async (image: z.infer<typeof uploadImageSchema>) => {
    const fail = (error: string) => result.failed_files.push({ filename: image.filename, error });
    if (decodedSize(image.image_data) > LIMITS.imageMaxBytes) return fail(TOO_BIG);
    const bytes = decodeDataUrl(image.image_data);
    if (!bytes || bytes.length === 0) return fail("The file is empty or not a valid image");
    const type = detectFileType(bytes);
    if (!type || type === "application/pdf") return fail("Only JPEG, PNG, WebP and GIF images are allowed");
    const clean = stripMetadata(bytes, type);
    if (!clean) return fail("The image is damaged or could not be read");
    const key = `listings/${user.id}_${newId()}.${EXTENSIONS[type]}`;
    storedKeys.push(key);
    await c.env.IMAGES.put(key, clean, { httpMetadata: { contentType: type, cacheControl: IMMUTABLE } });
    // The card-size copy is optional: checked for size before it is decoded, and skipped (cards then
    // use the full image) when it is too big or not a readable JPEG.
    const thumb =
      image.thumbnail_data && decodedSize(image.thumbnail_data) <= LIMITS.thumbnailMaxBytes ? decodeDataUrl(image.thumbnail_data) : null;
    const cleanThumb = thumb && detectFileType(thumb) === "image/jpeg" ? stripMetadata(thumb, "image/jpeg") : null;
    let thumbUrl: string | null = null;
    if (cleanThumb) {
      const thumbKey = key.replace(/\.(jpg|png|webp|gif)$/, ".thumb.jpg");
      storedKeys.push(thumbKey);
      await c.env.IMAGES.put(thumbKey, cleanThumb, { httpMetadata: { contentType: "image/jpeg", cacheControl: IMMUTABLE } });
      thumbUrl = imageUrl(thumbKey);
    }
    result.uploaded_files.push({ url: imageUrl(key)!, thumbnail_url: thumbUrl, filename: image.filename, size: clean.length });
  };

  try {
    const entries = streamImageEntries(c.req.raw.body, BODY_LIMITS.listingPhoto, TOO_BIG);
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
      await store(entry.data);
    }
  } catch (err) {
    // Refused half way: what this request stored goes too (it was never answered with its URLs).
    if (storedKeys.length) await c.env.IMAGES.delete(storedKeys).catch(() => log.error("upload_cleanup_failed", { keys: storedKeys.length }));
    throw err;
  }
  if (!result.uploaded_files.length) {
    return c.json({ detail: result.failed_files[0]?.error ?? UPLOAD_MESSAGES.none, ...result }, 400);
  }
  return c.json(result, 200);
});

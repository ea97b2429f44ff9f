/**
 * POST upload/multiple-base64: listing photos. Each image is checked from its bytes (JPEG, PNG,
 * WebP or GIF), at most 10 MB decoded, stripped of metadata (a file whose structure cannot be read
 * is refused), stored under a key carrying the uploader's id; an optional client-made thumbnail is
 * stored beside it. Images fail one by one: the answer lists uploaded_files and failed_files.
 */
import { LIMITS } from "../../contract/constants";
import { uploadRequestSchema, type UploadResponse } from "../../contract/listings";
import { imageUrl } from "../../db/queries/users";
import { newId } from "../../lib/ids";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { decodeDataUrl, decodedSize, detectFileType, EXTENSIONS } from "../../services/files";
import { stripMetadata } from "../../services/images";
import { IMMUTABLE } from "../../services/storage";

export const uploadRoutes = createRouter().post("/multiple-base64", async (c) => {
  const user = await requireUser(c);
  await enforceLimit(c, "WRITE_LIMITER", user.id);
  const { images } = await parseJson(c, uploadRequestSchema);
  const result: UploadResponse = { uploaded_files: [], failed_files: [] };
  for (const image of images) {
    const fail = (error: string) => result.failed_files.push({ filename: image.filename, error });
    if (decodedSize(image.image_data) > LIMITS.imageMaxBytes) {
      fail("Each image must be less than 10MB");
      continue;
    }
    const bytes = decodeDataUrl(image.image_data);
    if (!bytes || bytes.length === 0) {
      fail("The file is empty or not a valid image");
      continue;
    }
    const type = detectFileType(bytes);
    if (!type || type === "application/pdf") {
      fail("Only JPEG, PNG, WebP and GIF images are allowed");
      continue;
    }
    const clean = stripMetadata(bytes, type);
    if (!clean) {
      fail("The image is damaged or could not be read");
      continue;
    }
    const key = `listings/${user.id}_${newId()}.${EXTENSIONS[type]}`;
    await c.env.IMAGES.put(key, clean, { httpMetadata: { contentType: type, cacheControl: IMMUTABLE } });
    // The card-size copy is optional: checked for size before it is decoded, and skipped (cards then
    // use the full image) when it is too big or not a readable JPEG.
    const thumb =
      image.thumbnail_data && decodedSize(image.thumbnail_data) <= LIMITS.thumbnailMaxBytes ? decodeDataUrl(image.thumbnail_data) : null;
    const cleanThumb = thumb && detectFileType(thumb) === "image/jpeg" ? stripMetadata(thumb, "image/jpeg") : null;
    let thumbUrl: string | null = null;
    if (cleanThumb) {
      const thumbKey = key.replace(/\.(jpg|png|webp|gif)$/, ".thumb.jpg");
      await c.env.IMAGES.put(thumbKey, cleanThumb, { httpMetadata: { contentType: "image/jpeg", cacheControl: IMMUTABLE } });
      thumbUrl = imageUrl(thumbKey);
    }
    result.uploaded_files.push({ url: imageUrl(key)!, thumbnail_url: thumbUrl, filename: image.filename, size: clean.length });
  }
  return c.json(result, result.uploaded_files.length ? 200 : 400);
});

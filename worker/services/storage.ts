/**
 * R2 objects: public images (listing photos, avatars) under random keys, and private identity
 * documents in their own bucket. Deleting is best effort after the database rows are gone.
 */
import { newId } from "../lib/ids";
import { log } from "../lib/log";
import { purgeImageCache } from "./edge-cache";
import { EXTENSIONS, type DetectedType } from "./files";

export const IMMUTABLE = "public, max-age=31536000, immutable";

export async function putImage(env: Env, folder: "listings" | "avatars", bytes: Uint8Array, type: DetectedType) {
  const key = `${folder}/${newId()}.${EXTENSIONS[type]}`;
  await env.IMAGES.put(key, bytes, { httpMetadata: { contentType: type, cacheControl: IMMUTABLE } });
  return key;
}

export async function deleteObjects(bucket: R2Bucket, keys: (string | null | undefined)[]) {
  const list = keys.filter((k): k is string => !!k);
  if (!list.length) return;
  try {
    // R2 deletes up to 1000 keys per call.
    for (let i = 0; i < list.length; i += 1000) await bucket.delete(list.slice(i, i + 1000));
  } catch (err) {
    log.warn("storage_delete_failed", { count: list.length, message: String(err) });
  }
}

/** Deletes public images (avatars, listing photos) from R2 and from this data center's edge cache. */
export async function deleteImages(bucket: R2Bucket, keys: (string | null | undefined)[]) {
  await deleteObjects(bucket, keys);
  await purgeImageCache(keys);
}

/** Deletes every object whose key starts with `prefix` (listed in pages of 1000). */
export async function deletePrefix(bucket: R2Bucket, prefix: string) {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    await deleteObjects(bucket, page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

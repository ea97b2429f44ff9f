/**
 * R2 objects: public images (listing photos, avatars) under random keys, and private identity
 * documents in their own bucket. Deleting is best effort after the database rows are gone.
 */
import { newId } from "../lib/ids";
import { log } from "../lib/log";
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

/**
 * Copied photos (docs/decisions/028): each listing photo is hashed from the stored image (SHA-256 of
 * the bytes, dHash of the picture and its mirror, lib/photo-hash), off the request; staff's listing
 * views then list the photos matching one first posted by another owner. The earlier poster is never
 * flagged (only photos posted after the match count), and an owner's own photos never match.
 */
import { bandCandidates, firstPostedByOwner, hashedPhotosOf, insertPhotoHash, listingsWithUnhashedPhotos, pendingPhotoCounts, unhashedPhotosOf, type PhotoHashRow } from "../db/queries/photo-hashes";
import type { PhotoMatch } from "../contract/admin";
import type { Db } from "../db/client";
import { imageUrl } from "../lib/image-url";
import { bandsOf, decodeJpeg, hammingDistance, hashPixels } from "../lib/photo-hash";

/** Bits within which two pictures are one (measured: test/bench/photo-hash.mjs, docs/decisions/028). */
export const PHOTO_MATCH_BITS = 10;
export const MAX_PHOTO_MATCHES = 20;

export const PHOTO_MATCH_REASON = "Photos match another listing";

export type { PhotoMatch } from "../contract/admin";

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Hashes the listing's photos not hashed yet (rerunnable: hashed photos are skipped). */
export async function hashListingPhotos(db: Db, env: Env, listingId: string): Promise<number> {
  const photos = await unhashedPhotosOf(db, listingId);
  for (const photo of photos) {
    const object = await env.IMAGES.get(photo.key);
    const base = { photoId: photo.photoId, listingId, ownerId: photo.ownerId, picture: photo.key, postedAt: photo.postedAt };
    if (!object) {
      await insertPhotoHash(db, { ...base, status: "unavailable" });
      continue;
    }
    const bytes = new Uint8Array(await object.arrayBuffer());
    const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
    // The same bytes posted earlier by this owner keep that date: an edit never makes them the later poster.
    const earlier = await firstPostedByOwner(db, photo.ownerId, sha256);
    if (earlier && earlier < base.postedAt) base.postedAt = earlier;
    // jpeg-js reads JPEG only; PNG, WebP and GIF keep their SHA-256 (exact copies) until a decoder is added.
    const pixels = bytes[0] === 0xff && bytes[1] === 0xd8 ? decodeJpeg(bytes) : null;
    const outcome = pixels ? hashPixels(pixels) : null;
    if (!outcome || outcome.status !== "hashed") {
      await insertPhotoHash(db, { ...base, status: outcome ? outcome.reason : "unavailable", sha256 });
      continue;
    }
    const [band0, band1, band2, band3] = bandsOf(outcome.dhash);
    await insertPhotoHash(db, { ...base, status: "hashed", sha256, dhash: outcome.dhash, dhashMirror: outcome.dhashMirror, band0, band1, band2, band3 });
  }
  return photos.length;
}

/** The backfill: hashes the photos of up to `limit` listings that have unhashed ones (rerunnable). */
export async function backfillPhotoHashes(db: Db, env: Env, limit = 20): Promise<number> {
  let n = 0;
  for (const id of await listingsWithUnhashedPhotos(db, limit)) n += await hashListingPhotos(db, env, id);
  return n;
}

const isMatch = (a: PhotoHashRow, b: PhotoHashRow) =>
  (!!a.sha256 && a.sha256 === b.sha256) ||
  (!!a.dhash && !!b.dhash && Math.min(hammingDistance(a.dhash, b.dhash), hammingDistance(a.dhashMirror!, b.dhash)) <= PHOTO_MATCH_BITS);

/** Photos of this listing matching one posted earlier by another owner (at most 20). */
export async function photoMatchesOf(db: Db, listingId: string): Promise<PhotoMatch[]> {
  const mine = await hashedPhotosOf(db, [listingId]);
  const matches: PhotoMatch[] = [];
  for (const photo of mine) {
    const bands = [bandsOf(photo.dhash!), bandsOf(photo.dhashMirror!)];
    for (const other of await bandCandidates(db, photo.ownerId, bands, photo.sha256)) {
      if (other.postedAt >= photo.postedAt || !isMatch(photo, other)) continue;
      matches.push({ listing_id: other.listingId, owner_id: other.ownerId, picture: imageUrl(photo.picture)!, matched_picture: imageUrl(other.picture)! });
      if (matches.length >= MAX_PHOTO_MATCHES) return matches;
    }
  }
  return matches;
}

/** Whether any photo of each listing still waits for its hash (staff see "photo check pending"). */
export async function photoCheckPending(db: Db, listingIds: string[]): Promise<Set<string>> {
  return new Set((await pendingPhotoCounts(db, listingIds)).map((r) => r.listingId));
}

/** Staff's listings with their photo check: matches and whether hashing is still under way. */
export async function withPhotoCheck<L extends { id: string }>(db: Db, listings: L[]): Promise<(L & { photo_matches: PhotoMatch[]; photo_check_pending: boolean })[]> {
  const pending = await photoCheckPending(db, listings.map((l) => l.id));
  const out = [];
  for (const l of listings) out.push({ ...l, photo_matches: await photoMatchesOf(db, l.id), photo_check_pending: pending.has(l.id) });
  return out;
}

/**
 * Copied photos (docs/decisions/028): each listing photo is hashed from the stored image (SHA-256 of
 * the bytes, pHash of the picture and its centre and dHash, lib/photo-hash), off the request; the
 * matches with photos of other owners are found then, through the band index, and stored. The later
 * poster's listing is sent to review with a reason; the earlier poster is never flagged, and an owner's
 * own photos never match. Staff read the stored matches in one statement and can mark a pair "not a copy".
 */
import {
  bandCandidates,
  firstPostedByOwner,
  flagListingForReview,
  hasCurrentMatches,
  hashesOfBytes,
  hashRowsOf,
  insertPhotoHash,
  insertPhotoMatch,
  insertWindowBands,
  listingTitlesOf,
  listingsWithUnhashedPhotos,
  matchOfPictures,
  notACopyStatements,
  notCopyPairs,
  pendingPhotoCounts,
  pruneGonePhotoHashes,
  reviewReasonsOf,
  setReviewReason,
  storedMatchesOf,
  undecodedPhotosOf,
  unhashedPhotosOf,
  type PhotoHashRow,
} from "../db/queries/photo-hashes";
import { insertAudit } from "../db/queries/audit";
import { PHOTO_MATCH_REASON, type PhotoMatch } from "../contract/admin";
import type { Db } from "../db/client";
import { notFound } from "../lib/errors";
import { purgeListingCache } from "./edge-cache";
import { imageUrl } from "../lib/image-url";
import { getConfig } from "../env";
import { log } from "../lib/log";
import { notify } from "./notify";
import { BAND_BITS, bandNeighbours, bandsOf, decodeImage, hammingDistance, hashPixels, WINDOWS } from "../lib/photo-hash";

/** pHash bits within which two pictures are one (measured: test/bench/photo-hash.mjs, docs/decisions/028). */
export const PHOTO_MATCH_BITS = 10;
/**
 * pHash bits within which a picture and a 90 %-window of the other are one (a copy cropped off one or two
 * sides; tighter than PHOTO_MATCH_BITS: each pair meets 32 more comparisons, measured in docs/decisions/028).
 */
export const WINDOW_MATCH_BITS = 7;
/** Each band is looked up within this many bits: pairs within PHOTO_MATCH_BITS differ by at most this in one of the three. */
const BAND_RADIUS = Math.floor(PHOTO_MATCH_BITS / BAND_BITS.length);
const WINDOW_BAND_RADIUS = Math.floor(WINDOW_MATCH_BITS / BAND_BITS.length);
export const MAX_PHOTO_MATCHES = 20;
const YEAR_MS = 365 * 24 * 3600 * 1000;

export type { PhotoMatch } from "../contract/admin";

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

type Hashed = Pick<PhotoHashRow, "phash" | "phashMirror" | "phashCentre" | "phashCentreMirror" | "phashWindows">;

/** The windows' pHashes (WINDOWS, then mirrored), none on a row hashed before them. */
const windowsOf = (row: Hashed): string[] => (row.phashWindows ? (JSON.parse(row.phashWindows) as string[]) : []);

const d = (x: string | null | undefined, y: string | null | undefined) => (x && y ? hammingDistance(x, y) : 64);

/**
 * The distance of two hashed pictures: the nearest of the picture, its mirror and its centre (a crop
 * of up to 10 % a side is the other's centre), in either direction.
 */
export function photoDistance(a: Hashed, b: Hashed): number {
  return Math.min(
    d(a.phash, b.phash),
    d(a.phashMirror, b.phash),
    d(a.phash, b.phashCentre),
    d(a.phashMirror, b.phashCentre),
    d(a.phashCentre, b.phash),
    d(a.phashCentreMirror, b.phash),
  );
}

/**
 * The nearest of a picture (or its mirror) to one of the other's 90 %-windows, in either direction: a
 * copy cropped off one or two sides is the original's window (its mirror, the window mirrored).
 */
export function windowDistance(a: Hashed, b: Hashed): number {
  const crop = (q: Hashed, x: Hashed) => Math.min(64, ...windowsOf(x).slice(0, 8).flatMap((w) => [d(q.phash, w), d(q.phashMirror, w)]));
  return Math.min(crop(a, b), crop(b, a));
}

/** A match's distance: the picture's within PHOTO_MATCH_BITS, else a window's within WINDOW_MATCH_BITS, else null. */
export function matchDistance(a: Hashed, b: Hashed): number | null {
  const whole = photoDistance(a, b);
  if (whole <= PHOTO_MATCH_BITS) return whole;
  const window = windowDistance(a, b);
  return window <= WINDOW_MATCH_BITS ? window : null;
}

/**
 * Each band's lookup lists for a picture: for the stored pictures' own bands, its four hashes (its
 * picture, mirror and centre against theirs) within BAND_RADIUS and its windows and their mirrors (theirs
 * a crop of this one) within WINDOW_BAND_RADIUS; for the stored centres' bands, its picture and mirror (a
 * crop of theirs) within BAND_RADIUS; for the stored windows' bands, its picture and mirror within
 * WINDOW_BAND_RADIUS. Pigeonhole: a pair within t bits differs by at most floor(t / 3) in one band.
 */
function lookupBands(row: Hashed): { whole: number[][]; centre: number[][]; windows: number[][] } {
  const near = (hashes: (string | null)[], radius: number) =>
    BAND_BITS.map((width, k) => hashes.filter((h): h is string => !!h).flatMap((h) => bandNeighbours(bandsOf(h)[k]!, width, radius)));
  const whole = near([row.phash, row.phashMirror, row.phashCentre, row.phashCentreMirror], BAND_RADIUS);
  const ofWindows = near(windowsOf(row), WINDOW_BAND_RADIUS);
  return {
    whole: whole.map((values, k) => [...new Set([...values, ...ofWindows[k]!])]),
    centre: near([row.phash, row.phashMirror], BAND_RADIUS).map((v) => [...new Set(v)]),
    windows: near([row.phash, row.phashMirror], WINDOW_BAND_RADIUS).map((v) => [...new Set(v)]),
  };
}

/**
 * Finds and stores the matches of one hashed photo with other owners' photos; flags the later poster's
 * listing. Returns the listings that had no review reason before (their owners are told once).
 */
export async function matchPhoto(db: Db, row: PhotoHashRow): Promise<string[]> {
  const candidates = await bandCandidates(db, row.ownerId, lookupBands(row), row.sha256);
  const near = candidates
    .map((other) => ({ other, distance: row.sha256 && row.sha256 === other.sha256 ? 0 : matchDistance(row, other) }))
    .filter((c): c is { other: PhotoHashRow; distance: number } => c.distance !== null && c.other.postedAt !== row.postedAt);
  if (!near.length || !row.sha256) return [];
  const dismissed = await notCopyPairs(db, row.sha256, near.map((c) => c.other.sha256!).filter(Boolean));
  const flagged: string[] = [];
  for (const { other, distance } of near) {
    if (other.sha256 && dismissed.has(other.sha256)) continue;
    const [later, earlier] = row.postedAt > other.postedAt ? [row, other] : [other, row];
    await insertPhotoMatch(db, { photoId: later.photoId, matchedPhotoId: earlier.photoId, distance });
    if ((await reviewReasonsOf(db, [later.listingId])).get(later.listingId) === null) flagged.push(later.listingId);
    await flagListingForReview(db, later.listingId, PHOTO_MATCH_REASON);
    // An approved listing just went back to pending: cached public reads must not show it.
    await purgeListingCache([later.listingId], db);
  }
  return flagged;
}

/** Tells each flagged listing's owner why it went back to review (never whose photos: docs/decisions/028). */
async function tellOwners(db: Db, env: Env, listingIds: string[]) {
  const config = getConfig(env);
  for (const listing of await listingTitlesOf(db, [...new Set(listingIds)]))
    await notify({ db, env, config }, { userId: listing.userId }, { kind: "listing_photo_match", listingId: listing.id, title: listing.title, reason: PHOTO_MATCH_REASON }).catch(
      (err: unknown) => log.warn("photo_match_notice_failed", { message: err instanceof Error ? err.message : "unknown" }),
    );
}

const emptyHashes = { phash: null, phashMirror: null, phashCentre: null, phashCentreMirror: null, dhash: null, dhashMirror: null, phashWindows: null, p0: null, p1: null, p2: null, c0: null, c1: null, c2: null };

/** Hashes the listing's photos not hashed yet and finds their matches (rerunnable: hashed photos are skipped). */
export async function hashListingPhotos(db: Db, env: Env, listingId: string): Promise<number> {
  const photos = await unhashedPhotosOf(db, listingId);
  const flagged: string[] = [];
  for (const photo of photos) {
    const object = await env.IMAGES.get(photo.key);
    const base = { photoId: photo.photoId, listingId, ownerId: photo.ownerId, picture: photo.key, postedAt: photo.postedAt };
    if (!object) {
      await insertPhotoHash(db, { ...base, status: "missing" });
      continue;
    }
    const bytes = new Uint8Array(await object.arrayBuffer());
    const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
    // The same bytes posted earlier by this owner keep that date: an edit never makes them the later poster.
    const earlier = await firstPostedByOwner(db, photo.ownerId, sha256);
    if (earlier && earlier < base.postedAt) base.postedAt = earlier;
    // The same bytes hashed before (an owner's photo on several listings) are not decoded again.
    const known = await hashesOfBytes(db, sha256);
    // JPEG and PNG are decoded here; WebP and GIF are not (no decoder runs in workerd: decision 028).
    const pixels = known ? null : decodeImage(bytes);
    const outcome = known ?? (pixels ? hashPixels(pixels) : null);
    if (!outcome || outcome.status !== "hashed") {
      const status = outcome ? outcome.reason : "undecoded";
      await insertPhotoHash(db, { ...base, status, sha256 });
      // A picture not decoded here still matches the same bytes posted by another owner.
      if (status === "undecoded") flagged.push(...(await matchPhoto(db, { ...emptyHashes, ...base, status, sha256, goneAt: null, createdAt: "" })));
      continue;
    }
    const { status: _, phashWindows, ...hashes } = outcome;
    const [p0, p1, p2] = bandsOf(hashes.phash);
    const [c0, c1, c2] = bandsOf(hashes.phashCentre);
    const row = { ...base, status: "hashed", sha256, ...hashes, phashWindows: JSON.stringify(phashWindows), p0, p1, p2, c0, c1, c2, goneAt: null };
    // The windows' bands first: a photo's row says it is hashed, so it is written last.
    await insertWindowBands(db, base.photoId, phashWindows.slice(0, WINDOWS.length).map(bandsOf));
    await insertPhotoHash(db, row);
    flagged.push(...(await matchPhoto(db, { ...row, createdAt: "" })));
  }
  await tellOwners(db, env, flagged);
  // An edit that took the matching photos off clears the reason (the match rows of removed photos no longer count).
  if (!(await hasCurrentMatches(db, listingId))) await setReviewReason(db, listingId, null);
  return photos.length;
}

/** The backfill (cron): hashes the photos of up to `limit` listings that have unhashed ones, and prunes a year after a listing went. */
export async function backfillPhotoHashes(db: Db, env: Env, limit = 20, now = Date.now()): Promise<number> {
  let n = 0;
  for (const id of await listingsWithUnhashedPhotos(db, limit)) n += await hashListingPhotos(db, env, id);
  await pruneGonePhotoHashes(db, new Date(now).toISOString(), new Date(now - YEAR_MS).toISOString());
  return n;
}

/** The check staff see on each listing: four statements for a whole page, none per photo. */
export async function withPhotoCheck<L extends { id: string }>(
  db: Db,
  listings: L[],
): Promise<(L & { photo_matches: PhotoMatch[]; photo_check_pending: boolean; photos_not_compared: string[]; review_reason: string | null })[]> {
  const ids = listings.map((l) => l.id);
  const [stored, pending, undecoded, reasons] = await Promise.all([storedMatchesOf(db, ids), pendingPhotoCounts(db, ids), undecodedPhotosOf(db, ids), reviewReasonsOf(db, ids)]);
  const waiting = new Set(pending.map((r) => r.listingId));
  return listings.map((l) => ({
    ...l,
    photo_matches: stored
      .filter((m) => m.listingId === l.id)
      .slice(0, MAX_PHOTO_MATCHES)
      .map((m) => ({
        listing_id: m.matchedListingId,
        owner_id: m.matchedOwnerId,
        owner_name: m.matchedOwnerName || null,
        picture: imageUrl(m.picture)!,
        posted_at: m.postedAt,
        matched_picture: imageUrl(m.matchedPicture)!,
        matched_posted_at: m.matchedPostedAt,
      })),
    photo_check_pending: waiting.has(l.id),
    photos_not_compared: undecoded.filter((u) => u.listingId === l.id).map((u) => imageUrl(u.picture)!),
    review_reason: reasons.get(l.id) ?? null,
  }));
}

const keyOfUrl = (url: string) => url.replace(/^\/api\/v1\/images\//, "");

/** Staff mark a pair "not a copy": stored by the pictures' bytes, never flagged again; the reason clears when none is left. */
export async function markNotACopy(db: Db, actor: string, listingId: string, picture: string, matchedPicture: string): Promise<void> {
  const pairs = await matchOfPictures(db, listingId, keyOfUrl(picture), keyOfUrl(matchedPicture));
  if (!pairs.length) throw notFound("This listing has no such photo match.");
  const rows = await hashRowsOf(db, [pairs[0]!.photoId, pairs[0]!.matchedPhotoId]);
  const sha = (id: string) => rows.find((r) => r.photoId === id)?.sha256 ?? id;
  await db.batch([
    ...notACopyStatements(db, sha(pairs[0]!.photoId), sha(pairs[0]!.matchedPhotoId), pairs),
    insertAudit(db, actor, "photo_not_a_copy", "listings", listingId, { picture, matched_picture: matchedPicture }),
  ]);
  if (!(await hasCurrentMatches(db, listingId))) await setReviewReason(db, listingId, null);
}

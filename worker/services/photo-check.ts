/**
 * Copied photos (docs/decisions/028): each listing photo is hashed from the stored image (SHA-256 of
 * the bytes, pHash of the picture and its centre and dHash, lib/photo-hash), off the request; the
 * matches with photos of other owners are found then, through the band index, and stored. The later
 * poster's listing is sent to review with a reason; the earlier poster is never flagged, and an owner's
 * own photos never match. Staff read the stored matches in one statement and can mark a pair "not a copy".
 */
import {
  bandCandidates,
  claimPhotoDecode,
  dropMatchesAgainstCopy,
  firstPostedByOwner,
  flagListingForReview,
  hasCurrentMatches,
  hashesOfBytes,
  hashRowsOf,
  insertPhotoHash,
  insertPhotoMatch,
  insertWindowBands,
  isCopyOfOwner,
  listingTitlesOf,
  listingsWithUnhashedPhotos,
  markDecodeDied,
  matchedPhotosOf,
  matchOfPictures,
  notACopyStatements,
  notCopyPairs,
  pendingPhotoCounts,
  pruneGonePhotoHashes,
  reviewReasonsOf,
  savePhotoHash,
  setReviewReason,
  settledRowOfPicture,
  storedMatchesOf,
  undecodedPhotosOf,
  unhashedPhotosOf,
  windowBandsOf,
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
import { BAND_BITS, bandNeighbours, bandsOf, decodeScaled, hammingDistance, hashPixels, WINDOWS } from "../lib/photo-hash";
import { MAX_IMAGE_PIXELS, readImageSize } from "../lib/image-size";
import { newId } from "../lib/ids";
import { sendPhotoChecks } from "./background/messages";

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

/** Finds and stores the matches of one hashed photo with other owners' photos (the band index); see recordMatches. */
export async function matchPhoto(db: Db, row: PhotoHashRow): Promise<string[]> {
  const candidates = await bandCandidates(db, row.ownerId, row.picture, lookupBands(row), row.sha256);
  const near = candidates
    .map((other) => ({ other, distance: row.sha256 && row.sha256 === other.sha256 ? 0 : matchDistance(row, other) }))
    .filter((c): c is { other: PhotoHashRow; distance: number } => c.distance !== null);
  return recordMatches(db, row, near);
}

/**
 * Stores a photo's matches and flags the later poster's listing; returns the listings that had no review
 * reason before (their owners are told once). The earliest poster of a picture is never flagged, in
 * whatever order the photos were hashed (docs/decisions/036): a match is not stored when its earlier photo
 * is itself a stored copy of one the later photo's owner posted (the owner relisting their own picture
 * after a copier), and storing a copy drops the matches that flagged its original's owner against it.
 */
async function recordMatches(db: Db, row: PhotoHashRow, found: { other: PhotoHashRow; distance: number }[]): Promise<string[]> {
  const near = found.filter((c) => c.other.ownerId !== row.ownerId && c.other.picture !== row.picture && c.other.postedAt !== row.postedAt);
  if (!near.length || !row.sha256) return [];
  const dismissed = await notCopyPairs(db, row.sha256, near.map((c) => c.other.sha256!).filter(Boolean));
  const flagged: string[] = [];
  const cleared = new Set<string>();
  for (const { other, distance } of near) {
    if (other.sha256 && dismissed.has(other.sha256)) continue;
    const [later, earlier] = row.postedAt > other.postedAt ? [row, other] : [other, row];
    if (await isCopyOfOwner(db, earlier.photoId, later.ownerId)) continue;
    await insertPhotoMatch(db, { photoId: later.photoId, matchedPhotoId: earlier.photoId, distance });
    for (const id of await dropMatchesAgainstCopy(db, later.photoId, earlier.ownerId)) cleared.add(id);
    if ((await reviewReasonsOf(db, [later.listingId])).get(later.listingId) === null) flagged.push(later.listingId);
    await flagListingForReview(db, later.listingId, PHOTO_MATCH_REASON);
    // An approved listing just went back to pending: cached public reads must not show it.
    await purgeListingCache([later.listingId], db);
  }
  // The earlier poster's listings flagged by mistake: the reason clears where no match is left (they stay in review for staff).
  for (const id of cleared) if (!(await hasCurrentMatches(db, id))) await setReviewReason(db, id, null);
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

/** A claimed decode older than this that never finished died with its invocation (a consumer runs 15 minutes at most). */
const DEAD_CLAIM_MS = 15 * 60_000;

type PhotoBase = Pick<PhotoHashRow, "photoId" | "listingId" | "ownerId" | "picture" | "postedAt">;

/**
 * Hashes the listing's photos not hashed yet and finds their matches (rerunnable: hashed photos are
 * skipped). `claim` is the queue message's id: a decode is claimed by it before it starts, so a photo
 * whose decode killed an earlier attempt of the same message (over its memory or CPU) is marked "not
 * compared" by the next attempt and never decoded again (docs/decisions/036).
 */
export async function hashListingPhotos(db: Db, env: Env, listingId: string, claim: string = newId(), nowMs = Date.now()): Promise<number> {
  const photos = await unhashedPhotosOf(db, listingId);
  const flagged: string[] = [];
  for (const photo of photos) {
    if (photo.claim) {
      // Another message's decode in progress is left to it; this message's own, or a stale one, died.
      if (photo.claim === claim || Date.parse(photo.claimedAt ?? "") < nowMs - DEAD_CLAIM_MS) {
        log.warn("photo_decode_died", { photo: photo.photoId });
        await markDecodeDied(db, photo.photoId);
      }
      continue;
    }
    flagged.push(...(await hashPhoto(db, env, { photoId: photo.photoId, listingId, ownerId: photo.ownerId, picture: photo.key, postedAt: photo.postedAt }, claim)));
  }
  await tellOwners(db, env, flagged);
  // An edit that took the matching photos off clears the reason (the match rows of removed photos no longer count).
  if (!(await hasCurrentMatches(db, listingId))) await setReviewReason(db, listingId, null);
  return photos.length;
}

/** One photo: hashed (or settled as not compared) and matched; returns the listings flagged. */
async function hashPhoto(db: Db, env: Env, base: PhotoBase, claim: string): Promise<string[]> {
  // The same stored file settled for another row (an edit saves a listing's photos again, the seeds reuse
  // the demo photos by key): its hashes and its matches, neither read from storage nor decoded again.
  const same = await settledRowOfPicture(db, base.picture);
  if (same) {
    const postedAt = same.sha256 ? await postedAtOf(db, base, same.sha256) : base.postedAt;
    const row: PhotoHashRow = { ...same, ...base, postedAt, claim: null, goneAt: null, createdAt: "" };
    if (same.status === "hashed") await insertWindowBands(db, base.photoId, await windowBandsOf(db, same.photoId));
    const { createdAt: _, ...insert } = row;
    await insertPhotoHash(db, insert);
    return COMPARED.has(row.status) ? recordMatches(db, row, await matchedPhotosOf(db, same.photoId)) : [];
  }
  const object = await env.IMAGES.get(base.picture);
  if (!object) {
    await insertPhotoHash(db, { ...base, status: "missing" });
    return [];
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
  const dated = { ...base, postedAt: await postedAtOf(db, base, sha256) };
  // Settled before anything is decoded (docs/decisions/036): a picture over 25 megapixels by its header
  // (stored before uploads were refused) or without a readable header is never decoded; it still
  // matches the same bytes posted by another owner.
  const size = readImageSize(bytes);
  if (!size || size.width * size.height > MAX_IMAGE_PIXELS) {
    const row: PhotoHashRow = { ...emptyHashes, ...dated, status: size ? "too_large" : "undecoded", sha256, claim: null, goneAt: null, createdAt: "" };
    await insertPhotoHash(db, { ...row, createdAt: undefined });
    return matchPhoto(db, row);
  }
  // The same bytes hashed before (an owner's photo on several listings) are not decoded again.
  let outcome = await hashesOfBytes(db, sha256);
  if (!outcome) {
    // Claimed first: if this decode takes the invocation down, the next attempt knows (hashListingPhotos).
    if (!(await claimPhotoDecode(db, { ...dated, sha256, claim }))) return [];
    // JPEG at 1/8 scale, PNG streamed into a small grid; WebP and GIF are not decoded (decisions 028, 036).
    const pixels = await decodeScaled(bytes);
    const hashed = pixels ? hashPixels(pixels) : null;
    if (!hashed || hashed.status !== "hashed") {
      const status = hashed ? hashed.reason : "undecoded";
      await savePhotoHash(db, { ...dated, status, sha256 });
      return status === "undecoded" ? matchPhoto(db, { ...emptyHashes, ...dated, status, sha256, claim: null, goneAt: null, createdAt: "" }) : [];
    }
    outcome = hashed;
  }
  const { status: _, phashWindows, ...hashes } = outcome;
  const [p0, p1, p2] = bandsOf(hashes.phash);
  const [c0, c1, c2] = bandsOf(hashes.phashCentre);
  const row = { ...dated, status: "hashed", sha256, ...hashes, phashWindows: JSON.stringify(phashWindows), p0, p1, p2, c0, c1, c2, claim: null, goneAt: null };
  // The windows' bands first: a photo's row says it is hashed, so it is written last.
  await insertWindowBands(db, base.photoId, phashWindows.slice(0, WINDOWS.length).map(bandsOf));
  await savePhotoHash(db, row);
  return matchPhoto(db, { ...row, createdAt: "" });
}

/** Statuses that take part in matching (by their hashes, or by their bytes alone). */
const COMPARED = new Set(["hashed", "undecoded", "too_large"]);

/** When the photo was posted: the same bytes posted earlier by this owner keep that date (an edit never makes them the later poster). */
async function postedAtOf(db: Db, base: PhotoBase, sha256: string): Promise<string> {
  const earlier = await firstPostedByOwner(db, base.ownerId, sha256);
  return earlier && earlier < base.postedAt ? earlier : base.postedAt;
}

/**
 * The one way a listing's photos get checked (uploads, edits, the seeds, the backfill): a message a
 * listing on the photos queue, whose consumer runs hashListingPhotos (docs/decisions/037).
 */
export const enqueuePhotoCheck = (env: Env, listingIds: string[]) => sendPhotoChecks(env, listingIds);

/** Listings with unhashed photos the backfill queues a run (their checks were lost, or came before the queue). */
const BACKFILL_LISTINGS = 1000;

/** The backfill (a cron job): queues the check of listings with unhashed photos, and prunes a year after a listing went. */
export async function backfillPhotoHashes(db: Db, env: Env, limit = BACKFILL_LISTINGS, now = Date.now()): Promise<number> {
  const ids = await listingsWithUnhashedPhotos(db, limit);
  await enqueuePhotoCheck(env, ids);
  await pruneGonePhotoHashes(db, new Date(now).toISOString(), new Date(now - YEAR_MS).toISOString());
  return ids.length;
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

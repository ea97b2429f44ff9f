/** Copied-photo hashes (docs/decisions/028): rows per listing photo, the band lookup of near matches, the matches found. */
import { and, eq, inArray, isNotNull, isNull, lt, min, ne, or, sql } from "drizzle-orm";
import { inValues } from "../bounded";
import type { Db } from "../client";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { listingPhotos, listings, photoHashes, photoMatches, photoNotCopies, photoWindowBands } from "../schema";

export type PhotoHashRow = typeof photoHashes.$inferSelect;

/**
 * A listing's photos not hashed yet, with the owner and when each was posted: those without a row, and
 * those whose decode was claimed (status decoding) with the claim and its time (docs/decisions/036).
 */
export const unhashedPhotosOf = (db: Db, listingId: string) =>
  db
    .select({ photoId: listingPhotos.id, key: listingPhotos.key, postedAt: listingPhotos.createdAt, ownerId: listings.userId, claim: photoHashes.claim, claimedAt: photoHashes.createdAt })
    .from(listingPhotos)
    .innerJoin(listings, eq(listings.id, listingPhotos.listingId))
    .leftJoin(photoHashes, eq(photoHashes.photoId, listingPhotos.id))
    .where(and(eq(listingPhotos.listingId, listingId), or(isNull(photoHashes.photoId), eq(photoHashes.status, "decoding"))));

/** Listings with a photo not hashed yet (the backfill). */
export const listingsWithUnhashedPhotos = async (db: Db, limit: number) =>
  (
    await db
      .selectDistinct({ listingId: listingPhotos.listingId })
      .from(listingPhotos)
      .leftJoin(photoHashes, eq(photoHashes.photoId, listingPhotos.id))
      .where(isNull(photoHashes.photoId))
      .limit(limit)
  ).map((r) => r.listingId);

export const insertPhotoHash = (db: Db, row: typeof photoHashes.$inferInsert) => db.insert(photoHashes).values(row).onConflictDoNothing();

/** Claims a photo's decode (a row with status decoding); false when another row was there first. */
export const claimPhotoDecode = async (db: Db, row: Omit<typeof photoHashes.$inferInsert, "status"> & { claim: string }) =>
  !!(await db.insert(photoHashes).values({ ...row, status: "decoding" }).onConflictDoNothing().run()).meta.changes;

/** A photo's row as hashed, replacing its claim (or written afresh). */
export const savePhotoHash = (db: Db, row: typeof photoHashes.$inferInsert) => {
  const { photoId: _, ...rest } = row;
  return db
    .insert(photoHashes)
    .values(row)
    .onConflictDoUpdate({ target: photoHashes.photoId, set: { ...rest, claim: null } });
};

/** A claimed decode that never finished: the photo is not compared, and never decoded again. */
export const markDecodeDied = (db: Db, photoId: string) =>
  db.update(photoHashes).set({ status: "undecoded", claim: null }).where(and(eq(photoHashes.photoId, photoId), eq(photoHashes.status, "decoding")));

/** A row of the same stored file (image key), already settled (not being decoded): its hashes are this photo's too. */
export const settledRowOfPicture = (db: Db, picture: string) =>
  db
    .select()
    .from(photoHashes)
    .where(and(eq(photoHashes.picture, picture), ne(photoHashes.status, "decoding")))
    .limit(1)
    .get();

/** A photo's windows' bands (to copy them to another row of the same file). */
export const windowBandsOf = async (db: Db, photoId: string): Promise<[number, number, number][]> =>
  (await db.select().from(photoWindowBands).where(eq(photoWindowBands.photoId, photoId)).orderBy(photoWindowBands.window)).map((r) => [r.b0, r.b1, r.b2]);

/** The photos a photo was matched with (either side of a stored match), with the pair's distance. */
export async function matchedPhotosOf(db: Db, photoId: string): Promise<{ other: PhotoHashRow; distance: number }[]> {
  const later = await db
    .select({ other: photoHashes, distance: photoMatches.distance })
    .from(photoMatches)
    .innerJoin(photoHashes, eq(photoHashes.photoId, photoMatches.matchedPhotoId))
    .where(eq(photoMatches.photoId, photoId));
  const earlier = await db
    .select({ other: photoHashes, distance: photoMatches.distance })
    .from(photoMatches)
    .innerJoin(photoHashes, eq(photoHashes.photoId, photoMatches.photoId))
    .where(eq(photoMatches.matchedPhotoId, photoId));
  return [...later, ...earlier];
}

/** Whether a photo is stored as a later copy of a photo of this owner (the owner posted that picture first). */
export const isCopyOfOwner = async (db: Db, photoId: string, ownerId: string) =>
  !!(await db
    .select({ one: sql<number>`1` })
    .from(photoMatches)
    .innerJoin(photoHashes, eq(photoHashes.photoId, photoMatches.matchedPhotoId))
    .where(and(eq(photoMatches.photoId, photoId), eq(photoHashes.ownerId, ownerId)))
    .get());

/**
 * Drops the matches that flag this owner's photos as later than `copyId`, a photo now known to be a copy
 * of theirs (the earliest poster of a picture is never flagged); returns the listings those photos are on.
 */
export async function dropMatchesAgainstCopy(db: Db, copyId: string, ownerId: string): Promise<string[]> {
  const mine = db.select({ id: photoHashes.photoId }).from(photoHashes).where(eq(photoHashes.ownerId, ownerId));
  const gone = await db
    .delete(photoMatches)
    .where(and(eq(photoMatches.matchedPhotoId, copyId), inArray(photoMatches.photoId, mine)))
    .returning({ photoId: photoMatches.photoId });
  if (!gone.length) return [];
  const rows = await db
    .select({ listingId: photoHashes.listingId })
    .from(photoHashes)
    .where(sql`${photoHashes.photoId} IN (SELECT value FROM json_each(${JSON.stringify(gone.map((g) => g.photoId))}))`);
  return [...new Set(rows.map((r) => r.listingId))];
}

/** A photo's windows' bands, one row per window (replaced whole: a rerun writes the same rows). */
export const insertWindowBands = (db: Db, photoId: string, bands: [number, number, number][]) =>
  bands.length ? db.insert(photoWindowBands).values(bands.map(([b0, b1, b2], window) => ({ photoId, window, b0, b1, b2 }))).onConflictDoNothing() : Promise.resolve();

/** How many photos of these listings are still waiting for their hash ("photo check pending"). */
export const pendingPhotoCounts = async (db: Db, listingIds: string[]) =>
  listingIds.length
    ? await db
        .selectDistinct({ listingId: listingPhotos.listingId })
        .from(listingPhotos)
        .leftJoin(photoHashes, eq(photoHashes.photoId, listingPhotos.id))
        .where(and(inValues(listingPhotos.listingId, listingIds), or(isNull(photoHashes.photoId), eq(photoHashes.status, "decoding"))))
    : [];

/** Photos of these listings that could not be compared (a type not decoded here, too large, a decode that died), for staff to know. */
export const undecodedPhotosOf = async (db: Db, listingIds: string[]) =>
  listingIds.length
    ? await db
        .select({ listingId: photoHashes.listingId, picture: photoHashes.picture })
        .from(photoHashes)
        .innerJoin(listingPhotos, eq(listingPhotos.id, photoHashes.photoId))
        .where(and(inValues(photoHashes.listingId, listingIds), inArray(photoHashes.status, ["undecoded", "too_large"])))
    : [];

/**
 * Candidates for a near match among other owners' hashed photos (and undecoded ones, by their bytes): rows whose pHash band k is among
 * `whole[k]` or whose centre pHash band k is among `centre[k]` (each list one bound JSON parameter), or
 * the same bytes. One statement, no row limit (a limit could drop a true match); the caller checks the
 * exact distance.
 */
export const bandCandidates = (db: Db, ownerId: string, picture: string, bands: { whole: number[][]; centre: number[][]; windows: number[][] }, sha256: string | null) => {
  // A band list is empty for a picture not decoded here: only its bytes are looked up.
  const inList = (col: SQLiteColumn, values: number[]) => sql`${col} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
  return db
    .select()
    .from(photoHashes)
    .where(
      and(
        ne(photoHashes.ownerId, ownerId),
        // The same stored file is never a copy: a key belongs to its uploader (decision 007); only the seeds share one.
        ne(photoHashes.picture, picture),
        inArray(photoHashes.status, ["hashed", "undecoded", "too_large"]),
        or(
          inList(photoHashes.p0, bands.whole[0]!),
          inList(photoHashes.p1, bands.whole[1]!),
          inList(photoHashes.p2, bands.whole[2]!),
          inList(photoHashes.c0, bands.centre[0]!),
          inList(photoHashes.c1, bands.centre[1]!),
          inList(photoHashes.c2, bands.centre[2]!),
          // A stored window within reach of this picture: this one is a crop of that photo off one or two sides.
          sql`${photoHashes.photoId} IN (SELECT photo_id FROM photo_window_bands WHERE ${or(inList(photoWindowBands.b0, bands.windows[0]!), inList(photoWindowBands.b1, bands.windows[1]!), inList(photoWindowBands.b2, bands.windows[2]!))})`,
          ...(sha256 ? [eq(photoHashes.sha256, sha256)] : []),
        ),
      ),
    );
};

/** When this owner first posted these bytes (an edit re-saves a listing's photos as new rows). */
export const firstPostedByOwner = async (db: Db, ownerId: string, sha256: string): Promise<string | null> =>
  (await db.select({ at: min(photoHashes.postedAt) }).from(photoHashes).where(and(eq(photoHashes.ownerId, ownerId), eq(photoHashes.sha256, sha256))).get())?.at ?? null;

/** The hashes already computed for these bytes, if any photo with them was hashed. */
export async function hashesOfBytes(db: Db, sha256: string) {
  const row = await db.select().from(photoHashes).where(and(eq(photoHashes.sha256, sha256), eq(photoHashes.status, "hashed"))).get();
  if (!row?.phash || !row.phashMirror || !row.phashCentre || !row.phashCentreMirror || !row.dhash || !row.dhashMirror || !row.phashWindows) return null;
  return {
    status: "hashed" as const,
    phash: row.phash,
    phashMirror: row.phashMirror,
    phashCentre: row.phashCentre,
    phashCentreMirror: row.phashCentreMirror,
    dhash: row.dhash,
    dhashMirror: row.dhashMirror,
    phashWindows: JSON.parse(row.phashWindows) as string[],
  };
}

/** The not-a-copy pairs among these SHA-256 pairs ("a|b"). */
export const notCopyPairs = async (db: Db, sha256: string, others: string[]) =>
  others.length
    ? new Set(
        (
          await db
            .select()
            .from(photoNotCopies)
            .where(
              or(
                and(eq(photoNotCopies.sha256, sha256), inValues(photoNotCopies.matchedSha256, others)),
                and(inValues(photoNotCopies.sha256, others), eq(photoNotCopies.matchedSha256, sha256)),
              ),
            )
        ).map((r) => (r.sha256 === sha256 ? r.matchedSha256 : r.sha256)),
      )
    : new Set<string>();

export const insertPhotoMatch = (db: Db, row: typeof photoMatches.$inferInsert) => db.insert(photoMatches).values(row).onConflictDoNothing();

/** The photo check's review reason of each of these listings. */
export const reviewReasonsOf = async (db: Db, listingIds: string[]) =>
  new Map(
    listingIds.length
      ? (await db.select({ id: listings.id, reason: listings.reviewReason }).from(listings).where(inValues(listings.id, listingIds))).map((r) => [r.id, r.reason])
      : [],
  );

/** Each listing's owner and title (to tell the owner it went back to review). */
export const listingTitlesOf = async (db: Db, listingIds: string[]) =>
  listingIds.length ? await db.select({ id: listings.id, userId: listings.userId, title: listings.title }).from(listings).where(inValues(listings.id, listingIds)) : [];

export const setReviewReason = (db: Db, listingId: string, reason: string | null) => db.update(listings).set({ reviewReason: reason }).where(eq(listings.id, listingId));

/** Sends an approved listing back to review (its photos match): pending, with the reason. */
export const flagListingForReview = (db: Db, listingId: string, reason: string) =>
  db
    .update(listings)
    .set({ reviewReason: reason, verificationStatus: sql`CASE WHEN ${listings.verificationStatus} = 'approved' THEN 'pending' ELSE ${listings.verificationStatus} END` })
    .where(eq(listings.id, listingId));

/**
 * The stored matches of these listings' current photos, with the earlier photo, its listing, owner and
 * date: one statement for a whole staff page, newest listing first, the caller keeps 20 a listing.
 */
export const storedMatchesOf = async (db: Db, listingIds: string[]) => {
  if (!listingIds.length) return [];
  const { results } = await db.$client
    .prepare(
      `SELECT later.listing_id AS listingId, later.picture AS picture, later.posted_at AS postedAt, later.sha256 AS sha256,
              matched.listing_id AS matchedListingId, matched.owner_id AS matchedOwnerId, matched.picture AS matchedPicture,
              matched.posted_at AS matchedPostedAt, matched.sha256 AS matchedSha256,
              trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) AS matchedOwnerName
       FROM photo_matches m
       JOIN photo_hashes later ON later.photo_id = m.photo_id
       JOIN listing_photos lp ON lp.id = later.photo_id
       JOIN photo_hashes matched ON matched.photo_id = m.matched_photo_id
       LEFT JOIN users u ON u.id = matched.owner_id
       WHERE later.listing_id IN (SELECT value FROM json_each(?1))
       ORDER BY later.listing_id, lp.position, m.distance`,
    )
    .bind(JSON.stringify(listingIds))
    .all<{
      listingId: string;
      picture: string;
      postedAt: string;
      sha256: string | null;
      matchedListingId: string;
      matchedOwnerId: string;
      matchedPicture: string;
      matchedPostedAt: string;
      matchedSha256: string | null;
      matchedOwnerName: string;
    }>();
  return results;
};

/** The match rows of one listing's pictures (by image key), for "not a copy". */
export const matchOfPictures = (db: Db, listingId: string, picture: string, matchedPicture: string) => {
  const later = sql`(SELECT photo_id FROM photo_hashes WHERE listing_id = ${listingId} AND picture = ${picture})`;
  const earlier = sql`(SELECT photo_id FROM photo_hashes WHERE picture = ${matchedPicture})`;
  return db
    .select({ photoId: photoMatches.photoId, matchedPhotoId: photoMatches.matchedPhotoId })
    .from(photoMatches)
    .where(and(sql`${photoMatches.photoId} IN ${later}`, sql`${photoMatches.matchedPhotoId} IN ${earlier}`));
};

export const hashRowsOf = (db: Db, photoIds: string[]) => (photoIds.length ? db.select().from(photoHashes).where(inValues(photoHashes.photoId, photoIds)) : Promise.resolve([] as PhotoHashRow[]));

/** Writes "not a copy": the pair by its bytes, and its match rows go. */
export const notACopyStatements = (db: Db, sha256: string, matchedSha256: string, pairs: { photoId: string; matchedPhotoId: string }[]) =>
  [
    db.insert(photoNotCopies).values({ sha256, matchedSha256 }).onConflictDoNothing(),
    ...pairs.map((p) => db.delete(photoMatches).where(and(eq(photoMatches.photoId, p.photoId), eq(photoMatches.matchedPhotoId, p.matchedPhotoId)))),
  ] as const;

/** Whether a listing still has a match on a current photo (else its review reason clears). */
export const hasCurrentMatches = async (db: Db, listingId: string) =>
  !!(await db
    .select({ one: sql<number>`1` })
    .from(photoMatches)
    .innerJoin(photoHashes, eq(photoHashes.photoId, photoMatches.photoId))
    .innerJoin(listingPhotos, eq(listingPhotos.id, photoHashes.photoId))
    .where(eq(photoHashes.listingId, listingId))
    .get());

/** The cron: rows of listings that are gone get a date; a year after it, they and their matches go. */
export async function pruneGonePhotoHashes(db: Db, now: string, cutoff: string) {
  await db
    .update(photoHashes)
    .set({ goneAt: now })
    .where(and(isNull(photoHashes.goneAt), sql`NOT EXISTS (SELECT 1 FROM listings l WHERE l.id = ${photoHashes.listingId})`));
  const old = db.select({ id: photoHashes.photoId }).from(photoHashes).where(and(isNotNull(photoHashes.goneAt), lt(photoHashes.goneAt, cutoff)));
  await db.batch([
    db.delete(photoMatches).where(or(inArray(photoMatches.photoId, old), inArray(photoMatches.matchedPhotoId, old))!),
    db.delete(photoWindowBands).where(inArray(photoWindowBands.photoId, old)),
    db.delete(photoHashes).where(and(isNotNull(photoHashes.goneAt), lt(photoHashes.goneAt, cutoff))),
  ]);
}


/** Copied-photo hashes (docs/decisions/028): rows per listing photo and the band lookup of near matches. */
import { and, eq, inArray, isNull, min, ne, or } from "drizzle-orm";
import type { Db } from "../client";
import { listingPhotos, listings, photoHashes } from "../schema";

export type PhotoHashRow = typeof photoHashes.$inferSelect;

/** A listing's photos not hashed yet, with the owner and when each was posted. */
export const unhashedPhotosOf = (db: Db, listingId: string) =>
  db
    .select({ photoId: listingPhotos.id, key: listingPhotos.key, postedAt: listingPhotos.createdAt, ownerId: listings.userId })
    .from(listingPhotos)
    .innerJoin(listings, eq(listings.id, listingPhotos.listingId))
    .leftJoin(photoHashes, eq(photoHashes.photoId, listingPhotos.id))
    .where(and(eq(listingPhotos.listingId, listingId), isNull(photoHashes.photoId)));

/** Listings with a photo not hashed yet (the backfill), oldest first. */
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

/** The hashed photos of these listings that are still on them. */
export const hashedPhotosOf = (db: Db, listingIds: string[]) =>
  listingIds.length
    ? db
        .select({ hash: photoHashes })
        .from(photoHashes)
        .innerJoin(listingPhotos, eq(listingPhotos.id, photoHashes.photoId))
        .where(and(inArray(photoHashes.listingId, listingIds), eq(photoHashes.status, "hashed")))
        .then((rows) => rows.map((r) => r.hash))
    : Promise.resolve([] as PhotoHashRow[]);

/** How many photos of these listings are still waiting for their hash ("photo check pending"). */
export const pendingPhotoCounts = async (db: Db, listingIds: string[]) =>
  listingIds.length
    ? await db
        .select({ listingId: listingPhotos.listingId })
        .from(listingPhotos)
        .leftJoin(photoHashes, eq(photoHashes.photoId, listingPhotos.id))
        .where(and(inArray(listingPhotos.listingId, listingIds), isNull(photoHashes.photoId)))
    : [];

/**
 * Candidates for a near match of `hash` among other owners' hashed photos: rows sharing a 16-bit band
 * with the hash or its mirror, or the same bytes. The caller checks the exact distance.
 */
export const bandCandidates = (db: Db, ownerId: string, bands: string[][], sha256: string | null) =>
  db
    .select()
    .from(photoHashes)
    .where(
      and(
        ne(photoHashes.ownerId, ownerId),
        eq(photoHashes.status, "hashed"),
        or(
          inArray(photoHashes.band0, bands.map((b) => b[0]!)),
          inArray(photoHashes.band1, bands.map((b) => b[1]!)),
          inArray(photoHashes.band2, bands.map((b) => b[2]!)),
          inArray(photoHashes.band3, bands.map((b) => b[3]!)),
          ...(sha256 ? [eq(photoHashes.sha256, sha256)] : []),
        ),
      ),
    )
    .limit(200);

/** When this owner first posted these bytes (an edit re-saves a listing's photos as new rows). */
export const firstPostedByOwner = async (db: Db, ownerId: string, sha256: string): Promise<string | null> =>
  (await db.select({ at: min(photoHashes.postedAt) }).from(photoHashes).where(and(eq(photoHashes.ownerId, ownerId), eq(photoHashes.sha256, sha256))).get())?.at ?? null;

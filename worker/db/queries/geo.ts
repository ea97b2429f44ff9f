/**
 * The geocoder's bookkeeping (services/geo.ts has the rules): the 30-day cache of Google places (its daily
 * call counts are day windows of auth_throttle, services/fair-use.ts).
 */
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../client";
import { placeCache } from "../schema";

/** A cached place fetched after `notBefore` (epoch ms), or undefined. */
export const findCachedPlace = (db: Db, placeId: string, notBefore: number) =>
  db
    .select({ description: placeCache.description, latitude: placeCache.latitude, longitude: placeCache.longitude })
    .from(placeCache)
    .where(and(eq(placeCache.placeId, placeId), gt(placeCache.fetchedAt, notBefore)))
    .get();

export const cachePlace = (db: Db, row: typeof placeCache.$inferInsert) =>
  db
    .insert(placeCache)
    .values(row)
    .onConflictDoUpdate({ target: placeCache.placeId, set: { description: row.description, latitude: row.latitude, longitude: row.longitude, fetchedAt: row.fetchedAt } });

/** For the cron: places fetched before `before` (epoch ms) may be kept no longer. */
export const deleteCachedPlacesBefore = (db: Db, before: number) => db.delete(placeCache).where(lt(placeCache.fetchedAt, before));

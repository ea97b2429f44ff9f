/**
 * The geocoder's bookkeeping (services/geo.ts has the rules): daily call counts, kept as day windows of
 * auth_throttle (a key per user and one for everyone), and the 30-day cache of Google places.
 */
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../client";
import { placeCache } from "../schema";

export interface DailyCaps {
  userKey: string;
  globalKey: string;
  windowStart: number;
  perUser: number;
  global: number;
}

/**
 * Counts one call for the user and for everyone, or refuses it: one batch, each count a conditional
 * upsert, so parallel calls cannot all pass a check made before them. The global count moves only
 * when the user's did. Answers which cap refused it, or null when the call was counted.
 */
export async function countGeocodingCall(db: Db, caps: DailyCaps): Promise<"user" | "global" | null> {
  const d1 = db.$client;
  const [user, global] = await d1.batch<{ failures: number }>([
    d1
      .prepare(
        `INSERT INTO auth_throttle (key, window_start, failures) VALUES (?1, ?2, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1 WHERE failures < ?3
         RETURNING failures`,
      )
      .bind(caps.userKey, caps.windowStart, caps.perUser),
    d1
      .prepare(
        `INSERT INTO auth_throttle (key, window_start, failures)
         SELECT ?1, ?2, 1 WHERE (SELECT failures FROM auth_throttle WHERE key = ?4 AND window_start = ?2) <= ?5
         ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1 WHERE failures < ?3
         RETURNING failures`,
      )
      .bind(caps.globalKey, caps.windowStart, caps.global, caps.userKey, caps.perUser),
  ]);
  if (!user?.results.length) return "user";
  if (!global?.results.length) {
    // Not served: the user's count of this call is taken back.
    await d1.prepare("UPDATE auth_throttle SET failures = max(failures - 1, 0) WHERE key = ?1 AND window_start = ?2").bind(caps.userKey, caps.windowStart).run();
    return "global";
  }
  return null;
}

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

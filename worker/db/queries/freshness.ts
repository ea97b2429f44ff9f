/**
 * Fresh listings (docs/decisions/015): the freshness check's claims and pauses, and the owner's answers
 * (services/freshness.ts decides when).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { LISTING_INDEX } from "../browse/indexes";
import { listings } from "../schema";

/** Only the freshness check sees these: approved, visible, available listings are the ones it asks about. */
const ASKABLE = `verification_status = 'approved' AND moderation_status = 'visible'`;

/**
 * Claims up to `limit` listings whose owner should be asked "still available?" (confirmed at or before
 * `dueIso` and not asked since then, or asked at or before `dueIso`) by stamping availability_asked_at
 * in the same guarded UPDATE: a second run, or a concurrent one, finds nothing left to claim.
 */
export async function claimAvailabilityAsks(db: Db, nowIso: string, dueIso: string, limit: number) {
  const { results } = await db.$client
    .prepare(
      `UPDATE listings SET availability_asked_at = ?1
        WHERE id IN (
          SELECT id FROM listings INDEXED BY ${LISTING_INDEX.availability}
           WHERE status = 'available' AND availability_confirmed_at <= ?2 AND ${ASKABLE}
             AND (availability_asked_at IS NULL OR availability_asked_at < availability_confirmed_at OR availability_asked_at <= ?2)
           ORDER BY availability_confirmed_at LIMIT ?3)
       RETURNING id, user_id, title`,
    )
    .bind(nowIso, dueIso, Math.floor(limit))
    .all<{ id: string; user_id: string; title: string }>();
  return results;
}

/** Pauses every available listing not confirmed since `pauseIso` whose owner was asked since (one guarded UPDATE). */
export const pauseUnconfirmedListings = (db: Db, nowIso: string, pauseIso: string) =>
  db.$client
    .prepare(
      `UPDATE listings SET status = 'paused', updated_at = ?1
        WHERE status = 'available' AND availability_confirmed_at <= ?2 AND ${ASKABLE}
          AND availability_asked_at >= availability_confirmed_at`,
    )
    .bind(nowIso, pauseIso);

/** The owner says it is still available: a live or paused listing becomes available, confirmed now. False if neither. */
export async function confirmListingAvailable(db: Db, id: string, ownerId: string, nowIso: string): Promise<boolean> {
  const res = await db
    .update(listings)
    .set({ status: "available", availabilityConfirmedAt: nowIso, updatedAt: nowIso })
    .where(and(eq(listings.id, id), eq(listings.userId, ownerId), inArray(listings.status, ["available", "paused"])));
  return (res.meta.changes ?? 0) > 0;
}

/** The owner says it is taken (from an emailed link). False when it already was. */
export async function markListingTaken(db: Db, id: string, ownerId: string, nowIso: string): Promise<boolean> {
  const res = await db
    .update(listings)
    .set({ status: "taken", updatedAt: nowIso })
    // Only what the email asked about: an available or paused listing (an owner-hidden one stays as the owner left it).
    .where(and(eq(listings.id, id), eq(listings.userId, ownerId), inArray(listings.status, ["available", "paused"])));
  return (res.meta.changes ?? 0) > 0;
}

/** Development only (routes/dev): the listing as if last confirmed at `at` and not asked since. False if there is no such listing. */
export async function setAvailabilityConfirmedAt(db: Db, id: string, at: string): Promise<boolean> {
  const res = await db.update(listings).set({ availabilityConfirmedAt: at, availabilityAskedAt: null }).where(eq(listings.id, id));
  return (res.meta.changes ?? 0) > 0;
}

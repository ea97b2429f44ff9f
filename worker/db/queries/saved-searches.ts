/**
 * Saved searches (docs/decisions/020) and their hits: a student's own searches (CRUD), the candidate searches
 * of newly approved listings, matching through browse's own filters (browseFilterSql), and the
 * searches whose alert email is due.
 */
import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { BrowseQuery } from "../../contract/listings";
import type { SavedSearch } from "../../contract/saved-searches";
import type { Db } from "../client";
import { savedSearches } from "../schema";
import { browseFilterSql } from "../browse/filters";
import { PUBLIC_LISTING_SQL } from "./listing-sql";

type SavedSearchRow = typeof savedSearches.$inferSelect;

export const toSavedSearch = (r: SavedSearchRow): SavedSearch => ({
  id: r.id,
  name: r.name,
  query: r.query,
  alert_frequency: r.alertFrequency === "daily" ? "daily" : "instant",
  paused: r.pausedAt !== null,
  paused_at: r.pausedAt,
  last_alert_at: r.lastAlertAt,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** A student's searches, newest first (the (user_id, created_at) index). */
export const savedSearchesOf = (db: Db, userId: string) =>
  db.select().from(savedSearches).where(eq(savedSearches.userId, userId)).orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));

export async function countSavedSearches(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(savedSearches).where(eq(savedSearches.userId, userId));
  return row?.n ?? 0;
}

/** One of the student's own searches; someone else's is as missing as a deleted one. */
export const findOwnSavedSearch = (db: Db, userId: string, id: string) =>
  db.select().from(savedSearches).where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId))).get();

export const findSavedSearch = (db: Db, id: string) => db.select().from(savedSearches).where(eq(savedSearches.id, id)).get();

export const insertSavedSearch = (db: Db, values: typeof savedSearches.$inferInsert) => db.insert(savedSearches).values(values).returning().get();

export const updateOwnSavedSearch = (db: Db, userId: string, id: string, set: Partial<typeof savedSearches.$inferInsert>) =>
  db.update(savedSearches).set(set).where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId))).returning().get();

export const deleteOwnSavedSearch = (db: Db, userId: string, id: string) =>
  db.delete(savedSearches).where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId))).returning({ id: savedSearches.id });

/** The unsubscribe link's Stop alerts: pauses by the link, unless already paused (that pause, and who made it, stay). */
export const pauseSavedSearchByLink = (db: Db, id: string, now: string) =>
  db
    .update(savedSearches)
    .set({
      pausedAt: sql`coalesce(${savedSearches.pausedAt}, ${now})`,
      pausedBy: sql`case when ${savedSearches.pausedAt} is null then 'link' else ${savedSearches.pausedBy} end`,
      updatedAt: now,
    })
    .where(eq(savedSearches.id, id))
    .returning()
    .get();

/** The unsubscribe link's Undo: resumes only a pause made by the link since `since`; undefined otherwise. */
export const resumeLinkPause = (db: Db, id: string, since: string, now: string) =>
  db
    .update(savedSearches)
    .set({ pausedAt: null, pausedBy: null, updatedAt: now })
    .where(and(eq(savedSearches.id, id), eq(savedSearches.pausedBy, "link"), gte(savedSearches.pausedAt, since)))
    .returning()
    .get();

export interface CandidateSearch {
  id: string;
  user_id: string;
  query: string;
}

/**
 * The searches newly approved listings could match, in one query: their universities' and those for
 * any university (NULL), not paused, of students who want these emails and are not suspended. (A
 * search never matches its owner's own listings: matchingListings leaves them out.)
 */
export async function candidateSearches(db: Db, listingIds: string[]): Promise<CandidateSearch[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT s.id, s.user_id, s.query FROM saved_searches s
       JOIN users u ON u.id = s.user_id AND u.email_on_saved_search = 1 AND u.suspended_at IS NULL
       WHERE s.paused_at IS NULL
         AND (s.university_id IS NULL OR s.university_id IN (SELECT l.university_id FROM listings l WHERE l.id IN (SELECT value FROM json_each(?))))`,
    )
    .bind(JSON.stringify(listingIds))
    .all<CandidateSearch>();
  return results;
}

/** D1 runs at most this many statements in one batch comfortably; larger sets go in several. */
const BATCH = 50;

/**
 * Which of these listings each search (its filters already parsed) matches: ONE statement per search
 * covering all the listings, `SELECT l.id FROM json_each(?) j CROSS JOIN listings l ON l.id = j.value
 * WHERE l.user_id != ? AND <browse's filters>`, batched; so an approval of many listings costs one statement per search.
 * Browse's own filters (browseFilterSql, public visibility included) are the only definition of a
 * match; a search never matches its owner's own listings. Searches matching nothing are left out.
 */
export async function matchingListings(
  db: Db,
  listingIds: string[],
  searches: { id: string; userId: string; filters: Omit<BrowseQuery, "limit" | "last_evaluated_key"> }[],
): Promise<Map<string, string[]>> {
  const ids = JSON.stringify(listingIds);
  const statements: { id: string; stmt: D1PreparedStatement }[] = [];
  for (const s of searches) {
    const { where, binds, none } = browseFilterSql(s.filters);
    if (none) continue;
    statements.push({
      id: s.id,
      stmt: db.$client
        // CROSS JOIN keeps json_each outside: each id is a primary-key lookup. (Written as `l.id IN
        // (SELECT value FROM json_each(?))`, SQLite walked a browse index over every public listing
        // of the university instead.)
        .prepare(`SELECT l.id FROM json_each(?) j CROSS JOIN listings l ON l.id = j.value WHERE l.user_id != ? AND ${where.join(" AND ")}`)
        .bind(ids, s.userId, ...binds),
    });
  }
  const matched = new Map<string, string[]>();
  for (let i = 0; i < statements.length; i += BATCH) {
    const chunk = statements.slice(i, i + BATCH);
    const results = await db.$client.batch<{ id: string }>(chunk.map((c) => c.stmt));
    results.forEach((r, j) => {
      if (r.results.length) matched.set(chunk[j]!.id, r.results.map((row) => row.id));
    });
  }
  return matched;
}

/** Records hits (one statement per search); a pair already recorded (a re-approval) stays as it was, emailed or not. */
export async function recordHits(db: Db, hits: Map<string, string[]>, now: string): Promise<void> {
  const statements = [...hits].map(([searchId, listingIds]) =>
    db.$client
      .prepare("INSERT OR IGNORE INTO saved_search_hits (search_id, listing_id, created_at) SELECT ?, value, ? FROM json_each(?)")
      .bind(searchId, now, JSON.stringify(listingIds)),
  );
  for (let i = 0; i < statements.length; i += BATCH) await db.$client.batch(statements.slice(i, i + BATCH));
}

export interface DueSearch {
  id: string;
  user_id: string;
  name: string;
  query: string;
  last_alert_at: string | null;
  email: string;
  first_name: string;
  email_on_saved_search: number;
  suspended_at: string | null;
}

/**
 * Searches whose alert email is due at `now`: not paused, with hits waiting, no alert in the last day
 * (`alertedBefore`); a daily search also waits until its oldest waiting hit is a day old (`digestBefore`).
 * `only` narrows to some searches (right after an approval), passed as one JSON parameter.
 */
export async function dueSearches(db: Db, alertedBefore: string, digestBefore: string, limit: number, only?: string[]): Promise<DueSearch[]> {
  const binds: (string | number)[] = [alertedBefore, digestBefore];
  let onlyClause = "";
  if (only) {
    if (!only.length) return [];
    // One parameter however many ids (D1 allows 100 bound values per statement).
    onlyClause = "AND s.id IN (SELECT value FROM json_each(?))";
    binds.push(JSON.stringify(only));
  }
  binds.push(limit);
  const { results } = await db.$client
    .prepare(
      `SELECT s.id, s.user_id, s.name, s.query, s.last_alert_at, u.email, u.first_name, u.email_on_saved_search, u.suspended_at
       FROM (SELECT search_id, MIN(created_at) AS oldest FROM saved_search_hits WHERE emailed_at IS NULL GROUP BY search_id) h
       JOIN saved_searches s ON s.id = h.search_id
       JOIN users u ON u.id = s.user_id
       WHERE s.paused_at IS NULL AND (s.last_alert_at IS NULL OR s.last_alert_at <= ?)
         AND (s.alert_frequency = 'instant' OR h.oldest <= ?) ${onlyClause}
       ORDER BY h.oldest LIMIT ?`,
    )
    .bind(...binds)
    .all<DueSearch>();
  return results;
}

export interface WaitingHit {
  listing_id: string;
  title: string;
  monthly_rent: number;
  /** The alert shows only the public form (listingPublicAddress); the address is read for rows not yet backfilled. */
  address: string;
  address_public: string | null;
  created_at: string;
}

/** A search's waiting hits whose listing is still public, newest first. */
export async function waitingHits(db: Db, searchId: string): Promise<WaitingHit[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT h.listing_id, l.title, l.monthly_rent, l.address, l.address_public, h.created_at FROM saved_search_hits h JOIN listings l ON l.id = h.listing_id
       WHERE h.search_id = ? AND h.emailed_at IS NULL AND ${PUBLIC_LISTING_SQL}
       ORDER BY h.created_at DESC, h.listing_id`,
    )
    .bind(searchId)
    .all<WaitingHit>();
  return results;
}

/** Forgets a search's waiting hits whose listing is no longer public (nothing to announce). */
export const dropHiddenHits = (db: Db, searchId: string) =>
  db.$client
    .prepare(
      `DELETE FROM saved_search_hits WHERE search_id = ? AND emailed_at IS NULL
       AND listing_id NOT IN (SELECT l.id FROM listings l WHERE ${PUBLIC_LISTING_SQL})`,
    )
    .bind(searchId)
    .run();

/** Marks a search's waiting hits recorded up to `upTo` as handled (sent, or not wanted: notifications off). */
export const markHitsEmailed = (db: Db, searchId: string, upTo: string, now: string) =>
  db.$client.prepare("UPDATE saved_search_hits SET emailed_at = ? WHERE search_id = ? AND emailed_at IS NULL AND created_at <= ?").bind(now, searchId, upTo).run();

/** Claims a search's alert for `now`: false when another run sent one within the day (or it was paused). */
export async function claimAlert(db: Db, searchId: string, now: string, alertedBefore: string): Promise<boolean> {
  const res = await db.$client
    .prepare("UPDATE saved_searches SET last_alert_at = ? WHERE id = ? AND paused_at IS NULL AND (last_alert_at IS NULL OR last_alert_at <= ?)")
    .bind(now, searchId, alertedBefore)
    .run();
  return (res.meta.changes ?? 0) > 0;
}

/**
 * After the email could not be sent: moves the claim back so the allowance permits again at `retryAt`
 * (an hour on), not at once, so a search whose sends keep failing does not come first in every run.
 */
export const retryAlertLater = (db: Db, searchId: string, claimedAt: string, lastAlertAt: string) =>
  db.$client.prepare("UPDATE saved_searches SET last_alert_at = ? WHERE id = ? AND last_alert_at = ?").bind(lastAlertAt, searchId, claimedAt).run();

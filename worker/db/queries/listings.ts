/**
 * Listing reads. The browse query is hand-written SQL on D1 (it needs `meta.rows_read` and
 * FTS5, which the query builder does not express); every other write goes through drizzle.
 *
 * Browse order: listings promoted right now come first (a small set, read through the
 * promotion_end index), then the rest in keyset order on (sort value, id), which the browse
 * indexes serve, so a page reads about as many rows as it returns. The cursor carries the phase,
 * the last sort value and id, and the instant the walk started, so pages stay consistent while
 * listings are added or promotions end.
 */
import { and, eq, inArray, isNotNull, lt, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { BrowseQuery, OwnerListing, PublicListing, Sort } from "../../contract/listings";
import { PUBLIC_LISTING } from "../../contract/policies";
import { PUBLIC_LISTING_SQL } from "./public-listing";
import { encodeCursor } from "../../lib/cursor";
import { newId } from "../../lib/ids";
import type { Db } from "../client";
import { listingPhotos, listings } from "../schema";
import { distanceBands, LONG_STAY_SQL, stayCells } from "../browse-cells";
import { imageUrl } from "./users";
import { pendingPromotionStarts } from "./promotions";

const DAY_MS = 86_400_000;

const LISTING_COLUMNS = `
  l.id, l.user_id, l.title, l.description, l.unit_type, l.address, l.monthly_rent, l.lease_term,
  l.available_from, l.available_to, l.latitude, l.longitude, l.distance_miles, l.distance_key,
  l.university_id, un.name AS university_name, un.abbreviation AS university_abbreviation,
  l.parking, l.allow_pets, l.gender_preference, l.created_at, l.updated_at, l.verification_status,
  l.rejection_reason, l.status, l.moderation_status, l.promotion_start, l.promotion_end, l.auto_renew, l.stripe_subscription_id,
  l.availability_confirmed_at, l.revision, l.approved_rent,
  u.first_name AS user_first_name, u.last_name AS user_last_name, u.avatar_key AS user_avatar_key`;
const LISTING_FROM = `listings l JOIN universities un ON un.id = l.university_id JOIN users u ON u.id = l.user_id`;

/** The SQL twin of isPublicListing (its own module: see public-listing.ts). */
export { PUBLIC_LISTING_SQL };

/** The listing's own columns (browse reads these, then the names in one lookup per page). */
const LISTING_ROW_COLUMNS = `
  l.id, l.user_id, l.title, l.description, l.unit_type, l.address, l.monthly_rent, l.lease_term,
  l.available_from, l.available_to, l.latitude, l.longitude, l.distance_miles, l.distance_key,
  l.university_id, l.parking, l.allow_pets, l.gender_preference, l.created_at, l.updated_at,
  l.verification_status, l.rejection_reason, l.status, l.moderation_status, l.promotion_start, l.promotion_end, l.auto_renew,
  l.stripe_subscription_id, l.availability_confirmed_at`;

export interface ListingRow {
  id: string;
  user_id: string;
  title: string;
  description: string;
  unit_type: string;
  address: string;
  monthly_rent: number;
  lease_term: string;
  available_from: string | null;
  available_to: string | null;
  /** Where the place is (owner's and staff's eyes only) and its distance to campus (issue 15). */
  latitude: number | null;
  longitude: number | null;
  distance_miles: number | null;
  /** The distance sort's key: distance_miles, or 100000 when unknown (a generated column). */
  distance_key: number;
  university_id: number;
  university_name: string;
  university_abbreviation: string;
  parking: number;
  allow_pets: number;
  gender_preference: string;
  created_at: string;
  updated_at: string | null;
  verification_status: OwnerListing["verification_status"];
  rejection_reason: string | null;
  status: OwnerListing["status"];
  moderation_status: OwnerListing["moderation_status"];
  promotion_start: string | null;
  promotion_end: string | null;
  auto_renew: number;
  stripe_subscription_id: string | null;
  availability_confirmed_at: string | null;
  /** The version staff review and the rent they last approved (single-listing and staff reads; browse rows lack them). */
  revision?: number;
  approved_rent?: number | null;
  user_first_name: string;
  user_last_name: string;
  user_avatar_key: string | null;
}

type ListingOnlyRow = Omit<ListingRow, "university_name" | "university_abbreviation" | "user_first_name" | "user_last_name" | "user_avatar_key">;

interface PhotoRow {
  listing_id: string;
  key: string;
  thumb_key: string | null;
}

export function isPromoted(row: Pick<ListingRow, "promotion_start" | "promotion_end">, now = Date.now()): boolean {
  return !!row.promotion_end && Date.parse(row.promotion_end) > now && (!row.promotion_start || Date.parse(row.promotion_start) <= now);
}

/**
 * A listing as anyone may see it, built field by field from the row: a column reaches the public
 * only when it is named here (review notes and the payment id never are).
 */
export function toPublicListing(row: ListingRow, photos: PhotoRow[], now = Date.now()): PublicListing {
  const promoted = isPromoted(row, now);
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    description: row.description,
    unit_type: row.unit_type,
    address: row.address,
    monthly_rent: row.monthly_rent,
    pictures: photos.map((p) => imageUrl(p.key)!),
    thumbnails: photos.map((p) => imageUrl(p.thumb_key ?? p.key)!),
    lease_term: row.lease_term,
    available_from: row.available_from ?? null,
    available_to: row.available_to ?? null,
    university_id: row.university_id,
    university_name: row.university_name,
    university_abbreviation: row.university_abbreviation,
    // The distance only: the place's coordinates are not public (the owner's view adds them).
    distance_miles: row.distance_miles ?? null,
    parking: !!row.parking,
    allow_pets: !!row.allow_pets,
    gender_preference: row.gender_preference,
    created_at: row.created_at,
    updated_at: row.updated_at,
    verification_status: row.verification_status,
    status: row.status,
    moderation_status: row.moderation_status,
    promoted,
    availability_confirmed_at: row.availability_confirmed_at ?? null,
    promotion_start: row.promotion_start,
    promotion_end: row.promotion_end,
    days_remaining: promoted ? Math.max(0, Math.ceil((Date.parse(row.promotion_end!) - now) / DAY_MS)) : 0,
    auto_renew: !!row.auto_renew,
    user_first_name: row.user_first_name,
    user_last_name: row.user_last_name,
    user_avatar_url: imageUrl(row.user_avatar_key),
  };
}

/** The owner's and staff's view: the public listing plus why it was rejected and its subscription. */
export function toOwnerListing(row: ListingRow, photos: PhotoRow[], now = Date.now()): OwnerListing {
  return {
    ...toPublicListing(row, photos, now),
    latitude: row.latitude ?? null,
    longitude: row.longitude ?? null,
    rejection_reason: row.rejection_reason,
    stripe_subscription_id: row.stripe_subscription_id,
  };
}

/** Photos of many listings in one query, grouped by listing. */
export async function photosFor(db: D1Database, ids: string[]): Promise<Map<string, PhotoRow[]>> {
  const map = new Map<string, PhotoRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return map;
  // json_each keeps this one statement with one bound parameter whatever the page size.
  const { results } = await db
    .prepare(
      `SELECT listing_id, key, thumb_key FROM listing_photos
       WHERE listing_id IN (SELECT value FROM json_each(?)) ORDER BY listing_id, position`,
    )
    .bind(JSON.stringify(ids))
    .all<PhotoRow>();
  for (const p of results) map.get(p.listing_id)?.push(p);
  return map;
}

export async function rowsToListings(db: D1Database, rows: ListingRow[], now = Date.now()): Promise<OwnerListing[]> {
  const photos = await photosFor(db, rows.map((r) => r.id));
  return rows.map((r) => toOwnerListing(r, photos.get(r.id) ?? [], now));
}

/** The same for anyone's eyes (a listing page seen by someone who is not its owner). */
export async function rowsToPublicListings(db: D1Database, rows: ListingRow[], now = Date.now()): Promise<PublicListing[]> {
  const photos = await photosFor(db, rows.map((r) => r.id));
  return rows.map((r) => toPublicListing(r, photos.get(r.id) ?? [], now));
}

/** Public listings whose id is in [from, to), in id order (the sitemap's pages): one range read of the primary key. */
export async function publicListingsInIdRange(db: D1Database, from: string, to: string): Promise<{ id: string; lastmod: string }[]> {
  const { results } = await db
    .prepare(`SELECT l.id, COALESCE(l.updated_at, l.created_at) AS lastmod FROM listings l WHERE l.id >= ?1 AND l.id < ?2 AND ${PUBLIC_LISTING_SQL} ORDER BY l.id`)
    .bind(from, to)
    .all<{ id: string; lastmod: string }>();
  return results;
}

export async function findListingRow(db: D1Database, id: string): Promise<ListingRow | null> {
  return db.prepare(`SELECT ${LISTING_COLUMNS} FROM ${LISTING_FROM} WHERE l.id = ?`).bind(id).first<ListingRow>();
}

/** The listing with its photos as its owner (and staff) read it, or null. */
export async function findOwnerListing(db: D1Database, id: string): Promise<OwnerListing | null> {
  const row = await findListingRow(db, id);
  return row ? ((await rowsToListings(db, [row]))[0] ?? null) : null;
}

async function listingRowsWhere(db: D1Database, where: string, order: string, binds: unknown[], limit: number): Promise<ListingRow[]> {
  const { results } = await db
    .prepare(`SELECT ${LISTING_COLUMNS} FROM ${LISTING_FROM} WHERE ${where} ORDER BY ${order} LIMIT ${limit}`)
    .bind(...binds)
    .all<ListingRow>();
  return results;
}

async function listingsWhere(db: D1Database, where: string, order: string, binds: unknown[] = [], limit = 500): Promise<OwnerListing[]> {
  return rowsToListings(db, await listingRowsWhere(db, where, order, binds, limit));
}

/** A listing as staff review it: the owner's view, its revision (the version a review names) and the rent staff last approved. */
export interface StaffListing {
  listing: OwnerListing;
  revision: number;
  approvedRent: number | null;
}

async function toStaffListings(db: D1Database, rows: ListingRow[]): Promise<StaffListing[]> {
  const photos = await photosFor(db, rows.map((r) => r.id));
  const now = Date.now();
  return rows.map((r) => ({ listing: toOwnerListing(r, photos.get(r.id) ?? [], now), revision: r.revision ?? 0, approvedRent: r.approved_rent ?? null }));
}

const staffListingsWhere = async (db: D1Database, where: string, order: string) => toStaffListings(db, await listingRowsWhere(db, where, order, [], 500));

/** One listing as staff review it, or null. */
export async function findStaffListing(db: D1Database, id: string): Promise<StaffListing | null> {
  const row = await findListingRow(db, id);
  return row ? ((await toStaffListings(db, [row]))[0] ?? null) : null;
}

/** A user's own listings, newest first; without includeUnavailable only the available ones. */
export const listingsOfUser = (db: D1Database, userId: string, includeUnavailable: boolean) =>
  listingsWhere(db, `l.user_id = ?${includeUnavailable ? "" : " AND l.status = 'available'"}`, "l.created_at DESC, l.id DESC", [userId], 200);

/** A user's listings that are or were promoted (or hold a promotion waiting for approval), latest end first. */
export const promotedListingsOfUser = (db: D1Database, userId: string) =>
  listingsWhere(db, "l.user_id = ? AND (l.promotion_end IS NOT NULL OR l.promotion_pending_days IS NOT NULL)", "l.promotion_end DESC", [userId], 200);

/* Staff lists: at most 500 each. */
export const allListings = (db: D1Database) => staffListingsWhere(db, "1 = 1", "l.created_at DESC");
export const pendingListings = (db: D1Database) => staffListingsWhere(db, "l.verification_status = 'pending'", "l.created_at ASC");
export const promotedListings = (db: D1Database) => staffListingsWhere(db, "l.promotion_end IS NOT NULL", "l.promotion_end ASC");

/* ---------- browse ---------- */

/** The browse cursor: validated when it comes back (lib/cursor.ts). */
export const browseCursorSchema = z.object({
  /** p: inside the promoted set; n: the rest. */
  phase: z.enum(["p", "n"]),
  /** Sort value of the last row (created_at, monthly_rent, or distance_key: miles to 0.1, 100000 when unknown). */
  v: z.union([z.iso.datetime(), z.number().min(0).max(1_000_000)]),
  id: z.string().min(1).max(64),
  /** The instant the walk started (ms): "promoted" means promoted at that instant. */
  t: z.number().int().min(Date.UTC(2020, 0, 1)).max(Date.UTC(2100, 0, 1)),
});
export type BrowseCursor = z.infer<typeof browseCursorSchema>;

const ORDER: Record<Sort, { column: string; dir: "ASC" | "DESC" }> = {
  newest: { column: "l.created_at", dir: "DESC" },
  price_asc: { column: "l.monthly_rent", dir: "ASC" },
  price_desc: { column: "l.monthly_rent", dir: "DESC" },
  // Closest to campus first; unknown distances (key 100000) after every known one (issue 15).
  distance: { column: "l.distance_key", dir: "ASC" },
};

/** The cursor's sort value of a row, for each sort. */
const sortValue = (sort: Sort, row: ListingOnlyRow): string | number =>
  sort === "newest" ? row.created_at : sort === "distance" ? row.distance_key : row.monthly_rent;

/** FTS5 query from free text: each word a prefix term, all required; quotes escaped. */
export function ftsQuery(q: string): string | null {
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(" ") : null;
}

export interface BrowseResult {
  listings: PublicListing[];
  nextToken: string | null;
  rowsRead: number;
}

/**
 * The browse filters as SQL over `listings l` (the public rule included): the one home of what a
 * filter means, used by browse and by saved searches' matching (issue 15). `none`: the filters can
 * match nothing (free text without a word).
 */
export function browseFilterSql(
  query: Omit<BrowseQuery, "limit" | "last_evaluated_key">,
  { afterCursor = false }: { afterCursor?: boolean } = {},
): { where: string[]; binds: (string | number)[]; none: boolean } {
  const where: string[] = [PUBLIC_LISTING_SQL];
  const binds: (string | number)[] = [];
  const add = (clause: string, ...values: (string | number)[]) => {
    where.push(clause);
    binds.push(...values);
  };
  if (query.university_id) add("l.university_id = ?", query.university_id);
  if (query.lease_term) add("l.lease_term = ?", query.lease_term);
  if (query.unit_type) add("l.unit_type = ?", query.unit_type);
  if (query.parking !== undefined) add("l.parking = ?", query.parking ? 1 : 0);
  if (query.allow_pets !== undefined) add("l.allow_pets = ?", query.allow_pets ? 1 : 0);
  if (query.gender_preference) add("l.gender_preference = ?", query.gender_preference);
  // The stay needed (issue 15): listings available for all of it; a listing without dates never
  // matches (NULL compares false). Browse reads them through the stay cells (stayCellsSql), where
  // these two clauses still decide at the edge months.
  if (query.available_from && query.available_to) {
    add("l.available_from <= ?", query.available_from);
    add("l.available_to >= ?", query.available_to);
  }
  // Unless sorted by price, a rent range is checked row by row along the sort's index (unary +: not
  // an index term). Left indexable, SQLite walked the rent index and sorted every match: 100,160 rows
  // read for one page of 40 at 50,000 listings (issue 14's bench). Sorted by price, past the first
  // page the bound on the cursor's side is a row check too: the cursor lies inside it, and SQLite
  // seeked to the bound instead, reading every earlier page again (361 rows for page 2 of 40).
  const byPrice = query.sort === "price_asc" || query.sort === "price_desc";
  const rent = (seekable: boolean) => (byPrice && seekable ? "l.monthly_rent" : "+l.monthly_rent");
  if (query.min_rent !== undefined) add(`${rent(!(afterCursor && query.sort === "price_asc"))} >= ?`, query.min_rent);
  if (query.max_rent !== undefined) add(`${rent(!(afterCursor && query.sort === "price_desc"))} <= ?`, query.max_rent);
  // Distance to campus (issue 15): at most N miles; an unknown distance (key 100000) never matches,
  // and a listing exactly N miles away does (distances are stored to 0.1 mile). Sorted by distance it
  // bounds the walk of the distance index; in another order browse reads the distance bands up to N
  // (cellPlan), where it is a row check (unary +: for the same reason as the rent range).
  if (query.within_miles !== undefined) add(`${query.sort === "distance" ? "l.distance_key" : "+l.distance_key"} <= ?`, query.within_miles);
  const fts = query.q ? ftsQuery(query.q) : null;
  if (fts) add("l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?)", fts);
  return { where, binds, none: !!query.q && !fts };
}

export async function browseListings(db: D1Database, query: BrowseQuery, cursor: BrowseCursor | null): Promise<BrowseResult> {
  const now = cursor?.t ?? Date.now();
  const nowIso = new Date(now).toISOString();
  if (browseFilterSql(query).none) return { listings: [], nextToken: null, rowsRead: 0 };

  const { column, dir } = ORDER[query.sort];
  const cmp = dir === "DESC" ? "<" : ">";
  const promotedClause = "(l.promotion_end > ? AND (l.promotion_start IS NULL OR l.promotion_start <= ?))";
  const notPromotedClause = "NOT (COALESCE(l.promotion_end, '') > ? AND (l.promotion_start IS NULL OR l.promotion_start <= ?))";
  const limit = query.limit;
  const collected: ListingOnlyRow[] = [];
  let rowsRead = 0;
  let phase: "p" | "n" = cursor?.phase ?? "p";

  for (const current of phase === "p" ? (["p", "n"] as const) : (["n"] as const)) {
    phase = current;
    const afterCursor = cursor?.phase === current;
    const { where: clauses, binds: params } = browseFilterSql(query, { afterCursor });
    clauses.push(current === "p" ? promotedClause : notPromotedClause);
    params.push(nowIso, nowIso);
    // A row-value comparison, so SQLite seeks the index to the cursor instead of scanning to it.
    const seek = `(${column}, l.id) ${cmp} (?, ?)`;
    if (cursor && afterCursor) {
      clauses.push(seek);
      params.push(cursor.v, cursor.id);
    }
    const want = limit + 1 - collected.length;
    let sql: string;
    const plan = current === "n" ? cellPlan(query) : null;
    if (plan) {
      // A stay needed or within N miles: the cells that hold the matches, merged in the sort's order.
      const armSeek = afterCursor ? numbered(seek, params.length - 2) : null;
      sql = `${cellsSql(query, plan, numbered(clauses.join(" AND ")), armSeek)} LIMIT ?${params.length + 1}`;
    } else {
      // The promoted set is small: read it through the promotion_end index (the university's, when
      // one is chosen, so a campus's page 1 skips other campuses' promotions), never a full scan.
      const promotedIndex = query.university_id === undefined ? "listings_promotion_end_idx" : "listings_university_promotion_end_idx";
      const from = current === "p" ? `listings l INDEXED BY ${promotedIndex}` : "listings l";
      sql = `SELECT ${LISTING_ROW_COLUMNS} FROM ${from} WHERE ${clauses.join(" AND ")}
                 ORDER BY ${column} ${dir}, l.id ${dir} LIMIT ?`;
    }
    const result = await db.prepare(sql).bind(...params, want).all<ListingOnlyRow>();
    rowsRead += result.meta.rows_read ?? 0;
    for (const row of result.results) collected.push(Object.assign(row, { _phase: current }));
    if (collected.length > limit) break;
  }

  const page = collected.slice(0, limit) as (ListingOnlyRow & { _phase: "p" | "n" })[];
  const last = page.at(-1);
  const nextToken =
    collected.length > limit && last
      ? encodeCursor({ phase: last._phase, v: sortValue(query.sort, last), id: last.id, t: now })
      : null;
  page.forEach((r) => delete (r as Partial<typeof r>)._phase);
  const { rows, rowsRead: lookups } = await withPeople(db, page);
  const photoRows = await photosFor(db, page.map((r) => r.id));
  return { listings: rows.map((r) => toPublicListing(r, photoRows.get(r.id) ?? [], now)), nextToken, rowsRead: rowsRead + lookups };
}

/** `?` placeholders numbered from `after` + 1: the same text can then stand in many places of one statement with one set of binds. */
const numbered = (sql: string, after = 0) => {
  let n = after;
  return sql.replace(/\?/g, () => `?${++n}`);
};

/** D1 allows at most this many terms in a compound SELECT. */
const COMPOUND_TERMS = 5;

/**
 * `arms` (each already in `orderBy`'s order through its index) as one statement in that order:
 * SQLite merges ordered compound terms lazily, so a LIMIT reads only the rows it returns plus one
 * look-ahead per arm. More arms than D1 allows in one compound nest, each level in the same order.
 */
function mergedInOrder(arms: string[], orderBy: string): string {
  if (arms.length <= COMPOUND_TERMS) return `${arms.join(" UNION ALL ")} ORDER BY ${orderBy}`;
  const size = Math.ceil(arms.length / COMPOUND_TERMS);
  const groups: string[] = [];
  for (let i = 0; i < arms.length; i += size) {
    const group = arms.slice(i, i + size);
    groups.push(group.length === 1 ? group[0]! : `SELECT * FROM (${mergedInOrder(group, orderBy)})`);
  }
  return `${groups.join(" UNION ALL ")} ORDER BY ${orderBy}`;
}

/** The index name part of each sort, in the cell indexes (migrations 0014 and 0015). */
const CELL_SORT: Record<Sort, string> = { newest: "newest", price_asc: "price", price_desc: "price", distance: "distance" };

/**
 * Where browse reads through cells (docs/decisions/021): the cell index (the university's when one is
 * chosen), each cell's key columns and values, and arms of their own (listings too long for a cell).
 */
interface CellPlan {
  index: string;
  cells: [column: string, value: number][][];
  extraArms: { index: string; where: string }[];
}

/**
 * The cells to read for this query, or null for the plain walk along the sort's index. A stay needed:
 * the cells that can cover it, plus the long listings. Within N miles, unless sorted by distance (whose
 * index walks the range itself): the distance bands up to N. Not with free text (the full-text index
 * leads) nor in the promoted phase (a small set).
 */
function cellPlan(query: BrowseQuery): CellPlan | null {
  if (query.q) return null;
  const sort = CELL_SORT[query.sort];
  const ofUniversity = query.university_id === undefined ? "" : "university_";
  if (query.available_from && query.available_to) {
    return {
      index: `listings_${ofUniversity}stay_${sort}_idx`,
      cells: stayCells(query.available_from, query.available_to).map(([fromMonth, toMonth]) => [
        ["available_from_month", fromMonth],
        ["available_to_month", toMonth],
      ]),
      extraArms: [{ index: `listings_long_stay_${sort}_idx`, where: LONG_STAY_SQL }],
    };
  }
  if (query.within_miles !== undefined && query.sort !== "distance") {
    return { index: `listings_${ofUniversity}distance_band_${sort}_idx`, cells: distanceBands(query.within_miles).map((band) => [["distance_band", band]]), extraArms: [] };
  }
  return null;
}

/**
 * Browse through cells (docs/decisions/021): one arm per cell, walked through the cell index in the
 * sort's order, plus the plan's own arms, merged in that order. The arms only choose where to read
 * (the cell, the public rule's indexed part, the university, the cursor `seek`); `where`, all the
 * filters with placeholders numbered, decides what matches, over the merged rows (SQLite also copies
 * it into each arm, where its indexable terms bound the walk).
 *
 * A seek that finds no row of its cell still reads the row it lands on when the walk is bounded (a
 * cursor, a rent or distance bound): one per empty cell, up to 91. So each cell's key is first looked
 * up by equality, which reads nothing for an empty cell: the arm's first key is the cell's value, or
 * NULL (no seek at all) when the cell holds no public listing (of the university); one row per cell that does.
 */
function cellsSql(query: BrowseQuery, plan: CellPlan, where: string, seek: string | null): string {
  const { column, dir } = ORDER[query.sort];
  // The university as a literal (a validated integer), so the lookups need no binds of their own.
  const university = query.university_id === undefined ? null : Math.trunc(Number(query.university_id));
  const walk = (alias: string) =>
    `${university === null ? "" : `${alias}.university_id = ${university} AND `}${alias}.verification_status = '${PUBLIC_LISTING.verification_status}' AND ${alias}.status = '${PUBLIC_LISTING.status}'`;
  const bounded = seek ? ` AND ${seek}` : "";
  const arms = plan.cells.map((keys) => {
    const inCell = (alias: string) => keys.map(([key, value]) => `${alias}.${key} = ${value}`).join(" AND ");
    const [[firstKey, firstValue]] = keys as [[string, number]];
    const firstIfAny = `(SELECT ${firstValue} WHERE EXISTS (SELECT 1 FROM listings c INDEXED BY ${plan.index} WHERE ${inCell("c")} AND ${walk("c")}))`;
    const rest = keys.slice(1).map(([key, value]) => ` AND l.${key} = ${value}`).join("");
    return `SELECT l.* FROM listings l INDEXED BY ${plan.index} WHERE l.${firstKey} = ${firstIfAny}${rest} AND ${walk("l")}${bounded}`;
  });
  for (const extra of plan.extraArms) arms.push(`SELECT l.* FROM listings l INDEXED BY ${extra.index} WHERE ${extra.where} AND ${walk("l")}${bounded}`);
  // Compound terms are ordered by their result columns' names.
  const order = `${column.replace("l.", "")} ${dir}, id ${dir}`;
  return `SELECT * FROM (${mergedInOrder(arms, order)}) AS l WHERE ${where} ORDER BY ${order}`;
}

/**
 * Adds university and owner names: owners with one lookup for the distinct ids of the page (a
 * join would read a user row per listing), universities from the per-isolate reference cache.
 */
async function withPeople(db: D1Database, page: ListingOnlyRow[]): Promise<{ rows: ListingRow[]; rowsRead: number }> {
  if (!page.length) return { rows: [], rowsRead: 0 };
  // Literal placeholders (a page has at most 100 distinct ids, D1's bind limit): json_each would
  // add its own rows to rows_read.
  const userIds = [...new Set(page.map((r) => r.user_id))];
  const marks = Array.from({ length: userIds.length }, () => "?").join(",");
  const [universities, people] = await Promise.all([
    universityNames(db),
    db
      .prepare(`SELECT id, first_name AS a, last_name AS b, avatar_key AS c FROM users WHERE id IN (${marks})`)
      .bind(...userIds)
      .all<{ id: string; a: string; b: string; c: string | null }>(),
  ]);
  const userById = new Map(people.results.map((u) => [u.id, u]));
  const rows = page.map((r) => {
    const uni = universities.get(r.university_id);
    const user = userById.get(r.user_id);
    return {
      ...r,
      university_name: uni?.name ?? "",
      university_abbreviation: uni?.abbreviation ?? "",
      user_first_name: user?.a ?? "",
      user_last_name: user?.b ?? "",
      user_avatar_key: user?.c ?? null,
    };
  });
  return { rows, rowsRead: people.meta.rows_read ?? 0 };
}

/**
 * University names by id, read once per isolate and database: reference data that changes only
 * with a migration (docs/decisions/006). Keyed by the binding, so tests with their own D1 get theirs.
 */
const universityCache = new WeakMap<D1Database, Promise<Map<number, { name: string; abbreviation: string }>>>();
function universityNames(db: D1Database) {
  let names = universityCache.get(db);
  if (!names) {
    names = db
      .prepare("SELECT id, name, abbreviation FROM universities")
      .all<{ id: number; name: string; abbreviation: string }>()
      .then(({ results }) => new Map(results.map((u) => [u.id, u])));
    names.catch(() => universityCache.delete(db));
    universityCache.set(db, names);
  }
  return names;
}

/* ---------- writes (drizzle) ---------- */

type ListingValues = typeof listings.$inferInsert;
/** Column values, or SQL over the row's own columns (`nextRevision`). */
type ListingChanges = { [K in keyof Omit<ListingValues, "id" | "userId">]?: ListingValues[K] | SQL };

/** The listing's next revision (issue 22): every edit of what staff review and every review decision sets it. */
export const nextRevision = sql`${listings.revision} + 1`;

/**
 * The review status of an owner's material edit of a listing read as pending at `revision`: unchanged
 * while the listing still is that revision, pending when staff decided in between (the decision moved
 * the revision on), so a material change never lands on an approval of the version before it.
 */
export const pendingIfReviewedSince = (revision: number) =>
  sql`CASE WHEN ${listings.revision} = ${revision} THEN ${listings.verificationStatus} ELSE 'pending' END`;

/** A rent staff set: the approved rent too when the listing is approved (staff's figure is a reviewed one). */
export const approvedRentIfApproved = (rent: number) => sql`CASE WHEN ${listings.verificationStatus} = 'approved' THEN ${rent} ELSE ${listings.approvedRent} END`;
export interface PhotoValues {
  key: string;
  thumbKey: string | null;
  position: number;
}

export const findListing = (db: Db, id: string) => db.select().from(listings).where(eq(listings.id, id)).get();

export const photosOfListing = (db: Db, listingId: string) =>
  db.select().from(listingPhotos).where(eq(listingPhotos.listingId, listingId)).orderBy(listingPhotos.position);

/** The photo keys (full and thumbnail) of every listing of a user. */
export const photoKeysOfUser = (db: Db, userId: string) =>
  db
    .select({ key: listingPhotos.key, thumbKey: listingPhotos.thumbKey })
    .from(listingPhotos)
    .innerJoin(listings, eq(listingPhotos.listingId, listings.id))
    .where(eq(listings.userId, userId));

/** Statements for db.batch: the listing and its photos. */
export const insertListing = (db: Db, values: ListingValues, photos: PhotoValues[]) =>
  [db.insert(listings).values(values), ...insertPhotos(db, values.id, photos)] as const;

const insertPhotos = (db: Db, listingId: string, photos: PhotoValues[]) =>
  photos.map((p) => db.insert(listingPhotos).values({ id: newId(), listingId, ...p }));

/** Statements for db.batch: the photo set replaced by this one. */
export const replacePhotos = (db: Db, listingId: string, photos: PhotoValues[]) =>
  [db.delete(listingPhotos).where(eq(listingPhotos.listingId, listingId)), ...insertPhotos(db, listingId, photos)] as const;

/** Changes one listing (a statement, for db.batch or await). */
export const updateListing = (db: Db, id: string, changes: ListingChanges) => db.update(listings).set(changes).where(eq(listings.id, id));

/**
 * A review decision: changes one listing if it still is `revision` (the version staff saw) and its
 * review status is not already `unless` (a retried review applies once), and moves it to the next
 * revision, so of two decisions made on one version, exactly one applies.
 */
export const updateListingForReview = (db: Db, id: string, revision: number, unless: string, changes: ListingChanges) =>
  db
    .update(listings)
    .set({ ...changes, revision: nextRevision })
    .where(and(eq(listings.id, id), eq(listings.revision, revision), ne(listings.verificationStatus, unless)));

export const deleteListingRow = (db: Db, id: string) => db.delete(listings).where(eq(listings.id, id));

export const listingsAwaitingReview = (db: Db) =>
  db.select({ id: listings.id, userId: listings.userId, title: listings.title }).from(listings).where(eq(listings.verificationStatus, "pending"));

/**
 * Approves every pending listing (one statement, for db.batch); each one's promotion bought while
 * pending starts now, and the promotion version moves on (decision 013).
 */
export const approveAllPending = (db: Db, now: string) =>
  db
    .update(listings)
    .set({ verificationStatus: "approved", rejectionReason: null, approvedRent: sql`${listings.monthlyRent}`, revision: nextRevision, ...pendingPromotionStarts(now), updatedAt: now })
    .where(eq(listings.verificationStatus, "pending"));

/** Of these photo keys, the ones some listing still uses (as photo or thumbnail). */
export async function photoKeysInUse(db: D1Database, keys: string[]): Promise<Set<string>> {
  const { results } = await db
    .prepare(
      `SELECT key FROM listing_photos WHERE key IN (SELECT value FROM json_each(?1))
       UNION SELECT thumb_key FROM listing_photos WHERE thumb_key IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(keys))
    .all<{ key: string }>();
  return new Set(results.map((r) => r.key));
}

const lapsedPromotion = (nowIso: string) => and(isNotNull(listings.promotionEnd), lt(listings.promotionEnd, nowIso));

/** Changes every listing whose staff-given promotion window has passed. */
export const updateLapsedStaffPromotions = (db: Db, nowIso: string, changes: ListingChanges) =>
  db.update(listings).set(changes).where(and(eq(listings.promotionSource, "admin"), lapsedPromotion(nowIso)));

/** Changes every listing whose promotion window has passed and that will not renew. */
export const updateLapsedPromotionsNotRenewing = (db: Db, nowIso: string, changes: ListingChanges) =>
  db.update(listings).set(changes).where(and(lapsedPromotion(nowIso), eq(listings.autoRenew, false)));

/* ---------- fresh listings (issue 13) ---------- */

/** Only the freshness check sees these: approved, visible, available listings are the ones it asks about. */
const ASKABLE = `verification_status = 'approved' AND moderation_status = 'visible'`;

/**
 * Claims up to `limit` listings whose owner should be asked "still available?" (confirmed at or before
 * `dueIso` and not asked since then, or asked at or before `dueIso`) by stamping availability_asked_at
 * in the same guarded UPDATE: a second run, or a concurrent one, finds nothing left to claim.
 */
export async function claimAvailabilityAsks(d1: D1Database, nowIso: string, dueIso: string, limit: number) {
  const { results } = await d1
    .prepare(
      `UPDATE listings SET availability_asked_at = ?1
        WHERE id IN (
          SELECT id FROM listings INDEXED BY listings_availability_idx
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
export const pauseUnconfirmedListings = (d1: D1Database, nowIso: string, pauseIso: string) =>
  d1
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

/* ---------- price check (issue 13) ---------- */

const COMPARABLES = `FROM listings INDEXED BY listings_rent_comparables_idx
  WHERE university_id = ?1 AND unit_type = ?2 AND verification_status = 'approved'
    AND rowid <> COALESCE((SELECT rowid FROM listings WHERE id = ?3), -1)`;

/**
 * The median monthly rent of approved listings of this university and unit type, this listing left
 * out, and how many there are: a count, then the middle row(s) by OFFSET, both on the comparables index.
 */
export async function rentComparables(d1: D1Database, listingId: string, universityId: number, unitType: string): Promise<{ count: number; median: number | null }> {
  const counted = await d1.prepare(`SELECT count(*) AS n ${COMPARABLES}`).bind(universityId, unitType, listingId).first<{ n: number }>();
  const count = counted?.n ?? 0;
  if (!count) return { count, median: null };
  const { results } = await d1
    .prepare(`SELECT monthly_rent ${COMPARABLES} ORDER BY monthly_rent LIMIT ?4 OFFSET ?5`)
    .bind(universityId, unitType, listingId, count % 2 ? 1 : 2, Math.floor((count - 1) / 2))
    .all<{ monthly_rent: number }>();
  const middle = results.map((r) => r.monthly_rent);
  return { count, median: middle.length ? middle.reduce((a, b) => a + b, 0) / middle.length : null };
}

/**
 * The approved rents of several (university, unit type) groups, each sorted (staff lists: one read per
 * group, not per listing), at most `cap` per group.
 */
export async function approvedRentsByGroup(d1: D1Database, groups: { universityId: number; unitType: string }[], cap = 2000): Promise<Map<string, number[]>> {
  const map = new Map<string, number[]>();
  if (!groups.length) return map;
  const statements = groups.map((g) =>
    d1
      .prepare(
        `SELECT monthly_rent FROM listings INDEXED BY listings_rent_comparables_idx
          WHERE university_id = ?1 AND unit_type = ?2 AND verification_status = 'approved' ORDER BY monthly_rent LIMIT ?3`,
      )
      .bind(g.universityId, g.unitType, cap),
  );
  const results = await d1.batch<{ monthly_rent: number }>(statements);
  groups.forEach((g, i) => map.set(rentGroupKey(g.universityId, g.unitType), (results[i]?.results ?? []).map((r) => r.monthly_rent)));
  return map;
}

export const rentGroupKey = (universityId: number, unitType: string) => `${universityId}:${unitType}`;

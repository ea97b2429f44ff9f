/**
 * Listing rows: their type and the mappers to the public, owner's and staff's views, the owner's and
 * staff's lists, and writes (drizzle). Browse lives in worker/db/browse, the freshness check in
 * freshness.ts, the price check in price-check.ts; the columns a row carries in listing-sql.ts.
 */
import type { LISTING_REVIEW_STATUSES } from "../../contract/constants";
import { and, eq, isNotNull, isNull, lt, ne, sql, type SQL } from "drizzle-orm";
import type { OwnerListing, PublicListing } from "../../contract/listings";
import { publicAddress } from "../../contract/address";
import { isPromotedNow } from "../../contract/owner-rules";
import { newId } from "../../lib/ids";
import type { Db } from "../client";
import { listingPhotos, listings } from "../schema";
import { LISTING_COLUMNS, LISTING_FROM, PUBLIC_LISTING_SQL, type ListingField } from "./listing-sql";
import { imageUrl } from "../../lib/image-url";
import { approximatePoint } from "../../lib/approximate-point";
import { pendingPromotionStarts } from "./promotions";
import type { StaffSearch } from "../../contract/admin";
import { BROWSE_INDEX, LISTING_INDEX } from "../browse/indexes";
import { ftsQuery } from "../browse/filters";
import { inValues } from "../bounded";

const DAY_MS = 86_400_000;

export interface ListingRow {
  id: string;
  user_id: string;
  title: string;
  description: string;
  unit_type: string;
  /** As entered: only the owner, staff and an accepted deal's renter read it (decision 024). */
  address: string;
  /** The public form (publicAddress); null on a row the backfill has not reached yet. */
  address_public: string | null;
  monthly_rent: number;
  lease_term: string;
  available_from: string | null;
  available_to: string | null;
  /** Where the place is (owner's and staff's eyes only) and its distance to campus (docs/decisions/019). */
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
  /** Why the listing is back in review without a person deciding (the photo check, decision 028); owner and staff only. */
  review_reason: string | null;
  /** The version staff review and the rent they last approved (single-listing and staff reads; browse rows lack them). */
  revision?: number;
  approved_rent?: number | null;
  user_first_name: string;
  user_last_name: string;
  user_avatar_key: string | null;
}

/** A row of the listing's own columns (LISTING_FIELDS): what browse reads before adding the names. */
export type ListingOnlyRow = Omit<ListingRow, "university_name" | "university_abbreviation" | "user_first_name" | "user_last_name" | "user_avatar_key" | "revision" | "approved_rent">;

/** ListingOnlyRow names exactly the columns of LISTING_FIELDS: a column added to one and not the other fails the build. */
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : { missing: Exclude<A, B>; extra: Exclude<B, A> };
const rowMatchesFields: SameKeys<keyof ListingOnlyRow, ListingField> = true;
void rowMatchesFields;

interface PhotoRow {
  listing_id: string;
  key: string;
  thumb_key: string | null;
}


/** A listing's address as the public reads it: the stored public form, else computed from the address. */
export const listingPublicAddress = (row: Pick<ListingRow, "address" | "address_public">): string => row.address_public ?? publicAddress(row.address);

/**
 * A listing as anyone may see it, built field by field from the row: a column reaches the public
 * only when it is named here (review notes and the payment id never are).
 */
export function toPublicListing(row: ListingRow, photos: PhotoRow[], now = Date.now()): PublicListing {
  const promoted = isPromotedNow(row.promotion_start, row.promotion_end, now);
  return {
    id: row.id,
    user_id: row.user_id,
    title: row.title,
    description: row.description,
    unit_type: row.unit_type,
    // Street and area only (decision 024): the public form stored on save, or made now for a row the
    // backfill has not reached; never the address as entered.
    address: listingPublicAddress(row),
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
    // A point within ~200 m for the map (docs/decisions/024), never the exact one.
    approx_point: approximatePoint(row.id, row.latitude, row.longitude),
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

/** The owner's and staff's view: the public listing plus the address as entered, why it was rejected and its subscription. */
export function toOwnerListing(row: ListingRow, photos: PhotoRow[], now = Date.now()): OwnerListing {
  return {
    ...toPublicListing(row, photos, now),
    address: row.address,
    address_public: listingPublicAddress(row),
    latitude: row.latitude ?? null,
    longitude: row.longitude ?? null,
    rejection_reason: row.rejection_reason,
    review_reason: row.review_reason ?? null,
    stripe_subscription_id: row.stripe_subscription_id,
  };
}

/** Photos of many listings in one query, grouped by listing. */
export async function photosFor(db: Db, ids: string[]): Promise<Map<string, PhotoRow[]>> {
  const map = new Map<string, PhotoRow[]>(ids.map((id) => [id, []]));
  if (!ids.length) return map;
  // json_each keeps this one statement with one bound parameter whatever the page size.
  const { results } = await db.$client
    .prepare(
      `SELECT listing_id, key, thumb_key FROM listing_photos
       WHERE listing_id IN (SELECT value FROM json_each(?)) ORDER BY listing_id, position`,
    )
    .bind(JSON.stringify(ids))
    .all<PhotoRow>();
  for (const p of results) map.get(p.listing_id)?.push(p);
  return map;
}

export async function rowsToListings(db: Db, rows: ListingRow[], now = Date.now()): Promise<OwnerListing[]> {
  const photos = await photosFor(db, rows.map((r) => r.id));
  return rows.map((r) => toOwnerListing(r, photos.get(r.id) ?? [], now));
}

/** The same for anyone's eyes (a listing page seen by someone who is not its owner). */
export async function rowsToPublicListings(db: Db, rows: ListingRow[], now = Date.now()): Promise<PublicListing[]> {
  const photos = await photosFor(db, rows.map((r) => r.id));
  return rows.map((r) => toPublicListing(r, photos.get(r.id) ?? [], now));
}

/** Public listings whose id is in [from, to), in id order (the sitemap's pages): one range read of the primary key. */
export async function publicListingsInIdRange(db: Db, from: string, to: string): Promise<{ id: string; lastmod: string }[]> {
  const { results } = await db.$client
    .prepare(`SELECT l.id, COALESCE(l.updated_at, l.created_at) AS lastmod FROM listings l WHERE l.id >= ?1 AND l.id < ?2 AND ${PUBLIC_LISTING_SQL} ORDER BY l.id`)
    .bind(from, to)
    .all<{ id: string; lastmod: string }>();
  return results;
}

export async function findListingRow(db: Db, id: string): Promise<ListingRow | null> {
  return db.$client.prepare(`SELECT ${LISTING_COLUMNS} FROM ${LISTING_FROM} WHERE l.id = ?`).bind(id).first<ListingRow>();
}

/** The listing with its photos as its owner (and staff) read it, or null. */
export async function findOwnerListing(db: Db, id: string): Promise<OwnerListing | null> {
  const row = await findListingRow(db, id);
  return row ? ((await rowsToListings(db, [row]))[0] ?? null) : null;
}

async function listingRowsWhere(db: Db, where: string, order: string, binds: unknown[], limit: number): Promise<ListingRow[]> {
  const { results } = await db.$client
    .prepare(`SELECT ${LISTING_COLUMNS} FROM ${LISTING_FROM} WHERE ${where} ORDER BY ${order} LIMIT ${limit}`)
    .bind(...binds)
    .all<ListingRow>();
  return results;
}

async function listingsWhere(db: Db, where: string, order: string, binds: unknown[] = [], limit = 500): Promise<OwnerListing[]> {
  return rowsToListings(db, await listingRowsWhere(db, where, order, binds, limit));
}

/**
 * A listing as staff review it: the owner's view, its revision (the version a review names), the rent
 * staff last approved, and its rowid (the price check leaves the listing out of its own comparables).
 */
export interface StaffListing {
  listing: OwnerListing;
  revision: number;
  approvedRent: number | null;
  rowid: number | null;
}

async function toStaffListings(db: Db, rows: (ListingRow & { row_id?: number })[]): Promise<StaffListing[]> {
  const photos = await photosFor(db, rows.map((r) => r.id));
  const now = Date.now();
  return rows.map((r) => ({ listing: toOwnerListing(r, photos.get(r.id) ?? [], now), revision: r.revision ?? 0, approvedRent: r.approved_rent ?? null, rowid: r.row_id ?? null }));
}

/** One listing as staff review it, or null. */
export async function findStaffListing(db: Db, id: string): Promise<StaffListing | null> {
  const row = await findListingRow(db, id);
  return row ? ((await toStaffListings(db, [row]))[0] ?? null) : null;
}

/** A user's own listings, newest first; without includeUnavailable only the available ones. */
export const listingsOfUser = (db: Db, userId: string, includeUnavailable: boolean) =>
  listingsWhere(db, `l.user_id = ?${includeUnavailable ? "" : " AND l.status = 'available'"}`, "l.created_at DESC, l.id DESC", [userId], 200);

/** A user's listings that are or were promoted (or hold a promotion waiting for approval), latest end first. */
export const promotedListingsOfUser = (db: Db, userId: string) =>
  listingsWhere(db, "l.user_id = ? AND (l.promotion_end IS NOT NULL OR l.promotion_pending_days IS NOT NULL)", "l.promotion_end DESC", [userId], 200);

/* ---------- staff lists (docs/decisions/038) ---------- */

/** Staff's listing tabs: every listing newest first, the review queue oldest first, promotions by their end. */
export type StaffListingsView = "all" | "pending" | "promoted";

/** A page's place in its order: created_at (or promotion_end: `e`) and id, or a search's rowid (`r`). */
export type StaffListingsKey = { c: string; id: string } | { e: string; id: string } | { r: number };

/** A staff list row: the whole listing and its rowid (a text search's key; the price check's own row). */
export type StaffListingRow = ListingRow & { row_id: number };

const STAFF_VIEWS: Record<StaffListingsView, { where: string; index: string; order: string; after: string }> = {
  all: { where: "1 = 1", index: LISTING_INDEX.staffNewest, order: "l.created_at DESC, l.id DESC", after: "(l.created_at, l.id) < (?, ?)" },
  pending: { where: "l.verification_status = 'pending'", index: LISTING_INDEX.staffReview, order: "l.created_at, l.id", after: "(l.created_at, l.id) > (?, ?)" },
  promoted: { where: "l.promotion_end IS NOT NULL", index: BROWSE_INDEX.promotionEnd, order: "l.promotion_end, l.id", after: "(l.promotion_end, l.id) > (?, ?)" },
};

const STAFF_COLUMNS = `${LISTING_COLUMNS}, l.rowid AS row_id`;
/** Listings first (CROSS JOIN keeps SQLite's join order): a page reads its own rows and their two names. */
const NAMES = "CROSS JOIN universities un ON un.id = l.university_id CROSS JOIN users u ON u.id = l.user_id";

/**
 * One page (`limit` rows) of a staff listing tab, whatever the table holds: without a search, the tab's
 * index in its order from the key; an exact id (the listing's or its owner's) or an owner's email, their
 * listings newest first; words, the full-text index newest first (by rowid), the tab's condition checked
 * on each match. The key's shape follows (`e` for promotions, `r` for words, else `c`).
 */
export async function staffListingsPage(db: Db, view: StaffListingsView, search: StaffSearch | null, after: StaffListingsKey | null, limit: number): Promise<StaffListingRow[]> {
  const tab = STAFF_VIEWS[view];
  let statement: D1PreparedStatement;
  if (search?.kind === "text") {
    const match = ftsQuery(search.text);
    if (!match) return [];
    const seek = after && "r" in after ? "AND listings_fts.rowid < ?" : "";
    statement = db.$client
      .prepare(
        `SELECT ${STAFF_COLUMNS} FROM listings_fts CROSS JOIN listings l ON l.rowid = listings_fts.rowid ${NAMES}
         WHERE listings_fts MATCH ? AND ${tab.where} ${seek} ORDER BY listings_fts.rowid DESC LIMIT ?`,
      )
      .bind(match, ...(seek ? [(after as { r: number }).r] : []), limit);
  } else if (search) {
    const owner = search.kind === "id" ? "(l.id = ?1 OR l.user_id = ?1)" : "l.user_id = (SELECT id FROM users WHERE email = ?1)";
    const seek = after && "c" in after ? "AND (l.created_at, l.id) < (?3, ?4)" : "";
    statement = db.$client
      .prepare(`SELECT ${STAFF_COLUMNS} FROM listings l ${NAMES} WHERE ${owner} AND ${tab.where} ${seek} ORDER BY l.created_at DESC, l.id DESC LIMIT ?2`)
      .bind(search.kind === "id" ? search.id : search.email, limit, ...(seek ? [(after as { c: string }).c, (after as { id: string }).id] : []));
  } else {
    const key = after ? ("e" in after ? [after.e, after.id] : "c" in after ? [after.c, after.id] : null) : null;
    statement = db.$client
      .prepare(`SELECT ${STAFF_COLUMNS} FROM listings l INDEXED BY ${tab.index} ${NAMES} WHERE ${tab.where} ${key ? `AND ${tab.after}` : ""} ORDER BY ${tab.order} LIMIT ?`)
      .bind(...(key ?? []), limit);
  }
  return (await statement.all<StaffListingRow>()).results;
}

/** Staff lists' rows as staff review them (photos in one read for the page). */
export const staffListingsOf = (db: Db, rows: StaffListingRow[]) => toStaffListings(db, rows);

/* ---------- writes (drizzle) ---------- */

type ListingValues = typeof listings.$inferInsert;
/** Column values, or SQL over the row's own columns (`nextRevision`). */
type ListingChanges = { [K in keyof Omit<ListingValues, "id" | "userId">]?: ListingValues[K] | SQL };

/** The listing's next revision (docs/decisions/015): every edit of what staff review and every review decision sets it. */
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
export const updateListingForReview = (db: Db, id: string, revision: number, unless: (typeof LISTING_REVIEW_STATUSES)[number], changes: ListingChanges) =>
  db
    .update(listings)
    .set({ ...changes, revision: nextRevision })
    .where(and(eq(listings.id, id), eq(listings.revision, revision), ne(listings.verificationStatus, unless)));

/**
 * Listings whose public address was never stored (rows from before migration 0026), oldest rowid
 * first: the backfill's next batch (decision 024).
 */
export const listingsWithoutPublicAddress = (db: Db, limit: number) =>
  db.select({ id: listings.id, address: listings.address }).from(listings).where(isNull(listings.addressPublic)).limit(limit);

/** Stores the public form made from `address`, unless an edit changed the address or stored one in between. */
export const fillPublicAddress = (db: Db, id: string, address: string, addressPublic: string) =>
  db
    .update(listings)
    .set({ addressPublic })
    .where(and(eq(listings.id, id), eq(listings.address, address), isNull(listings.addressPublic)))
    // Counted by the rows returned: D1's `changes` also counts the search index's trigger writes.
    .returning({ id: listings.id });

/** "Approve all" leaves a listing the photo check flagged (review_reason set) for a person: docs/decisions/028. */
const approvableInBulk = () => and(eq(listings.verificationStatus, "pending"), isNull(listings.reviewReason));

export interface ReviewQueueKey {
  createdAt: string;
  id: string;
}

/**
 * Up to `limit` listings "approve all" takes, oldest first after `after`: the review queue's index
 * (listings_staff_review_idx) read a chunk at a time (docs/decisions/038).
 */
export const listingsAwaitingReview = (db: Db, after: ReviewQueueKey | null, limit: number) =>
  db
    .select({ id: listings.id, userId: listings.userId, title: listings.title, createdAt: listings.createdAt })
    .from(listings)
    .where(and(approvableInBulk(), after ? sql`(${listings.createdAt}, ${listings.id}) > (${after.createdAt}, ${after.id})` : undefined))
    .orderBy(listings.createdAt, listings.id)
    .limit(limit);

/**
 * Approves these listings if still approvable (one statement, for db.batch): each one's promotion
 * bought while pending starts now, and the promotion version moves on (decision 013). Returns the ids
 * approved (counted by rows: D1's `changes` also counts the triggers' writes).
 */
export const approvePending = (db: Db, ids: string[], now: string) =>
  db
    .update(listings)
    .set({ verificationStatus: "approved", rejectionReason: null, approvedRent: sql`${listings.monthlyRent}`, revision: nextRevision, ...pendingPromotionStarts(now), updatedAt: now })
    .where(and(inValues(listings.id, ids), approvableInBulk()))
    .returning({ id: listings.id });

/** Of these photo keys, the ones some listing still uses (as photo or thumbnail). */
export async function photoKeysInUse(db: Db, keys: string[]): Promise<Set<string>> {
  const { results } = await db.$client
    .prepare(
      `SELECT key FROM listing_photos WHERE key IN (SELECT value FROM json_each(?1))
       UNION SELECT thumb_key FROM listing_photos WHERE thumb_key IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(keys))
    .all<{ key: string }>();
  return new Set(results.map((r) => r.key));
}

const lapsedPromotion = (nowIso: string) => and(isNotNull(listings.promotionEnd), lt(listings.promotionEnd, nowIso));

/** Changes every listing whose staff-given promotion window has passed; the ids changed (rows, not D1's `changes`, which counts triggers). */
export const updateLapsedStaffPromotions = (db: Db, nowIso: string, changes: ListingChanges) =>
  db
    .update(listings)
    .set(changes)
    .where(and(eq(listings.promotionSource, "admin"), lapsedPromotion(nowIso)))
    .returning({ id: listings.id });

/** Changes every listing whose promotion window has passed and that will not renew; the ids changed. */
export const updateLapsedPromotionsNotRenewing = (db: Db, nowIso: string, changes: ListingChanges) =>
  db
    .update(listings)
    .set(changes)
    .where(and(lapsedPromotion(nowIso), eq(listings.autoRenew, false)))
    .returning({ id: listings.id });

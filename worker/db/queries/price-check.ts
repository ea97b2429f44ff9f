/**
 * The price check (docs/decisions/015): rents of similar listings, approved ones of the same university
 * and unit type, the newest RENT_COMPARABLES of them (docs/decisions/038: what a listing is compared with
 * is today's market, and reading it stays within a bound at any size), read from the comparables index
 * (university, unit type, status, created_at, rent) without touching the table. Policies'
 * `isRentFarBelow` decides what they mean.
 */
import { median } from "../../contract/users";
import type { Db } from "../client";
import { LISTING_INDEX } from "../browse/indexes";

/** At most this many comparables: the newest approved listings of the group. */
export const RENT_COMPARABLES = 100;

const NEWEST_APPROVED = `FROM listings INDEXED BY ${LISTING_INDEX.rentComparables}
  WHERE university_id = ?1 AND unit_type = ?2 AND verification_status = 'approved'`;

/**
 * The comparables of one listing (the listing itself left out): how many (at most RENT_COMPARABLES) and
 * their median rent. One statement of at most RENT_COMPARABLES + 1 index entries.
 */
export async function rentComparables(db: Db, listingId: string, universityId: number, unitType: string): Promise<{ count: number; median: number | null }> {
  const { results } = await db.$client
    .prepare(`SELECT monthly_rent ${NEWEST_APPROVED} AND rowid <> COALESCE((SELECT rowid FROM listings WHERE id = ?3), -1) ORDER BY created_at DESC LIMIT ?4`)
    .bind(universityId, unitType, listingId, RENT_COMPARABLES)
    .all<{ monthly_rent: number }>();
  const rents = results.map((row) => row.monthly_rent);
  return { count: rents.length, median: median(rents) };
}

/** A group's newest approved listings (rowid and rent, newest first), RENT_COMPARABLES + 1 at most: enough to leave any one out. */
export type RentGroup = { r: number; monthly_rent: number }[];

/**
 * The newest approved rents of several (university, unit type) groups, one statement per group of a
 * staff page (never per listing), each at most RENT_COMPARABLES + 1 index entries.
 */
export async function approvedRentsByGroup(db: Db, groups: { universityId: number; unitType: string }[]): Promise<Map<string, RentGroup>> {
  const map = new Map<string, RentGroup>();
  if (!groups.length) return map;
  const d1 = db.$client;
  const statements = groups.map((g) =>
    d1.prepare(`SELECT rowid AS r, monthly_rent ${NEWEST_APPROVED} ORDER BY created_at DESC LIMIT ?3`).bind(g.universityId, g.unitType, RENT_COMPARABLES + 1),
  );
  const results = await d1.batch<{ r: number; monthly_rent: number }>(statements);
  groups.forEach((g, i) => map.set(rentGroupKey(g.universityId, g.unitType), results[i]?.results ?? []));
  return map;
}

/** One listing's comparables from its group's read: the group without the listing (by rowid), the newest RENT_COMPARABLES. */
export function comparablesIn(group: RentGroup, ownRowid: number | null): { count: number; median: number | null } {
  const rents = group.filter((row) => row.r !== ownRowid).slice(0, RENT_COMPARABLES).map((row) => row.monthly_rent);
  return { count: rents.length, median: median(rents) };
}

export const rentGroupKey = (universityId: number, unitType: string) => `${universityId}:${unitType}`;

/**
 * The price check (docs/decisions/015): approved rents of one university and unit type, read in order through
 * the comparables index (policies `isRentFarBelow` decides what they mean).
 */
import type { Db } from "../client";
import { LISTING_INDEX } from "../browse/indexes";

const COMPARABLES = `FROM listings INDEXED BY ${LISTING_INDEX.rentComparables}
  WHERE university_id = ?1 AND unit_type = ?2 AND verification_status = 'approved'
    AND rowid <> COALESCE((SELECT rowid FROM listings WHERE id = ?3), -1)`;

/**
 * The median monthly rent of approved listings of this university and unit type, this listing left
 * out, and how many there are: a count, then the middle row(s) by OFFSET, both on the comparables index.
 */
export async function rentComparables(db: Db, listingId: string, universityId: number, unitType: string): Promise<{ count: number; median: number | null }> {
  const d1 = db.$client;
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
export async function approvedRentsByGroup(db: Db, groups: { universityId: number; unitType: string }[], cap = 2000): Promise<Map<string, number[]>> {
  const map = new Map<string, number[]>();
  if (!groups.length) return map;
  const d1 = db.$client;
  const statements = groups.map((g) =>
    d1
      .prepare(
        `SELECT monthly_rent FROM listings INDEXED BY ${LISTING_INDEX.rentComparables}
          WHERE university_id = ?1 AND unit_type = ?2 AND verification_status = 'approved' ORDER BY monthly_rent LIMIT ?3`,
      )
      .bind(g.universityId, g.unitType, cap),
  );
  const results = await d1.batch<{ monthly_rent: number }>(statements);
  groups.forEach((g, i) => map.set(rentGroupKey(g.universityId, g.unitType), (results[i]?.results ?? []).map((r) => r.monthly_rent)));
  return map;
}

export const rentGroupKey = (universityId: number, unitType: string) => `${universityId}:${unitType}`;

/**
 * What the schema and the browse SQL must spell alike: the names of the indexes browse forces with
 * `INDEXED BY`, and the SQL of the generated columns and partial indexes the cells read
 * (docs/decisions/021). schema.ts declares every index under these names and the cells builder names
 * them from here, so a misspelt name changes the schema (drizzle-kit then wants a migration) or fails
 * test/worker/listings/browse-module.test.ts, which finds each one in the migrated database. No imports: the
 * schema loads this module.
 */

/** The index part of each sort's name (price_asc and price_desc walk one index, both ways). */
export type CellSort = "newest" | "price" | "distance";

/** Indexes browse names in its SQL, by what they walk. */
export const BROWSE_INDEX = {
  /** Promotions by their end (staff's Promoted tab, the lapsed ones the cron ends). */
  promotionEnd: "listings_promotion_end_idx",
  /**
   * The promoted phase (decision 006) in each sort's order, every campus's or one university's: partial
   * indexes of the listings with a promotion (docs/decisions/038), so a page reads about its own rows
   * however many are promoted.
   */
  promoted: { newest: "listings_promoted_newest_idx", price: "listings_promoted_price_idx", distance: "listings_promoted_distance_idx" },
  universityPromoted: {
    newest: "listings_university_promoted_newest_idx",
    price: "listings_university_promoted_price_idx",
    distance: "listings_university_promoted_distance_idx",
  },
  /** One stay cell (available_from_month, available_to_month) in each sort's order. */
  stay: { newest: "listings_stay_newest_idx", price: "listings_stay_price_idx", distance: "listings_stay_distance_idx" },
  universityStay: { newest: "listings_university_stay_newest_idx", price: "listings_university_stay_price_idx", distance: "listings_university_stay_distance_idx" },
  /** Listings too long for a cell (partial indexes on LONG_STAY_SQL). */
  longStay: { newest: "listings_long_stay_newest_idx", price: "listings_long_stay_price_idx", distance: "listings_long_stay_distance_idx" },
  /** One distance band, newest first or by price (sorted by distance, the distance index walks the range itself). */
  distanceBand: { newest: "listings_distance_band_newest_idx", price: "listings_distance_band_price_idx" },
  universityDistanceBand: { newest: "listings_university_distance_band_newest_idx", price: "listings_university_distance_band_price_idx" },
} as const satisfies Record<string, string | Partial<Record<CellSort, string>>>;

/** Other indexes named in hand-written SQL (the freshness check, the price check). */
export const LISTING_INDEX = {
  availability: "listings_availability_idx",
  /** The price check's comparables: the newest approved listings of one university and unit type (docs/decisions/038). */
  rentComparables: "listings_rent_comparables_idx",
  /** Staff lists (docs/decisions/038): every listing newest first, and the review queue oldest first. */
  staffNewest: "listings_staff_newest_idx",
  staffReview: "listings_staff_review_idx",
} as const;

/** Every index name above, for the test that finds each in the migrated database. */
export const NAMED_INDEXES: readonly string[] = [...Object.values(BROWSE_INDEX), ...Object.values(LISTING_INDEX)].flatMap((v) =>
  typeof v === "string" ? [v] : Object.values(v),
);

/** Listings whose dates are at most this many months apart are found through their cell. */
export const STAY_CELL_SPAN = 12;

/** SQL: the month of a `YYYY-MM-DD` column as one number, year * 12 + month - 1 (null stays null). */
export const MONTH_OF = (column: string) => `CAST(substr(${column}, 1, 4) AS INTEGER) * 12 + CAST(substr(${column}, 6, 2) AS INTEGER) - 1`;

/**
 * SQL: a listing too long for its cell. Written the same in the partial indexes and in the query,
 * so SQLite can tell that the query's rows are in the index.
 */
export const LONG_STAY_SQL = `available_to_month - available_from_month > ${STAY_CELL_SPAN}`;

/** SQL: a distance's band, the whole miles rounded up (2.0 is band 2, 2.1 band 3; null stays null). */
export const DISTANCE_BAND_SQL = "CAST(distance_miles AS INTEGER) + (distance_miles > CAST(distance_miles AS INTEGER))";

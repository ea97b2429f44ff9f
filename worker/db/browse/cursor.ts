/**
 * Browse's keyset order (docs/decisions/006): each sort's column and direction, the cursor that comes
 * back with the next page, and the cursor's sort value of a row.
 */
import { z } from "zod";
import type { Sort } from "../../contract/listings";

/** The browse cursor: validated when it comes back (lib/cursor.ts). */
export const browseCursorSchema = z.object({
  /** p: inside the promoted set; n: the rest; a: every listing in the sort's order (promoted=in_order, docs/decisions/006). */
  phase: z.enum(["p", "n", "a"]),
  /** Sort value of the last row (created_at, monthly_rent, distance_key: miles to 0.1, 100000 when unknown, or the search rank: negative). */
  v: z.union([z.iso.datetime(), z.number().min(-1_000_000).max(1_000_000)]),
  id: z.string().min(1).max(64),
  /** The instant the walk started (ms): "promoted" means promoted at that instant. */
  t: z.number().int().min(Date.UTC(2020, 0, 1)).max(Date.UTC(2100, 0, 1)),
});
export type BrowseCursor = z.infer<typeof browseCursorSchema>;

/** Each sort's column (over listings `l`) and direction; ties go by id in the same direction. */
export const SORT_ORDER: Record<Sort, { column: string; dir: "ASC" | "DESC" }> = {
  newest: { column: "l.created_at", dir: "DESC" },
  price_asc: { column: "l.monthly_rent", dir: "ASC" },
  price_desc: { column: "l.monthly_rent", dir: "DESC" },
  // Closest to campus first; unknown distances (key 100000) after every known one (docs/decisions/019).
  distance: { column: "l.distance_key", dir: "ASC" },
  // Best match first: FTS5's bm25 rank (lower is better) of each of the search's matches (RELEVANCE_FROM).
  relevance: { column: "bm25(listings_fts, 4.0, 1.0, 2.0)", dir: "ASC" },
};

/**
 * Sorted by relevance, the search's window of matches leads (their rowids, one JSON `?`: the newest
 * SEARCH_WINDOW, docs/decisions/038), each joined to its listing and then to its full-text row, ranked
 * by FTS5's bm25 (SORT_ORDER): a word in the title counts four times one in the description, one in the
 * address twice. The statement's WHERE adds `listings_fts MATCH ?` (RELEVANCE_MATCH).
 */
export const RELEVANCE_FROM = "json_each(?) w CROSS JOIN listings l ON l.rowid = w.value CROSS JOIN listings_fts ON listings_fts.rowid = l.rowid";
export const RELEVANCE_MATCH = "listings_fts MATCH ?";

/** The cursor's sort value of a row, for each sort. */
export const sortValue = (sort: Sort, row: { created_at: string; distance_key: number; monthly_rent: number; fts_rank?: number }): string | number =>
  sort === "newest" ? row.created_at : sort === "distance" ? row.distance_key : sort === "relevance" ? (row.fts_rank ?? 0) : row.monthly_rent;

/** The keyset seek past the cursor, as a row-value comparison so SQLite seeks the index to it instead of scanning (two `?`: value, id). */
export function seekSql(sort: Sort): string {
  const { column, dir } = SORT_ORDER[sort];
  return `(${column}, l.id) ${dir === "DESC" ? "<" : ">"} (?, ?)`;
}

/**
 * What each browse filter means, as SQL over `listings l` (the public rule included): the one home of
 * the filters, used by browse (worker/db/browse) and by saved searches' matching (docs/decisions/020).
 * A new filter starts here (docs/architecture.md, "adding a browse filter").
 */
import type { BrowseQuery } from "../../contract/listings";
import { PUBLIC_LISTING_SQL } from "../queries/listing-sql";
import { NO_TAKEN_STAY_SQL } from "./taken-stays";

/**
 * Clauses the stay cells' statement checks once over the merged rows instead of in each arm (cells.ts):
 * a correlated subquery repeated in up to MAX_ARMS arms would cost each its opcodes (docs/decisions/021).
 */
export const AFTER_MERGE: ReadonlySet<string> = new Set([NO_TAKEN_STAY_SQL]);

/**
 * FTS5 query from free text: every term required; a word is a prefix term (`furn` finds "furnished"),
 * a term with punctuation inside (`W/D`, `in-unit`) the phrase of its words, so it narrows instead of
 * matching each letter on its own. Quotes escaped; at most 8 terms.
 */
export function ftsQuery(q: string): string | null {
  const terms = q
    .toLowerCase()
    .split(/\s+/u)
    .map((term) => term.split(/[^\p{L}\p{N}]+/u).filter(Boolean))
    .filter((words) => words.length > 0)
    .slice(0, 8);
  const quoted = (words: string[]) => `"${words.join(" ").replace(/"/g, '""')}"`;
  return terms.length ? terms.map((words) => (words.length === 1 ? `${quoted(words)}*` : quoted(words))).join(" ") : null;
}

/**
 * The browse filters as SQL over `listings l` (the public rule included): the one home of what a
 * filter means, used by browse and by saved searches' matching (docs/decisions/020). `none`: the filters can
 * match nothing (free text without a word).
 */
/**
 * How the words reach SQL (docs/decisions/038): `probe`, each row the walk reaches is checked against the
 * full-text index (a lookup a row: saved searches' few listings, and a search whose words match many);
 * `rowids`, among these rows (a search whose words match few: all of them, read first); `joined`, the
 * search's rank is joined (relevance: cursor.ts RELEVANCE_FROM), no clause.
 */
export type WordsSql = { kind: "probe" } | { kind: "rowids"; rowids: number[] } | { kind: "joined" };

export function browseFilterSql(
  query: Omit<BrowseQuery, "limit" | "last_evaluated_key">,
  { afterCursor = false, words = { kind: "probe" } }: { afterCursor?: boolean; words?: WordsSql } = {},
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
  // The stay needed (docs/decisions/021): listings available for all of it; a listing without dates never
  // matches (NULL compares false). Browse reads them through the stay cells (cells.ts), where
  // these two clauses still decide at the edge months. None of its paid stays may overlap it (decision 039).
  if (query.available_from && query.available_to) {
    add("l.available_from <= ?", query.available_from);
    add("l.available_to >= ?", query.available_to);
    add(NO_TAKEN_STAY_SQL, query.available_to, query.available_from);
  }
  // Unless sorted by price, a rent range is checked row by row along the sort's index (unary +: not
  // an index term). Left indexable, SQLite walked the rent index and sorted every match: 100,160 rows
  // read for one page of 40 at 50,000 listings (`npm run bench`). Sorted by price, past the first
  // page the bound on the cursor's side is a row check too: the cursor lies inside it, and SQLite
  // seeked to the bound instead, reading every earlier page again (361 rows for page 2 of 40).
  const byPrice = query.sort === "price_asc" || query.sort === "price_desc";
  const rent = (seekable: boolean) => (byPrice && seekable ? "l.monthly_rent" : "+l.monthly_rent");
  if (query.min_rent !== undefined) add(`${rent(!(afterCursor && query.sort === "price_asc"))} >= ?`, query.min_rent);
  if (query.max_rent !== undefined) add(`${rent(!(afterCursor && query.sort === "price_desc"))} <= ?`, query.max_rent);
  // Distance to campus (docs/decisions/019): at most N miles; an unknown distance (key 100000) never matches,
  // and a listing exactly N miles away does (distances are stored to 0.1 mile). Sorted by distance it
  // bounds the walk of the distance index; in another order browse reads the distance bands up to N
  // (cellPlan), where it is a row check (unary +: for the same reason as the rent range).
  if (query.within_miles !== undefined) add(`${query.sort === "distance" ? "l.distance_key" : "+l.distance_key"} <= ?`, query.within_miles);
  const fts = query.q ? ftsQuery(query.q) : null;
  if (fts && words.kind === "probe") add("EXISTS (SELECT 1 FROM listings_fts WHERE listings_fts MATCH ? AND listings_fts.rowid = l.rowid)", fts);
  if (fts && words.kind === "rowids") add("l.rowid IN (SELECT value FROM json_each(?))", JSON.stringify(words.rowids));
  return { where, binds, none: !!query.q && !fts };
}

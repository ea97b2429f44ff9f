/**
 * Browse (`GET subleases/`, docs/decisions/006 and 021): hand-written SQL on D1 (it needs
 * `meta.rows_read` and FTS5, which the query builder does not express).
 *
 * Order (`promoted`, docs/decisions/006): by default listings promoted right now come first (a small set, read
 * through the promotion_end index), then the rest in keyset order on (sort value, id), which the
 * browse indexes serve, so a page reads about as many rows as it returns. A search with no sort
 * chosen goes by relevance: the full-text index's rank is the sort value. `only`: the promoted phase
 * alone (the browse page's Featured row); `in_order`: one phase of every listing in the sort's order
 * (the results under that row). The cursor carries the phase, the last sort value and id, and the
 * instant the walk started, so pages stay consistent while listings are added or promotions end.
 *
 * The module: filters.ts says what each filter means, cursor.ts the order and the cursor, cells.ts
 * how a stay or a distance is read cell by cell, indexes.ts the index names shared with schema.ts,
 * taken-stays.ts a listing's paid stays (left out of a stay needed, shown on the cards: decision 039).
 */
import type { BrowseQuery, PublicListing, TakenStay } from "../../contract/listings";
import { encodeCursor } from "../../lib/cursor";
import { bindingOf, type Db } from "../client";
import { boundedMarks } from "../bounded";
import { LISTING_ROW_COLUMNS, promotedNowSql } from "../queries/listing-sql";
import { photosFor, toPublicListing, type ListingOnlyRow, type ListingRow } from "../queries/listings";
import { cellPlan, cellsSql } from "./cells";
import { RELEVANCE_FROM, RELEVANCE_MATCH, seekSql, SORT_ORDER, sortValue, type BrowseCursor } from "./cursor";
import { AFTER_MERGE, browseFilterSql, ftsQuery } from "./filters";
import { BROWSE_INDEX } from "./indexes";
import { TAKEN_STAYS_COLUMN, takenStaysOfColumn } from "./taken-stays";

export { browseCursorSchema, type BrowseCursor } from "./cursor";
export { browseFilterSql, ftsQuery } from "./filters";

export interface BrowseResult {
  listings: PublicListing[];
  nextToken: string | null;
  rowsRead: number;
}

/** A phase of the walk: p, the listings promoted at the walk's instant; n, the rest; a, all of them (in_order). */
type Phase = "p" | "n" | "a";

/** The phases a walk goes through, from the cursor's on. */
function phasesOf(query: BrowseQuery, cursor: BrowseCursor | null): readonly Phase[] {
  if (query.promoted === "only") return ["p"];
  if (query.promoted === "in_order") return ["a"];
  return cursor?.phase === "n" ? ["n"] : ["p", "n"];
}

/** `?` placeholders numbered from `after` + 1: the same text can then stand in many places of one statement with one set of binds. */
const numbered = (sql: string, after = 0) => {
  let n = after;
  return sql.replace(/\?/g, () => `?${++n}`);
};

/** At most this many matches of a search's words are read first (the newest): docs/decisions/038. */
export const SEARCH_WINDOW = 200;

/**
 * A search's words as browse reads them: the newest matches (rowids, newest first, at most
 * SEARCH_WINDOW), and whether more match. Few matches: browse reads among them. Many: the walk checks
 * each row it reaches against the index (a row in a few matches), and relevance ranks the newest
 * SEARCH_WINDOW (docs/decisions/038).
 */
export interface BrowseWords {
  rowids: number[];
  more: boolean;
}

/** The newest matches of a search's words (one statement, at most SEARCH_WINDOW + 1 index entries). */
async function searchWindow(db: Db, match: string): Promise<{ words: BrowseWords; rowsRead: number }> {
  const result = await db.$client
    .prepare("SELECT rowid AS r FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid DESC LIMIT ?")
    .bind(match, SEARCH_WINDOW + 1)
    .all<{ r: number }>();
  const rowids = result.results.map((row) => row.r);
  return { words: { rowids: rowids.slice(0, SEARCH_WINDOW), more: rowids.length > SEARCH_WINDOW }, rowsRead: result.meta.rows_read ?? 0 };
}

/** The index part of each sort's name (relevance has no index of its own: its matches lead). */
const INDEX_SORT = { newest: "newest", price_asc: "price", price_desc: "price", distance: "distance", relevance: "newest" } as const;

/**
 * One phase's statement: up to `want` listings of the phase at the instant `now` (ms), past the
 * cursor when it is in this phase. Through the cells (cells.ts) when the query has a stay or a
 * distance bound in the rest; else along the sort's index (the promoted phase: the promoted listings'
 * own index in that order). With words (`words`: their window, else every row is probed): relevance
 * reads the window's matches first and ranks them; another sort reads among few matches, or probes
 * each row of its walk when many match.
 */
export function browseStatement(
  query: BrowseQuery,
  cursor: BrowseCursor | null,
  phase: Phase,
  now: number,
  want: number,
  words: BrowseWords | null = null,
): { sql: string; binds: (string | number)[] } {
  const { column, dir } = SORT_ORDER[query.sort];
  const afterCursor = cursor?.phase === phase;
  // By relevance (the schema sorts by relevance only with words, so ftsQuery has a query here).
  const fts = query.sort === "relevance" && query.q ? ftsQuery(query.q) : null;
  const wordsSql = fts ? { kind: "joined" as const } : words && !words.more ? { kind: "rowids" as const, rowids: words.rowids } : { kind: "probe" as const };
  const { where: clauses, binds } = browseFilterSql(query, { afterCursor, words: wordsSql });
  if (phase !== "a") {
    const promoted = promotedNowSql(new Date(now).toISOString(), { promoted: phase === "p" });
    clauses.push(promoted.sql);
    binds.push(...promoted.binds);
  }
  const seek = seekSql(query.sort);
  if (cursor && afterCursor) {
    clauses.push(seek);
    binds.push(cursor.v, cursor.id);
  }
  const plan = phase !== "p" ? cellPlan(query) : null;
  if (plan) {
    // A stay needed or within N miles: the cells that hold the matches, merged in the sort's order.
    const armSeek = cursor && afterCursor ? numbered(seek, binds.length - 2) : null;
    // Each clause numbered where its binds stand, then split: most go into every arm, AFTER_MERGE's are checked once.
    let before = 0;
    const each = clauses.map((clause) => {
      const text = numbered(clause, before);
      before += clause.split("?").length - 1;
      return { text, late: AFTER_MERGE.has(clause) };
    });
    const where = each.filter((c) => !c.late).map((c) => c.text).join(" AND ");
    const afterMerge = each.filter((c) => c.late).map((c) => c.text).join(" AND ") || null;
    const sql = cellsSql(query, plan, where, armSeek, { afterMerge, columns: TAKEN_STAYS_COLUMN });
    return { sql: `${sql} LIMIT ?${binds.length + 1}`, binds: [...binds, want] };
  }
  if (fts) {
    // The window's matches lead (every match when they fit it), each ranked; their `?`s come first.
    // Without a window (a statement built alone, the module's tests), the newest SEARCH_WINDOW matches.
    const window = words?.rowids ?? [];
    const from = words ? "json_each(?) w" : `(SELECT rowid AS value FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_WINDOW}) w`;
    return {
      sql: `SELECT ${LISTING_ROW_COLUMNS}, ${TAKEN_STAYS_COLUMN}, ${column} AS fts_rank FROM ${RELEVANCE_FROM.replace("json_each(?) w", from)} WHERE ${RELEVANCE_MATCH} AND ${clauses.join(" AND ")} ORDER BY ${column} ${dir}, l.id ${dir} LIMIT ?`,
      binds: [words ? JSON.stringify(window) : fts, fts, ...binds, want],
    };
  }
  // The promoted phase walks the promoted listings' own index in the sort's order (the university's,
  // when one is chosen): a page reads about as many rows as it returns, however many are promoted.
  const promotedIndex = (query.university_id === undefined ? BROWSE_INDEX.promoted : BROWSE_INDEX.universityPromoted)[INDEX_SORT[query.sort]];
  const from = phase === "p" ? `listings l INDEXED BY ${promotedIndex}` : "listings l";
  return {
    sql: `SELECT ${LISTING_ROW_COLUMNS}, ${TAKEN_STAYS_COLUMN} FROM ${from} WHERE ${clauses.join(" AND ")}
                 ORDER BY ${column} ${dir}, l.id ${dir} LIMIT ?`,
    binds: [...binds, want],
  };
}

export async function browseListings(db: Db, query: BrowseQuery, cursor: BrowseCursor | null): Promise<BrowseResult> {
  const now = cursor?.t ?? Date.now();
  if (browseFilterSql(query).none) return { listings: [], nextToken: null, rowsRead: 0 };

  const limit = query.limit;
  const collected: (ListingOnlyRow & { _phase: Phase; taken_stays_list?: string | null })[] = [];
  let rowsRead = 0;
  // A search's words: their newest matches first, which decide how the phases read them.
  const match = query.q ? ftsQuery(query.q) : null;
  let words: BrowseWords | null = null;
  if (match) {
    const window = await searchWindow(db, match);
    rowsRead += window.rowsRead;
    if (!window.words.rowids.length) return { listings: [], nextToken: null, rowsRead };
    words = window.words;
  }
  // A cursor of another mode's walk (its phase not among this one's) starts again.
  const phases = phasesOf(query, cursor);
  if (cursor && !phases.includes(cursor.phase)) cursor = null;
  for (const phase of phases) {
    const { sql, binds } = browseStatement(query, cursor, phase, now, limit + 1 - collected.length, words);
    const result = await db.$client.prepare(sql).bind(...binds).all<ListingOnlyRow>();
    rowsRead += result.meta.rows_read ?? 0;
    for (const row of result.results) collected.push(Object.assign(row, { _phase: phase }));
    if (collected.length > limit) break;
  }

  const page = collected.slice(0, limit);
  const last = page.at(-1);
  const nextToken =
    collected.length > limit && last
      ? encodeCursor({ phase: last._phase, v: sortValue(query.sort, last), id: last.id, t: now })
      : null;
  const taken = new Map<string, TakenStay[]>();
  page.forEach((r) => {
    taken.set(r.id, takenStaysOfColumn(r.taken_stays_list));
    delete (r as Partial<typeof r>)._phase;
    delete (r as Partial<typeof r>).taken_stays_list;
    delete (r as { fts_rank?: number }).fts_rank;
  });
  const { rows, rowsRead: lookups } = await withPeople(db, page);
  const photoRows = await photosFor(db, page.map((r) => r.id));
  return {
    // Each card shows the dates still free (decision 039).
    listings: rows.map((r) => ({ ...toPublicListing(r, photoRows.get(r.id) ?? [], now), taken_stays: taken.get(r.id) ?? [] })),
    nextToken,
    rowsRead: rowsRead + lookups,
  };
}

/**
 * Adds university and owner names: owners with one lookup for the distinct ids of the page (a
 * join would read a user row per listing), universities from the per-isolate reference cache.
 */
async function withPeople(db: Db, page: ListingOnlyRow[]): Promise<{ rows: ListingRow[]; rowsRead: number }> {
  if (!page.length) return { rows: [], rowsRead: 0 };
  // Literal placeholders (a page has at most 100 distinct ids, D1's bind limit): json_each would
  // add its own rows to rows_read.
  const userIds = [...new Set(page.map((r) => r.user_id))];
  const marks = boundedMarks(userIds);
  const [universities, people] = await Promise.all([
    universityNames(db),
    db.$client
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
 * with a migration (docs/decisions/006). Keyed by the D1 binding under the request's session (each
 * request has a session adapter of its own), so tests with their own D1 get theirs.
 */
const universityCache = new WeakMap<D1Database, Promise<Map<number, { name: string; abbreviation: string }>>>();
function universityNames(db: Db) {
  const d1 = db.$client;
  const key = bindingOf(d1);
  let names = universityCache.get(key);
  if (!names) {
    names = d1
      .prepare("SELECT id, name, abbreviation FROM universities")
      .all<{ id: number; name: string; abbreviation: string }>()
      .then(({ results }) => new Map(results.map((u) => [u.id, u])));
    names.catch(() => universityCache.delete(key));
    universityCache.set(key, names);
  }
  return names;
}

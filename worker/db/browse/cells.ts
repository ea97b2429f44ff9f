/**
 * Browse cells (docs/decisions/021): how browse finds the listings available for a whole
 * stay, or within N miles of campus, in the order asked for, without reading the listings that are not.
 *
 * A listing covers a stay when it is available from on or before the stay's first day to on or after
 * its last: two date ranges, which no index can walk in a sort's order. So each listing sits in a
 * cell, the calendar months of its two dates (`available_from_month`, `available_to_month`), and the
 * browse indexes walk one cell in the sort's order. A stay is answered by merging the cells that can
 * hold a listing covering it; each cell is dense with matches (all of a cell matches but the edge
 * months', where the exact days are still checked by browseFilterSql). A listing longer than
 * STAY_CELL_SPAN months would need far more cells: those few are walked through their own small
 * (partial) indexes instead.
 *
 * "Within N miles" in another order than distance is the same problem with one range: a listing's
 * distance band is its distance rounded up to a whole mile, and the bands 0 to N (rounded up) hold
 * exactly the listings within N miles (all but the last band's when N is not whole).
 */
import type { BrowseQuery, Sort } from "../../contract/listings";
import { PUBLIC_LISTING } from "../../contract/policies";
import { SORT_ORDER } from "./cursor";
import { BROWSE_INDEX, LONG_STAY_SQL, STAY_CELL_SPAN, type CellSort } from "./indexes";

export { DISTANCE_BAND_SQL, LONG_STAY_SQL, MONTH_OF, STAY_CELL_SPAN } from "./indexes";

/** The month of a `YYYY-MM-DD` date, as MONTH_OF computes it in SQL. */
export const monthOf = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/**
 * The cells that can hold a listing of at most STAY_CELL_SPAN months covering the stay `from`..`to`:
 * it starts in the stay's first month or before, ends in its last month or after, and spans at most
 * STAY_CELL_SPAN months, so it starts no earlier than STAY_CELL_SPAN months before the stay's last
 * month. At most 91 cells (a stay within one month); most are empty, which costs no row read.
 */
export function stayCells(from: string, to: string): [fromMonth: number, toMonth: number][] {
  const first = monthOf(from);
  const last = monthOf(to);
  const cells: [number, number][] = [];
  for (let fromMonth = last - STAY_CELL_SPAN; fromMonth <= first; fromMonth++) {
    for (let toMonth = Math.max(last, fromMonth); toMonth <= fromMonth + STAY_CELL_SPAN; toMonth++) cells.push([fromMonth, toMonth]);
  }
  return cells;
}

/** The bands holding every listing within `miles` of its campus: 0 to `miles` rounded up. */
export const distanceBands = (miles: number): number[] => Array.from({ length: Math.ceil(miles) + 1 }, (_, band) => band);

/** D1 allows at most this many terms in a compound SELECT. */
export const COMPOUND_TERMS = 5;

/**
 * D1's opcode ceiling: through workerd a statement that compiles to more SQLite opcodes fails with
 * SQLITE_NOMEM (measured in local workerd: 21,408 ran, the next arms' worth failed).
 */
export const D1_OPCODE_CEILING = 21_400;

/**
 * The opcode budget, as arms per statement (each arm costs about 210 opcodes: it repeats the filters).
 * The longest statement the builder makes, a stay within one month (91 cells and the long-stay arm)
 * with every filter, a university and a cursor, compiles to about 19,300 (EXPLAIN through local D1),
 * so about 10 arms' worth of room is left. A plan with more arms is refused (cellPlan: the plain walk
 * answers instead, slower but within the limits). test/worker/listings/browse-module.test.ts compiles and runs
 * that statement in every sort against local D1: a filter or column that pushes it within 1,000
 * opcodes of the ceiling fails there.
 */
export const MAX_ARMS = 92;

/** D1's other limit on a statement: its text, in bytes (the longest statement is about 54 KB). */
export const MAX_STATEMENT_BYTES = 100_000;

/**
 * `arms` (each already in `orderBy`'s order through its index) as one statement in that order:
 * SQLite merges ordered compound terms lazily, so a LIMIT reads only the rows it returns plus one
 * look-ahead per arm. More arms than D1 allows in one compound nest, each level in the same order.
 */
export function mergedInOrder(arms: string[], orderBy: string): string {
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
// relevance never reads cells (a search is led by the full-text index, cellPlan); newest stands in for the type.
const CELL_SORT: Record<Sort, CellSort> = { newest: "newest", price_asc: "price", price_desc: "price", distance: "distance", relevance: "newest" };

/**
 * Where browse reads through cells (docs/decisions/021): the cell index (the university's when one is
 * chosen), each cell's key columns and values, and arms of their own (listings too long for a cell).
 */
export interface CellPlan {
  index: string;
  cells: [column: string, value: number][][];
  extraArms: { index: string; where: string }[];
}

/** The number of arms a plan's statement has. */
export const armsOf = (plan: CellPlan) => plan.cells.length + plan.extraArms.length;

/**
 * The cells to read for this query, or null for the plain walk along the sort's index. A stay needed:
 * the cells that can cover it, plus the long listings. Within N miles, unless sorted by distance (whose
 * index walks the range itself): the distance bands up to N. Not with free text (the full-text index
 * leads) nor in the promoted phase (a small set). Null too when the plan has more arms than `budget`.
 */
export function cellPlan(query: BrowseQuery, budget = MAX_ARMS): CellPlan | null {
  if (query.q) return null;
  const plan = planOf(query);
  return plan && armsOf(plan) <= budget ? plan : null;
}

function planOf(query: BrowseQuery): CellPlan | null {
  const sort = CELL_SORT[query.sort];
  const ofUniversity = query.university_id !== undefined;
  if (query.available_from && query.available_to) {
    return {
      index: (ofUniversity ? BROWSE_INDEX.universityStay : BROWSE_INDEX.stay)[sort],
      cells: stayCells(query.available_from, query.available_to).map(([fromMonth, toMonth]) => [
        ["available_from_month", fromMonth],
        ["available_to_month", toMonth],
      ]),
      extraArms: [{ index: BROWSE_INDEX.longStay[sort], where: LONG_STAY_SQL }],
    };
  }
  if (query.within_miles !== undefined && sort !== "distance") {
    const index = (ofUniversity ? BROWSE_INDEX.universityDistanceBand : BROWSE_INDEX.distanceBand)[sort];
    return { index, cells: distanceBands(query.within_miles).map((band) => [["distance_band", band]]), extraArms: [] };
  }
  return null;
}

/** What the merged rows get besides the arms' own: a correlated subquery's cost once, not once per arm. */
export interface MergeOptions {
  /** Filters checked once over the merged rows, in order, instead of in every arm (`AFTER_MERGE` of filters.ts). */
  afterMerge?: string | null;
  /** More result columns, computed for the rows the statement returns only. */
  columns?: string;
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
export function cellsSql(query: BrowseQuery, plan: CellPlan, where: string, seek: string | null, { afterMerge = null, columns = "" }: MergeOptions = {}): string {
  if (armsOf(plan) > MAX_ARMS) throw new RangeError(`browse cells: ${armsOf(plan)} arms exceed D1's budget of ${MAX_ARMS}`);
  const { column, dir } = SORT_ORDER[query.sort];
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
  const select = `SELECT *${columns ? `, ${columns}` : ""}`;
  const merged = `FROM (${mergedInOrder(arms, order)}) AS l WHERE ${where} ORDER BY ${order}`;
  if (!afterMerge) return `${select} ${merged}`;
  // Checked once over the merged rows, in order: SQLite pushes no WHERE term into a subquery with a LIMIT
  // (`LIMIT -1`: none), so `afterMerge` stays out of the arms; the subquery runs as a co-routine in the
  // sort's order, which the outer ORDER BY keeps without sorting (rows read stay those returned).
  return `${select} FROM (SELECT * ${merged} LIMIT -1) AS l WHERE ${afterMerge} ORDER BY ${order}`;
}

/**
 * Browse cells (issue 15, docs/decisions/021): how browse finds the listings available for a whole
 * stay, or within N miles of campus, in the order asked for, without reading the listings that are not.
 *
 * A listing covers a stay when it is available from on or before the stay's first day to on or after
 * its last: two date ranges, which no index can walk in a sort's order. So each listing sits in a
 * cell, the calendar months of its two dates (`available_from_month`, `available_to_month`), and the
 * browse indexes walk one cell in the sort's order. A stay is answered by merging the cells that can
 * hold a listing covering it; each cell is dense with matches (all of a cell matches but the edge
 * months', where the exact days are still checked). A listing longer than STAY_CELL_SPAN months would
 * need far more cells: those few are walked through their own small (partial) indexes instead.
 *
 * "Within N miles" in another order than distance is the same problem with one range: a listing's
 * distance band is its distance rounded up to a whole mile, and the bands 0 to N (rounded up) hold
 * exactly the listings within N miles (all but the last band's when N is not whole).
 */

/** Listings whose dates are at most this many months apart are found through their cell. */
export const STAY_CELL_SPAN = 12;

/** SQL: the month of a `YYYY-MM-DD` column as one number, year * 12 + month - 1 (null stays null). */
export const MONTH_OF = (column: string) => `CAST(substr(${column}, 1, 4) AS INTEGER) * 12 + CAST(substr(${column}, 6, 2) AS INTEGER) - 1`;

/**
 * SQL: a listing too long for its cell. Written the same in the partial indexes and in the query,
 * so SQLite can tell that the query's rows are in the index.
 */
export const LONG_STAY_SQL = `available_to_month - available_from_month > ${STAY_CELL_SPAN}`;

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

/** SQL: a distance's band, the whole miles rounded up (2.0 is band 2, 2.1 band 3; null stays null). */
export const DISTANCE_BAND_SQL = "CAST(distance_miles AS INTEGER) + (distance_miles > CAST(distance_miles AS INTEGER))";

/** The bands holding every listing within `miles` of its campus: 0 to `miles` rounded up. */
export const distanceBands = (miles: number): number[] => Array.from({ length: Math.ceil(miles) + 1 }, (_, band) => band);

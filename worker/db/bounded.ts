/**
 * Statements stay within D1's limits whatever the data holds (docs/decisions/038): D1 refuses a statement
 * with more than 100 bound parameters, so a list whose length the data decides is never spread into
 * `IN (?, ?, ...)` (nor drizzle's `inArray`): it goes in as one JSON parameter read by `json_each`
 * (`inValues`), or, for a list the caller bounds itself (a page's ids), as checked placeholders
 * (`boundedMarks`). eslint's `house/bounded-in-lists` refuses the other forms.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** D1's most bound parameters in one statement. */
export const D1_MAX_BOUND_PARAMETERS = 100;

/** `column IN (values)` as one bound parameter (a JSON array), for any number of values. */
export const inValues = (column: SQLiteColumn | SQL, values: readonly (string | number)[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/**
 * `?, ?, ...` for a list its caller bounds (a page of at most 100 rows), where json_each's own rows would
 * count in rows read (browse); throws past the limit rather than letting D1 refuse the statement.
 */
export function boundedMarks(values: readonly unknown[], limit = D1_MAX_BOUND_PARAMETERS): string {
  if (!values.length || values.length > limit) throw new Error(`boundedMarks: ${values.length} values (1 to ${limit} allowed)`);
  return values.map(() => "?").join(", ");
}

/** The values in slices of at most `size` (work done a chunk at a time: bulk approval, the scale seed). */
export function chunks<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/**
 * Raw rows typed from the schema: what a `SELECT *` of a table answers through D1 (snake_case column
 * names, booleans as 0/1), derived from worker/db/schema.ts so a column's name or type has one source.
 */
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

type Columns<T extends SQLiteTable> = T["_"]["columns"];
type Stored<D> = D extends boolean ? number : D;

/** A row of `T` as D1 answers it. */
export type RowOf<T extends SQLiteTable> = {
  [K in keyof Columns<T> as Columns<T>[K]["_"]["name"]]: Columns<T>[K]["_"]["notNull"] extends true ? Stored<Columns<T>[K]["_"]["data"]> : Stored<Columns<T>[K]["_"]["data"]> | null;
};

import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/**
 * A drizzle client on a D1 binding (never a module singleton). Made once per request by
 * middleware/d1-session.ts (`c.var.db`, which routes pass to services and queries) and once per run
 * by work outside a request (the cron's housekeeping, the seed, a socket upgrade in index.ts).
 */
export function createDb(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}

export type Db = ReturnType<typeof createDb>;

/**
 * The header that carries a D1 Sessions API bookmark both ways: answers to requests that touched the
 * database carry the session's newest bookmark; a request carrying one reads a copy at least that
 * recent (middleware/d1-session.ts; the SPA sends it back for a while after its own writes).
 */
export const D1_BOOKMARK_HEADER = "x-d1-bookmark";

/**
 * A D1 session (`DB.withSession(...)`) usable wherever a D1Database is expected: under the request's
 * drizzle handle (`c.var.db`; drizzle only calls prepare and batch) and as the request's `env.DB`. A session has no `exec`
 * or `dump`: they throw (nothing in a request uses them; migrations and tests use the real binding).
 * `withSession` starts a new session on the real binding.
 */
/** The binding under each session adapter, so per-isolate caches outlive the request (`bindingOf`). */
const bindings = new WeakMap<D1Database, D1Database>();

/** The D1 binding a handle's client reads through: the binding itself, or the one under a request's session. */
export const bindingOf = (d1: D1Database): D1Database => bindings.get(d1) ?? d1;

export function sessionAsD1(session: D1DatabaseSession, binding: D1Database): D1Database {
  const unsupported = (name: string) => () => Promise.reject(new Error(`D1 ${name}() is not available on a request's D1 session (middleware/d1-session.ts); use the binding outside a request`));
  const adapter: D1Database = {
    prepare: (query) => session.prepare(query),
    batch: (statements) => session.batch(statements),
    exec: unsupported("exec"),
    dump: unsupported("dump"),
    withSession: (constraintOrBookmark) => binding.withSession(constraintOrBookmark),
  };
  bindings.set(adapter, binding);
  return adapter;
}

/**
 * A handle that reads and writes on the primary: a request's D1 session may read a replica
 * (middleware/d1-session.ts), so a read that must see the newest write (a unique index's winner) uses this.
 * A binding without sessions (a test's stand-in) has only the primary: the handle itself.
 */
export function primaryOf(db: Db): Db {
  const client = db.$client;
  return typeof client.withSession === "function" ? drizzle(sessionAsD1(client.withSession("first-primary"), client), { schema }) : db;
}

/**
 * Rows read by one request, counted from D1's `meta.rows_read` (development only: the request asks with
 * ROWS_READ_REQUEST_HEADER and the answer carries ROWS_READ_HEADER; middleware/d1-session.ts). The tests
 * and the bench compare it at 20 and at 20,000 listings: an answer's reads never grow with a table.
 */
export const ROWS_READ_REQUEST_HEADER = "x-count-rows-read";
export const ROWS_READ_HEADER = "x-d1-rows-read";

export interface RowsReadMeter {
  rowsRead: number;
}

type Meta = { meta?: { rows_read?: number } };

/** A statement that adds what it reads to the meter; `inner` is the statement D1's batch takes. */
class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly meter: RowsReadMeter,
    private readonly query: string,
  ) {}
  private count<R extends Meta>(result: R): R {
    this.meter.rowsRead += result.meta?.rows_read ?? 0;
    return result;
  }
  bind(...values: unknown[]) {
    return new MeteredStatement(this.inner.bind(...values), this.meter, this.query);
  }
  async all<T>() {
    return this.count(await this.inner.all<T>());
  }
  async run<T>() {
    return this.count(await this.inner.run<T>());
  }
  async first<T>(column?: string): Promise<T | null> {
    const row = (this.count(await this.inner.all<Record<string, unknown>>()).results[0] ?? null) as Record<string, unknown> | null;
    return (row && column !== undefined ? row[column] : row) as T | null;
  }
  /**
   * D1's raw() answers no meta: a read is read again through all() for its count (the meter is for
   * tests and the bench, never production); a write (INSERT ... RETURNING) is answered from all(), its
   * rows as arrays in column order (a table's own columns: no two share a name).
   */
  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    if (/^\s*(select|with)\b/i.test(this.query)) {
      const rows = (options?.columnNames ? await this.inner.raw<T>({ columnNames: true }) : await this.inner.raw<T>()) as T[];
      this.count(await this.inner.all());
      return rows;
    }
    const { results } = this.count(await this.inner.all<Record<string, unknown>>());
    const rows = results.map((r) => Object.values(r)) as T[];
    return options?.columnNames ? ([Object.keys(results[0] ?? {}), ...rows] as T[]) : rows;
  }
}

const innerOf = (statement: D1PreparedStatement) => (statement instanceof MeteredStatement ? statement.inner : statement) as D1PreparedStatement;

function meteredSession(session: Pick<D1DatabaseSession, "prepare" | "batch">, meter: RowsReadMeter) {
  return {
    prepare: (query: string) => new MeteredStatement(session.prepare(query), meter, query) as unknown as D1PreparedStatement,
    batch: async <T>(statements: D1PreparedStatement[]) => {
      const results = await session.batch<T>(statements.map(innerOf));
      for (const r of results) meter.rowsRead += r.meta?.rows_read ?? 0;
      return results;
    },
  };
}

/** `d1` with every statement's rows read added to `meter` (sessions made from it too). */
export function meteredD1(d1: D1Database, meter: RowsReadMeter): D1Database {
  const adapter: D1Database = {
    ...meteredSession(d1, meter),
    exec: (query) => d1.exec(query),
    dump: () => d1.dump(),
    withSession: (constraintOrBookmark) => {
      const session = d1.withSession(constraintOrBookmark);
      return { ...meteredSession(session, meter), getBookmark: () => session.getBookmark() };
    },
  };
  bindings.set(adapter, bindingOf(d1));
  return adapter;
}

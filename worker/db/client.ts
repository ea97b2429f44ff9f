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

import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** A drizzle client for this request's D1 binding (never a module singleton). */
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
 * A D1 session (`DB.withSession(...)`) usable wherever a D1Database is expected, so the ~20 callers of
 * `env.DB` and drizzle (which only calls prepare and batch) need not change. A session has no `exec`
 * or `dump`: they throw (nothing in a request uses them; migrations and tests use the real binding).
 * `withSession` starts a new session on the real binding.
 */
export function sessionAsD1(session: D1DatabaseSession, binding: D1Database): D1Database {
  const unsupported = (name: string) => () => Promise.reject(new Error(`D1 ${name}() is not available on a request's D1 session (middleware/d1-session.ts); use the binding outside a request`));
  const adapter: D1Database = {
    prepare: (query) => session.prepare(query),
    batch: (statements) => session.batch(statements),
    exec: unsupported("exec"),
    dump: unsupported("dump"),
    withSession: (constraintOrBookmark) => binding.withSession(constraintOrBookmark),
  };
  return adapter;
}

/**
 * One D1 session per request (the Sessions API, so reads can be served by a nearby read replica):
 * a request carrying a valid `x-d1-bookmark` (the SPA sends the one its last write answered) reads
 * data at least that recent; otherwise reads (GET, HEAD) may start on any replica and writes start
 * on the primary. The session replaces `env.DB` for the rest of the request, and `c.var.db` is the
 * request's one drizzle handle on it; the answer carries the session's newest bookmark. The rooms and the cron keep the plain binding. docs/decisions/016.
 */
import type { MiddlewareHandler } from "hono";
import { createDb, D1_BOOKMARK_HEADER, meteredD1, ROWS_READ_HEADER, ROWS_READ_REQUEST_HEADER, sessionAsD1, type RowsReadMeter } from "../db/client";
import type { AppContext } from "../lib/context";

/** A bookmark is a short string of letters, digits and dashes (D1's are hex groups: 8-8-8-32); anything else is ignored. */
const BOOKMARK = /^[0-9A-Za-z-]{1,128}$/;

export function readBookmark(value: string | undefined): string | null {
  return value && BOOKMARK.test(value) ? value : null;
}

export const d1Session: MiddlewareHandler<AppContext> = async (c, next) => {
  const binding = c.env.DB;
  // In development a request may ask for the rows it read (db/client.ts ROWS_READ_HEADER): tests and the bench.
  const meter: RowsReadMeter | null = c.var.config.isDevelopment && c.req.header(ROWS_READ_REQUEST_HEADER) ? { rowsRead: 0 } : null;
  const metered = (d1: D1Database) => (meter ? meteredD1(d1, meter) : d1);
  // A stand-in binding without sessions (a test's failing fake) is used as it is.
  if (typeof binding.withSession !== "function") {
    c.env = { ...c.env, DB: metered(binding) };
    c.set("db", createDb(c.env));
    await next();
  } else {
    const bookmark = readBookmark(c.req.header(D1_BOOKMARK_HEADER));
    const reading = c.req.method === "GET" || c.req.method === "HEAD";
    const session = binding.withSession(bookmark ?? (reading ? "first-unconstrained" : "first-primary"));
    c.env = { ...c.env, DB: metered(sessionAsD1(session, binding)) };
    c.set("db", createDb(c.env));
    await next();
    const latest = session.getBookmark();
    if (latest) c.res.headers.set(D1_BOOKMARK_HEADER, latest);
  }
  if (meter) c.res.headers.set(ROWS_READ_HEADER, String(meter.rowsRead));
};

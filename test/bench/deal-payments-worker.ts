/**
 * The bench's worker (test/bench/deal-payments.mjs bundles it): the money path of a deal with the
 * product's own code (services/payments) on a D1 binding that counts what each step reads and writes
 * (every statement's D1 meta), timed inside workerd. Steps: checkout (the session, development's test
 * checkout), the payment's webhook (checkout.session.completed signed and applied through the platform
 * entry: the deal paid, overlapping requests declined, the receipt), and the release (the transfer,
 * simulated in development, and its write).
 */
import { createDb } from "../../worker/db/client";
import { getConfig } from "../../worker/env";
import { startDealCheckout } from "../../worker/services/payments/checkout";
import { completeDealTestCheckout } from "../../worker/services/payments/dev-checkout";
import { releaseHeld } from "../../worker/services/payments/release";

interface Counts {
  rows_read: number;
  rows_written: number;
  statements: number;
}

/** A D1 binding whose every statement adds its meta to `counts` (first() is all() read back, to see its meta). */
function counting(db: D1Database, counts: Counts): D1Database {
  const add = (meta: { rows_read?: number; rows_written?: number } | undefined) => {
    counts.rows_read += meta?.rows_read ?? 0;
    counts.rows_written += meta?.rows_written ?? 0;
    counts.statements++;
  };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values)),
      first: async (column?: string) => {
        const r = await stmt.all<Record<string, unknown>>();
        add(r.meta);
        const row = r.results[0] ?? null;
        return column ? (row ? row[column] : null) : row;
      },
      run: async () => {
        const r = await stmt.run();
        add(r.meta);
        return r;
      },
      all: async () => {
        const r = await stmt.all();
        add(r.meta);
        return r;
      },
      raw: (options?: { columnNames?: boolean }) => stmt.raw(options as { columnNames: true }),
      inner: stmt,
    };
    return wrapped as unknown as D1PreparedStatement;
  };
  return {
    prepare: (sql: string) => wrap(db.prepare(sql)),
    batch: async (statements: D1PreparedStatement[]) => {
      const results = await db.batch(statements.map((s) => (s as unknown as { inner: D1PreparedStatement }).inner ?? s));
      for (const r of results) add(r.meta);
      return results;
    },
    exec: (sql: string) => db.exec(sql),
    dump: () => db.dump(),
    // No withSession: primaryOf() then reads through this handle (every read is counted).
  } as unknown as D1Database;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const counts: Counts = { rows_read: 0, rows_written: 0, statements: 0 };
    const benchEnv = { ...env, DB: counting(env.DB, counts) } as Env;
    const db = createDb(benchEnv);
    const config = getConfig(env);
    const tasks: Promise<unknown>[] = [];
    const fx = { env: benchEnv, config, defer: (t: Promise<unknown>) => void tasks.push(t) };
    const started = performance.now();
    let result: unknown;
    switch (url.pathname) {
      case "/checkout":
        result = await startDealCheckout(db, fx, { id: url.searchParams.get("renter")! }, url.searchParams.get("deal")!, "http://bench", null, { ip: null, userAgent: null });
        break;
      case "/pay":
        result = await completeDealTestCheckout(db, benchEnv, config, url.searchParams.get("session")!);
        break;
      case "/release":
        result = (await releaseHeld(db, fx, url.searchParams.get("deal")!, Date.parse(url.searchParams.get("at")!)))?.status;
        break;
      default:
        return new Response("ok");
    }
    const ms = performance.now() - started;
    // The emails and room events after the answer (not in the step's time, but in its rows).
    const before = { ...counts };
    await Promise.allSettled(tasks);
    return Response.json({ result, ms, step: before, with_followups: counts });
  },
};

/**
 * Per-account throttle of failed sign-ins and failed code checks: 10 failures a minute, then
 * 429 {detail, retry_after} until the minute ends. A success does not count.
 *
 * Every attempt is counted atomically *before* the password or code is checked (so 30 parallel
 * guesses cannot all slip under the limit), and a success takes its count back. Counts live in D1
 * under a hash of the account, never the address itself.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { authThrottle } from "../db/schema";
import { sha256Hex } from "../lib/encoding";
import { tooManyRequests } from "../lib/errors";

export const ACCOUNT_FAILURES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

export type ThrottledAction = "login" | "code";

export interface CountedAttempt {
  key: string;
  windowStart: number;
}

/** Counts one attempt on the account, or throws 429 when it has used up this minute's failures. */
export async function countAttempt(db: Db, action: ThrottledAction, email: string, now = Date.now()): Promise<CountedAttempt> {
  const key = await sha256Hex(`${action}:${email}`);
  const windowStart = now - (now % WINDOW_MS);
  const [row] = await db
    .insert(authThrottle)
    .values({ key, windowStart, failures: 1 })
    .onConflictDoUpdate({ target: [authThrottle.key, authThrottle.windowStart], set: { failures: sql`${authThrottle.failures} + 1` } })
    .returning({ failures: authThrottle.failures });
  if ((row?.failures ?? 0) > ACCOUNT_FAILURES_PER_MINUTE) {
    throw tooManyRequests(Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)), "Too many attempts. Please wait a minute and try again.");
  }
  return { key, windowStart };
}

/** A successful attempt does not count against the account. */
export async function forgiveAttempt(db: Db, attempt: CountedAttempt): Promise<void> {
  await db
    .update(authThrottle)
    .set({ failures: sql`max(${authThrottle.failures} - 1, 0)` })
    .where(and(eq(authThrottle.key, attempt.key), eq(authThrottle.windowStart, attempt.windowStart)));
}

/** For the cron: windows that ended are of no use. */
export const deleteEndedWindows = (db: Db, now: number) => db.delete(authThrottle).where(lt(authThrottle.windowStart, now - WINDOW_MS));

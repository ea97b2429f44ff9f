/**
 * Throttles of failed sign-ins and failed code checks (docs/decisions/010), built so a guesser cannot
 * lock the owner out:
 * - per account *and* address (IPv6 by /64): 10 failures a minute, then 429 for that address only, so
 *   an attacker elsewhere never blocks the owner's own network;
 * - per account, sign-ins only, per UTC day: the first 20 failures are free, then each further attempt
 *   waits 2^(f-19) seconds after the last one (f: failures so far today), capped at 15 minutes. That
 *   bounds guessing at about 123 passwords a day per account whatever the number of addresses
 *   (20 + 9 on the doubling waits of 2 s to 512 s + 94 more at 15 minutes). An owner caught by it signs
 *   in with an emailed code (auth/send-sign-in-code, auth/login-with-code), which it never blocks.
 *
 * Every attempt is counted atomically *before* the password or code is checked (so 30 parallel
 * guesses cannot all slip under a limit), and a success takes its counts back. Counts live in D1
 * under a SHA-256 of action, account (and address), never the address itself.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { authThrottle } from "../db/schema";
import { sha256Hex } from "../lib/encoding";
import { tooManyRequests } from "../lib/errors";

export const PAIR_FAILURES_PER_MINUTE = 10;
export const DAILY_FREE_FAILURES = 20;
export const BACKOFF_CAP_SECONDS = 15 * 60;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What a throttled owner reads: the emailed code always gets them in. */
export const THROTTLED_FROM_ADDRESS = "Too many attempts from this network. Please wait a minute, or sign in with an emailed code.";
export const throttledAccount = (seconds: number) =>
  `Too many failed sign-ins on this account today. Sign in with an emailed code, or try your password again in ${
    seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`
  }.`;

export type ThrottledAction = "login" | "code";

/** Seconds the account waits after its f-th failure of the day (0 within the free failures). */
export function backoffSeconds(failuresToday: number): number {
  if (failuresToday < DAILY_FREE_FAILURES) return 0;
  return Math.min(2 ** Math.min(failuresToday - DAILY_FREE_FAILURES + 1, 20), BACKOFF_CAP_SECONDS);
}

export interface CountedAttempt {
  pair: { key: string; windowStart: number };
  day: { key: string; windowStart: number } | null;
}

/**
 * Counts one attempt on the account from this address, or throws 429 {detail, retry_after}: when the
 * address used up this minute's failures on the account, or (sign-ins) the account is in its back-off.
 * `address` is the throttling key (middleware/rate-limit addressKey).
 */
export async function countAttempt(db: Db, action: ThrottledAction, email: string, address: string, now = Date.now()): Promise<CountedAttempt> {
  const pair = { key: await sha256Hex(`${action}:${email}:${address}`), windowStart: now - (now % MINUTE_MS) };
  const day = action === "login" ? { key: await sha256Hex(`${action}-day:${email}`), windowStart: now - (now % DAY_MS) } : null;
  const d1 = db.$client;
  const countPair = d1
    .prepare(
      `INSERT INTO auth_throttle (key, window_start, failures) VALUES (?1, ?2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1
       RETURNING failures`,
    )
    .bind(pair.key, pair.windowStart);
  // Counted only when the address is within its minute and the account is past its back-off: one
  // statement, so parallel guesses each see the wait the previous one started.
  const countDay = day
    ? d1
        .prepare(
          `INSERT INTO auth_throttle (key, window_start, failures, last_failure_at)
           SELECT ?1, ?2, 1, ?3 WHERE (SELECT failures FROM auth_throttle WHERE key = ?4 AND window_start = ?5) <= ?6
           ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1, last_failure_at = excluded.last_failure_at
             WHERE failures < ?7 OR ?3 >= coalesce(last_failure_at, 0) + min(1 << min(failures - ?7 + 1, 20), ?8) * 1000
           RETURNING failures`,
        )
        .bind(day.key, day.windowStart, now, pair.key, pair.windowStart, PAIR_FAILURES_PER_MINUTE, DAILY_FREE_FAILURES, BACKOFF_CAP_SECONDS)
    : null;
  const [pairResult, dayResult] = await d1.batch<{ failures: number }>(countDay ? [countPair, countDay] : [countPair]);
  const attempt = { pair, day };
  if ((pairResult?.results[0]?.failures ?? 0) > PAIR_FAILURES_PER_MINUTE) {
    throw tooManyRequests(Math.max(1, Math.ceil((pair.windowStart + MINUTE_MS - now) / 1000)), THROTTLED_FROM_ADDRESS);
  }
  if (day && !dayResult?.results.length) {
    // Refused by the back-off: this attempt was not checked, so the address's minute does not keep it.
    await forgive(db, pair);
    const row = await db
      .select({ failures: authThrottle.failures, lastFailureAt: authThrottle.lastFailureAt })
      .from(authThrottle)
      .where(and(eq(authThrottle.key, day.key), eq(authThrottle.windowStart, day.windowStart)))
      .get();
    const waitMs = (row?.lastFailureAt ?? now) + backoffSeconds(row?.failures ?? DAILY_FREE_FAILURES) * 1000 - now;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw tooManyRequests(seconds, throttledAccount(seconds));
  }
  return attempt;
}

const forgive = (db: Db, window: { key: string; windowStart: number }) =>
  db
    .update(authThrottle)
    .set({ failures: sql`max(${authThrottle.failures} - 1, 0)` })
    .where(and(eq(authThrottle.key, window.key), eq(authThrottle.windowStart, window.windowStart)));

/** A successful attempt does not count against the account or the address. */
export async function forgiveAttempt(db: Db, attempt: CountedAttempt): Promise<void> {
  await db.batch([forgive(db, attempt.pair), ...(attempt.day ? [forgive(db, attempt.day)] : [])]);
}

/** For the cron: windows that ended (the longest is a day) are of no use. */
export const deleteEndedWindows = (db: Db, now: number) => db.delete(authThrottle).where(lt(authThrottle.windowStart, now - DAY_MS));

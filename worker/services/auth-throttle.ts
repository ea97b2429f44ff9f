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
import type { Db } from "../db/client";
import { countThrottledAttempt, deleteThrottleWindowsBefore, findThrottleWindow, forgiveThrottledAttempt, type ThrottleWindow } from "../db/queries/auth-throttle";
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
  pair: ThrottleWindow;
  day: ThrottleWindow | null;
}

/**
 * Counts one attempt on the account from this address, or throws 429 {detail, retry_after}: when the
 * address used up this minute's failures on the account, or (sign-ins) the account is in its back-off.
 * `address` is the throttling key (middleware/rate-limit addressKey).
 */
export async function countAttempt(db: Db, action: ThrottledAction, email: string, address: string, now = Date.now()): Promise<CountedAttempt> {
  const pair = { key: await sha256Hex(`${action}:${email}:${address}`), windowStart: now - (now % MINUTE_MS) };
  const day = action === "login" ? { key: await sha256Hex(`${action}-day:${email}`), windowStart: now - (now % DAY_MS) } : null;
  const dayBackoff = day && { ...day, pairLimit: PAIR_FAILURES_PER_MINUTE, freeFailures: DAILY_FREE_FAILURES, capSeconds: BACKOFF_CAP_SECONDS };
  const [pairResult, dayResult] = await countThrottledAttempt(db, pair, dayBackoff, now);
  const attempt = { pair, day };
  if ((pairResult?.results[0]?.failures ?? 0) > PAIR_FAILURES_PER_MINUTE) {
    throw tooManyRequests(Math.max(1, Math.ceil((pair.windowStart + MINUTE_MS - now) / 1000)), THROTTLED_FROM_ADDRESS);
  }
  if (day && !dayResult?.results.length) {
    // Refused by the back-off: this attempt was not checked, so the address's minute does not keep it.
    await forgiveThrottledAttempt(db, pair);
    const row = await findThrottleWindow(db, day);
    const waitMs = (row?.lastFailureAt ?? now) + backoffSeconds(row?.failures ?? DAILY_FREE_FAILURES) * 1000 - now;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw tooManyRequests(seconds, throttledAccount(seconds));
  }
  return attempt;
}

/** A successful attempt does not count against the account or the address. */
export async function forgiveAttempt(db: Db, attempt: CountedAttempt): Promise<void> {
  await db.batch([forgiveThrottledAttempt(db, attempt.pair), ...(attempt.day ? [forgiveThrottledAttempt(db, attempt.day)] : [])]);
}

/** For the cron: windows that ended (the longest is a day) are of no use. */
export const deleteEndedWindows = (db: Db, now: number) => deleteThrottleWindowsBefore(db, now - DAY_MS);

/**
 * Throttles of failed sign-ins and failed code checks (docs/decisions/010), built so a guesser cannot
 * lock the owner out:
 * - per account *and* address (IPv6 by /64): 10 failures a minute, then 429 for that address only, so
 *   an attacker elsewhere never blocks the owner's own network;
 * - per account and address, sign-ins only, per UTC day: the first 20 failures are free, then each
 *   further attempt waits 2^(f-19) seconds after the last one (f: failures so far today), capped at
 *   15 minutes: about 123 passwords a day (20 + 9 on the doubling waits of 2 s to 512 s + 94 more at
 *   15 minutes);
 * - per account, sign-ins from addresses the account never proved itself from, per UTC day: the same
 *   back-off over all of them together, so guessing stays bounded at about 123 passwords a day per
 *   account whatever the number of addresses. A *known* address (one the owner signed in from with
 *   the password or an emailed code in the last 90 days) is exempt from it: guessers elsewhere
 *   cannot spend the owner's budget there. An owner caught on a new network signs in with an emailed
 *   code (auth/send-sign-in-code, auth/login-with-code), which it never blocks.
 *
 * Every attempt is counted atomically *before* the password or code is checked (so 30 parallel
 * guesses cannot all slip under a limit), and a success takes its counts back. Counts live in D1
 * under a SHA-256 of action, account (and address), never the address itself.
 */
import type { Db } from "../db/client";
import {
  countThrottledAttempt,
  deleteKnownAddressesBefore,
  deleteThrottleWindowsBefore,
  findThrottleWindow,
  forgiveThrottledAttempt,
  isKnownAddress,
  rememberKnownAddress,
  type ThrottleWindow,
} from "../db/queries/auth-throttle";
import { sha256Hex } from "../lib/encoding";
import { tooManyRequests } from "../lib/errors";

export const PAIR_FAILURES_PER_MINUTE = 10;
export const DAILY_FREE_FAILURES = 20;
export const BACKOFF_CAP_SECONDS = 15 * 60;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** How long an address the owner proved themselves from stays theirs. */
export const KNOWN_ADDRESS_MS = 90 * DAY_MS;

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
  /** The day windows that counted the attempt (sign-ins): the address's, and the account's from unknown addresses. */
  days: ThrottleWindow[];
}

/** How an address is stored beside an account (the throttling key's SHA-256, never the address). */
const addressHashOf = (address: string) => sha256Hex(address);

/** Whether the account of `email` proved itself from `address` (a throttling key) in the last 90 days. */
export async function isKnownAddressOf(db: Db, email: string, address: string, now = Date.now()): Promise<boolean> {
  return isKnownAddress(db, email, await addressHashOf(address), now - KNOWN_ADDRESS_MS);
}

/** The account proved itself from `address` (its password or an emailed code): from now on a known address. */
export async function rememberAddress(db: Db, userId: string, address: string, now = Date.now()): Promise<void> {
  await rememberKnownAddress(db, userId, await addressHashOf(address), now);
}

/**
 * Counts one attempt on the account from this address, or throws 429 {detail, retry_after}: when the
 * address used up this minute's failures on the account, or (sign-ins) the address's or, from an
 * unknown address, the account's back-off is running. `address` is the throttling key
 * (middleware/rate-limit addressKey).
 */
export async function countAttempt(db: Db, action: ThrottledAction, email: string, address: string, now = Date.now()): Promise<CountedAttempt> {
  const pair = { key: await sha256Hex(`${action}:${email}:${address}`), windowStart: now - (now % MINUTE_MS) };
  const dayStart = now - (now % DAY_MS);
  const days: ThrottleWindow[] = [];
  if (action === "login") {
    days.push({ key: await sha256Hex(`${action}-day:${email}:${address}`), windowStart: dayStart });
    if (!(await isKnownAddressOf(db, email, address, now))) days.push({ key: await sha256Hex(`${action}-day:${email}`), windowStart: dayStart });
  }
  const backoff = { pairLimit: PAIR_FAILURES_PER_MINUTE, freeFailures: DAILY_FREE_FAILURES, capSeconds: BACKOFF_CAP_SECONDS };
  const [pairResult, ...dayResults] = await countThrottledAttempt(
    db,
    pair,
    days.map((day) => ({ ...day, ...backoff })),
    now,
  );
  const counted = days.filter((_, i) => dayResults[i]?.results.length);
  if ((pairResult?.results[0]?.failures ?? 0) > PAIR_FAILURES_PER_MINUTE) {
    throw tooManyRequests(Math.max(1, Math.ceil((pair.windowStart + MINUTE_MS - now) / 1000)), THROTTLED_FROM_ADDRESS);
  }
  const refusedBy = days.find((_, i) => !dayResults[i]?.results.length);
  if (refusedBy) {
    // Refused by a back-off: this attempt was not checked, so no window keeps it.
    await db.batch([forgiveThrottledAttempt(db, pair), ...counted.map((day) => forgiveThrottledAttempt(db, day))]);
    const row = await findThrottleWindow(db, refusedBy);
    const waitMs = (row?.lastFailureAt ?? now) + backoffSeconds(row?.failures ?? DAILY_FREE_FAILURES) * 1000 - now;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw tooManyRequests(seconds, throttledAccount(seconds));
  }
  return { pair, days };
}

/** A successful attempt does not count against the account or the address. */
export async function forgiveAttempt(db: Db, attempt: CountedAttempt): Promise<void> {
  await db.batch([forgiveThrottledAttempt(db, attempt.pair), ...attempt.days.map((day) => forgiveThrottledAttempt(db, day))]);
}

/** For the cron: windows that ended (the longest is a day) are of no use. */
export const deleteEndedWindows = (db: Db, now: number) => deleteThrottleWindowsBefore(db, now - DAY_MS);

/** For the cron: addresses not proved from in 90 days are no longer the owner's. */
export const forgetOldAddresses = (db: Db, now: number) => deleteKnownAddressesBefore(db, now - KNOWN_ADDRESS_MS);

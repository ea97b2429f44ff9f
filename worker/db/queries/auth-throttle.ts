/**
 * Counts of failed sign-ins and code checks (services/auth-throttle.ts has the rules): one row per key
 * (a SHA-256 of action, account and address) and window start (ms since the epoch).
 */
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { authThrottle, knownAddresses, users } from "../schema";

export interface ThrottleWindow {
  key: string;
  windowStart: number;
}

/** The day window's back-off, as numbers the statement compares with (services/auth-throttle.ts). */
export interface DayBackoff {
  /** Failures the address may have in its minute for the day window to count this one. */
  pairLimit: number;
  freeFailures: number;
  capSeconds: number;
}

/**
 * Counts one attempt in the address's minute window and (sign-ins) the day windows, in one batch.
 * A day window counts it only while the address is within its minute's limit and the window is past
 * its back-off (2^(f - free + 1) s after the last failure, capped): one statement each, so parallel
 * guesses each see the wait the previous one started. Each result holds `failures` when the window
 * counted the attempt, and no row when a day window refused it.
 */
export function countThrottledAttempt(db: Db, pair: ThrottleWindow, days: (ThrottleWindow & DayBackoff)[], now: number) {
  const d1 = db.$client;
  const countPair = d1
    .prepare(
      `INSERT INTO auth_throttle (key, window_start, failures) VALUES (?1, ?2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1
       RETURNING failures`,
    )
    .bind(pair.key, pair.windowStart);
  const countDays = days.map((day) =>
    d1
      .prepare(
        `INSERT INTO auth_throttle (key, window_start, failures, last_failure_at)
         SELECT ?1, ?2, 1, ?3 WHERE (SELECT failures FROM auth_throttle WHERE key = ?4 AND window_start = ?5) <= ?6
         ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1, last_failure_at = excluded.last_failure_at
           WHERE failures < ?7 OR ?3 >= coalesce(last_failure_at, 0) + min(1 << min(failures - ?7 + 1, 20), ?8) * 1000
         RETURNING failures`,
      )
      .bind(day.key, day.windowStart, now, pair.key, pair.windowStart, day.pairLimit, day.freeFailures, day.capSeconds),
  );
  return d1.batch<{ failures: number }>([countPair, ...countDays]);
}

export const findThrottleWindow = (db: Db, window: ThrottleWindow) =>
  db
    .select({ failures: authThrottle.failures, lastFailureAt: authThrottle.lastFailureAt })
    .from(authThrottle)
    .where(and(eq(authThrottle.key, window.key), eq(authThrottle.windowStart, window.windowStart)))
    .get();

/** Takes one attempt back (a success, or one the back-off refused before it was checked). */
export const forgiveThrottledAttempt = (db: Db, window: ThrottleWindow) =>
  db
    .update(authThrottle)
    .set({ failures: sql`max(${authThrottle.failures} - 1, 0)` })
    .where(and(eq(authThrottle.key, window.key), eq(authThrottle.windowStart, window.windowStart)));

/** For the cron: windows that started before `before` (ms) have ended. */
export const deleteThrottleWindowsBefore = (db: Db, before: number) => db.delete(authThrottle).where(lt(authThrottle.windowStart, before));

/** Whether the account of this email proved itself from this address (hash) since `since` (epoch ms). */
export async function isKnownAddress(db: Db, email: string, addressHash: string, since: number): Promise<boolean> {
  const row = await db
    .select({ seen: knownAddresses.lastSeenAt })
    .from(knownAddresses)
    .innerJoin(users, eq(users.id, knownAddresses.userId))
    .where(and(eq(users.email, email), eq(knownAddresses.addressHash, addressHash), gt(knownAddresses.lastSeenAt, since)))
    .get();
  return !!row;
}

export const rememberKnownAddress = (db: Db, userId: string, addressHash: string, now: number) =>
  db
    .insert(knownAddresses)
    .values({ userId, addressHash, lastSeenAt: now })
    .onConflictDoUpdate({ target: [knownAddresses.userId, knownAddresses.addressHash], set: { lastSeenAt: now } });

/** For the cron: addresses not proved from since `before` (epoch ms). */
export const deleteKnownAddressesBefore = (db: Db, before: number) => db.delete(knownAddresses).where(lt(knownAddresses.lastSeenAt, before));

/** One counted window of a usage cap (services/fair-use.ts): its key, start (ms) and the most it counts. */
export interface CapWindow {
  key: string;
  windowStart: number;
  cap: number;
}

/**
 * Counts one use in each window, in order, or stops at the first that is full: one batch, each count a
 * conditional upsert, so parallel uses cannot all pass a check made before them. A window counts only
 * when the one before it counted this very use: each that counts records `marker` (a random number of
 * this call, in `last_failure_at`, which these keys use for nothing else) and the next checks for it.
 * Answers the index of the full window, or null when every window counted the use. The windows before a
 * full one have counted it: the caller takes them back (uncountWindows).
 */
export async function countWithinCaps(db: Db, windows: CapWindow[], marker: number): Promise<number | null> {
  const d1 = db.$client;
  const upsert = `ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1, last_failure_at = excluded.last_failure_at WHERE failures < ?4 RETURNING failures`;
  const results = await d1.batch<{ failures: number }>(
    windows.map((w, i) =>
      i === 0
        ? d1.prepare(`INSERT INTO auth_throttle (key, window_start, failures, last_failure_at) VALUES (?1, ?2, 1, ?3) ${upsert}`).bind(w.key, w.windowStart, marker, w.cap)
        : d1
            .prepare(
              `INSERT INTO auth_throttle (key, window_start, failures, last_failure_at)
               SELECT ?1, ?2, 1, ?3 WHERE (SELECT last_failure_at FROM auth_throttle WHERE key = ?5 AND window_start = ?6) = ?3 ${upsert}`,
            )
            .bind(w.key, w.windowStart, marker, w.cap, windows[i - 1]!.key, windows[i - 1]!.windowStart),
    ),
  );
  const full = results.findIndex((r) => !r.results.length);
  return full < 0 ? null : full;
}

/** Takes one use back from each of these windows (a use a later window refused). */
export const uncountWindows = (db: Db, windows: Pick<CapWindow, "key" | "windowStart">[]) =>
  Promise.all(windows.map((w) => forgiveThrottledAttempt(db, w)));

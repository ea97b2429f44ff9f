/**
 * Applying Stripe's events once, in any order (decision 013), for every feature that takes money:
 * an event id is recorded in the same batch as its effect (stripe_events), so a second delivery
 * changes nothing; and each write reads the row it changes with its version and writes only while the
 * version still is that one (compare-and-set), the batch's last statement moving it on. A write that
 * lost the race (another event, the owner's click, staff, the cron) reads again and retries, at most
 * MAX_ATTEMPTS times, then answers 503 (Stripe delivers again; a person clicks again).
 */
import type { Db } from "../../db/client";
import { insertStripeEvent, isEventApplied } from "../../db/queries/stripe-events";

/** Retries of a write that lost its compare-and-set, before a 503. */
export const MAX_ATTEMPTS = 8;

/** What an attempt returns when its compare-and-set lost: read again and retry. */
export const RETRY = Symbol("retry");

/** Runs `attempt` (given its number, from 0) until it returns something other than RETRY; `busy()` is thrown after MAX_ATTEMPTS. */
export async function untilApplied<T>(busy: () => Error, attempt: (n: number) => Promise<T | typeof RETRY>): Promise<T> {
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    const result = await attempt(n);
    if (result !== RETRY) return result;
  }
  throw busy();
}

/** Whether a guarded batch applied: its last statement (the version's move) changed a row. */
export const applied = (results: D1Result[]) => !!results[results.length - 1]!.meta.changes;

/** An event id already applied (or acknowledged): a repeat delivery changes nothing. */
export const eventAlreadyApplied = (db: Db, eventId: string) => isEventApplied(db, eventId);

/** Records an event that changed nothing of ours, so a repeat is known. */
export const acknowledgeEvent = (db: Db, eventId: string, type: string) => insertStripeEvent(db, eventId, type).onConflictDoNothing();

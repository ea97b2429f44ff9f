/**
 * Stripe's event ids already applied (decision 013), for every feature that takes money: an event id is
 * recorded in the same batch as its effect, so a second delivery fails on the primary key and changes nothing.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { stripeEvents } from "../schema";
import { GUARD, type GuardedStatement } from "./deals";

/** Plain insert (events that concern nothing of ours): a second delivery fails on the primary key. */
export const insertStripeEvent = (db: Db, id: string, type: string) => db.insert(stripeEvents).values({ id, type });

export const isEventApplied = async (db: Db, id: string) => !!(await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).get());

/** The event id under a caller's guard (`guard` SQL with its parameters): recorded only with the batch it guards. */
export const insertStripeEventIf = (db: Db, id: string, type: string, guard: string, ...guardParams: unknown[]) =>
  db.$client.prepare(`INSERT INTO stripe_events (id, type) SELECT ?, ? WHERE ${guard}`).bind(id, type, ...guardParams);

/** The event id recorded with its effect on a deal, under the deal's version (a repeat fails the batch on the key). */
export const dealStripeEventStatement = (eventId: string, type: string): GuardedStatement => ({
  sql: `INSERT INTO stripe_events (id, type) SELECT ?, ? WHERE ${GUARD}`,
  params: [eventId, type],
});

/** Push subscriptions and the notices a push stands for (docs/decisions/027). */
import { and, asc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { inValues } from "../bounded";
import type { Db } from "../client";
import { pushNotices, pushSubscriptions } from "../schema";
import { newId } from "../../lib/ids";

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type PushNoticeRow = typeof pushNotices.$inferSelect;

/**
 * Stores a subscription for the user and drops their oldest past `max`. The same endpoint again is the
 * caller's own (its keys updated), or another account's with the same keys (a shared browser, now signed
 * in as someone else: the subscription moves to the caller, as new), or another account's with other keys:
 * refused, "conflict" (whoever knows an endpoint must not redirect someone's notifications). One
 * statement, so two registrations at once cannot both take it.
 */
export async function upsertSubscription(db: Db, userId: string, endpoint: string, p256dh: string, auth: string, max: number): Promise<"created" | "updated" | "conflict"> {
  const id = newId();
  const row = await db.$client
    .prepare(
      `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (endpoint) DO UPDATE SET
         user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, not_before = NULL,
         created_at = CASE WHEN push_subscriptions.user_id = excluded.user_id THEN push_subscriptions.created_at ELSE excluded.created_at END
       WHERE push_subscriptions.user_id = excluded.user_id OR (push_subscriptions.p256dh = excluded.p256dh AND push_subscriptions.auth = excluded.auth)
       RETURNING id`,
    )
    .bind(id, userId, endpoint, p256dh, auth)
    .first<{ id: string }>();
  if (!row) return "conflict";
  const rows = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  const extra = rows.slice(0, Math.max(0, rows.length - max)).map((r) => r.id);
  if (extra.length) await db.delete(pushSubscriptions).where(inValues(pushSubscriptions.id, extra));
  return row.id === id ? "created" : "updated";
}

export const deleteSubscriptionOf = (db: Db, userId: string, endpoint: string) =>
  db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));

export const deleteSubscription = (db: Db, id: string) => db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));

export const subscriptionsOf = (db: Db, userId: string) => db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).all();

export const holdSubscription = (db: Db, id: string, notBeforeIso: string) => db.update(pushSubscriptions).set({ notBefore: notBeforeIso }).where(eq(pushSubscriptions.id, id));

export const findNotice = async (db: Db, userId: string, topic: string): Promise<PushNoticeRow | null> =>
  (await db.select().from(pushNotices).where(and(eq(pushNotices.userId, userId), eq(pushNotices.topic, topic))).get()) ?? null;

export const insertNotice = (db: Db, values: typeof pushNotices.$inferInsert) => db.insert(pushNotices).values(values).onConflictDoNothing();

/** The topic was read (or answered): the next event in it may push again. */
export const clearNotice = (db: Db, userId: string, topic: string) => db.delete(pushNotices).where(and(eq(pushNotices.userId, userId), eq(pushNotices.topic, topic)));

export const heldNotices = (db: Db) => db.select().from(pushNotices).where(eq(pushNotices.held, true)).orderBy(asc(pushNotices.userId), asc(pushNotices.createdAt)).all();

/** After the summary went: no longer held; the fallback email (if any) counts from now. */
export const releaseNotices = (db: Db, userId: string, sentAtIso: string, emailDueIso: string) =>
  db
    .update(pushNotices)
    .set({ held: false, sentAt: sentAtIso, emailDueAt: sql`CASE WHEN ${pushNotices.emailDueAt} IS NULL THEN NULL ELSE ${emailDueIso} END` })
    .where(and(eq(pushNotices.userId, userId), eq(pushNotices.held, true)));

export const noticesDueForEmail = (db: Db, nowIso: string) =>
  db
    .select()
    .from(pushNotices)
    .where(and(eq(pushNotices.held, false), isNotNull(pushNotices.emailDueAt), lte(pushNotices.emailDueAt, nowIso)))
    .all();

export const emailDone = (db: Db, userId: string, topic: string) =>
  db.update(pushNotices).set({ emailDueAt: null }).where(and(eq(pushNotices.userId, userId), eq(pushNotices.topic, topic)));

/** Subscriptions that may be posted to now (no Retry-After still running). */
export const sendable = (rows: PushSubscriptionRow[], nowIso: string) => rows.filter((r) => r.notBefore === null || r.notBefore <= nowIso);

/** The development mailbox (dev_emails): every email development would have sent. */
import { count, desc, eq, gt } from "drizzle-orm";
import { inValues } from "../bounded";
import type { Db } from "../client";
import { devEmails, devPendingNotices } from "../schema";

export type DevEmailRow = typeof devEmails.$inferSelect;

export const insertDevEmail = (db: Db, values: typeof devEmails.$inferInsert) => db.insert(devEmails).values(values);

/** Newest first (at most `limit`), all of them or those to one address. */
export const devEmailsTo = (db: Db, to: string | undefined, limit: number) =>
  db
    .select()
    .from(devEmails)
    .where(to === undefined ? undefined : eq(devEmails.to, to))
    .orderBy(desc(devEmails.createdAt), desc(devEmails.id))
    .limit(limit);

/** Notice messages just queued (development): the mailbox waits for them (docs/decisions/037). */
export const markNoticesPending = (db: Db, ids: string[]) => (ids.length ? db.insert(devPendingNotices).values(ids.map((id) => ({ id }))).onConflictDoNothing() : Promise.resolve());

/** A notice message tried (delivered or failed): no longer waited for. */
export const noticeTried = (db: Db, ids: string[]) => (ids.length ? db.delete(devPendingNotices).where(inValues(devPendingNotices.id, ids)) : Promise.resolve());

/** How many queued since `since` are still untried. */
export const pendingNoticeCount = async (db: Db, since: string) =>
  (await db.select({ n: count() }).from(devPendingNotices).where(gt(devPendingNotices.createdAt, since)).get())?.n ?? 0;

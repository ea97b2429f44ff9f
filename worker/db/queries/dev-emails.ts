/** The development mailbox (dev_emails): every email development would have sent. */
import { desc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { devEmails } from "../schema";

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

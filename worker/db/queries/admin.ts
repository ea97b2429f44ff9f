/** Staff reads: the audit log and site counts; deletes by table. */
import type { AuditAction } from "../../contract/audit";
import { count, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../../lib/ids";
import { adminAudit, conversations, feedback, listings, messages, reports, users, verificationRequests } from "../schema";
import { awaitingSafetyReview } from "./safety";

export const recentAudit = (db: Db) => db.select().from(adminAudit).orderBy(desc(adminAudit.createdAt)).limit(200);

/**
 * Totals, sign-ups per day since `since` (days without sign-ups are absent), and what waits for staff:
 * each queue counted on its own tab's condition (verification requests pending, listings pending
 * review, open reports, conversations flagged since their last review).
 */
export async function siteCounts(db: Db, since: string) {
  const [[u], [l], [conv], [msg], growth, [ids], [pendingListings], [openReports], [flags]] = await db.batch([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(listings),
    db.select({ n: count() }).from(conversations),
    db.select({ n: count() }).from(messages),
    db
      .select({ day: sql<string>`substr(${users.createdAt}, 1, 10)`, n: count() })
      .from(users)
      .where(gte(users.createdAt, since))
      .groupBy(sql`substr(${users.createdAt}, 1, 10)`),
    db.select({ n: count() }).from(verificationRequests).where(eq(verificationRequests.status, "pending")),
    db.select({ n: count() }).from(listings).where(eq(listings.verificationStatus, "pending")),
    db.select({ n: count() }).from(reports).where(eq(reports.status, "open")),
    db.select({ n: count() }).from(conversations).where(awaitingSafetyReview()),
  ]);
  return {
    users: u?.n ?? 0,
    listings: l?.n ?? 0,
    conversations: conv?.n ?? 0,
    messages: msg?.n ?? 0,
    growth,
    queues: { pending_ids: ids?.n ?? 0, pending_listings: pendingListings?.n ?? 0, open_reports: openReports?.n ?? 0, safety_flags: flags?.n ?? 0 },
  };
}

/** Deletes one row of a table without files of its own; true when it existed. */
export async function deletePlainRow(db: Db, table: "feedback" | "conversations" | "messages", id: string): Promise<boolean> {
  const target = { feedback, conversations, messages }[table];
  const res = await db.delete(target).where(eq(target.id, id));
  return !!res.meta.changes;
}

/**
 * An audit entry only if the statement just before it in the same db.batch changed a row (SQLite's
 * `changes()` counts that statement's own rows, not its triggers'): a guarded decision that did not
 * apply leaves no entry (two reviewers at once, one decision in the log).
 */
export const auditIfChanged = (db: Db, actor: string, action: AuditAction, table: string | null, id: string | null, details?: unknown) =>
  // Every column in the table's order (an INSERT ... SELECT names them all).
  db.insert(adminAudit).select(
    sql`SELECT ${newId()}, ${actor}, ${action}, ${table}, ${id}, ${details === undefined ? null : JSON.stringify(details)}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE changes() > 0`,
  );

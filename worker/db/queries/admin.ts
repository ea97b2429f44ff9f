/** Staff reads: the audit log and site counts; deletes by table. */
import type { AuditAction } from "../../contract/audit";
import { desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../../lib/ids";
import { adminAudit, conversations, feedback, messages, signupsByDay, siteCounts } from "../schema";

export const recentAudit = (db: Db) => db.select().from(adminAudit).orderBy(desc(adminAudit.createdAt)).limit(200);

/**
 * Every count staff's dashboard shows, by name (site_counts: kept by triggers, docs/decisions/038), and
 * sign-ups per day since the day `sinceDay` (`YYYY-MM-DD`; days without sign-ups are absent): two
 * primary-key reads, one row per count and per day, whatever the tables hold.
 */
export async function countsAndSignups(db: Db, sinceDay: string) {
  const [counts, growth] = await db.batch([
    db.select().from(siteCounts),
    db.select().from(signupsByDay).where(gte(signupsByDay.day, sinceDay)),
  ]);
  return { counts: new Map(counts.map((c) => [c.name, c.n])), growth };
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

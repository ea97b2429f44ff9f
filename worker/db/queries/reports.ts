/** Reports, blocks and suspension: the statements behind services/reports.ts and services/blocks.ts. */
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { REPORT_REASON_LABELS, type AdminReport, type BlockedUser, type Report, type ReportAction, type ReportReason } from "../../contract/reports";
import { isoNow } from "../../lib/time";
import type { Db } from "../client";
import { blocks, conversations, listings, reports, users } from "../schema";
import { imageUrl } from "../../lib/image-url";

export type ReportRow = typeof reports.$inferSelect;

export const toReport = (r: ReportRow): Report => ({
  id: r.id,
  kind: r.kind as Report["kind"],
  reason: r.reason as ReportReason,
  reason_label: REPORT_REASON_LABELS[r.reason as ReportReason] ?? r.reason,
  details: r.details,
  status: r.status as Report["status"],
  resolution: r.resolution as ReportAction | null,
  resolved_at: r.resolvedAt,
  created_at: r.createdAt,
  listing_id: r.listingId,
  conversation_id: r.conversationId,
  reported_user_id: r.reportedUserId,
});

export const findReport = async (db: Db, id: string): Promise<ReportRow | null> => (await db.select().from(reports).where(eq(reports.id, id)).get()) ?? null;

/** The reporter's open report on this target (a listing, or a user when there is no listing), if any. */
export async function findOpenReport(db: Db, reporterId: string, target: { listingId: string } | { userId: string }): Promise<ReportRow | null> {
  const on =
    "listingId" in target
      ? and(eq(reports.kind, "listing"), eq(reports.listingId, target.listingId))
      : and(eq(reports.kind, "user"), eq(reports.reportedUserId, target.userId));
  return (await db.select().from(reports).where(and(eq(reports.reporterId, reporterId), eq(reports.status, "open"), on)).get()) ?? null;
}

export const insertReport = (db: Db, values: typeof reports.$inferInsert) => db.insert(reports).values(values).returning();

/** Resolves a report only while it is open (two staff, or a retry, cannot resolve it twice). */
export const resolveReportRow = (db: Db, id: string, action: ReportAction, now: string) =>
  db.update(reports).set({ status: "resolved", resolution: action, resolvedAt: now }).where(and(eq(reports.id, id), eq(reports.status, "open")));

interface AdminReportRow {
  id: string;
  reporter_id: string;
  kind: string;
  listing_id: string | null;
  reported_user_id: string;
  conversation_id: string | null;
  reason: string;
  details: string | null;
  status: string;
  resolution: string | null;
  resolved_at: string | null;
  created_at: string;
  reporter_first: string | null;
  reporter_last: string | null;
  reported_first: string | null;
  reported_last: string | null;
  reported_suspended_at: string | null;
  listing_title: string | null;
  open_on_target: number;
}

const nameOf = (first: string | null, last: string | null) => (first === null ? "Deleted user" : `${first} ${last ?? ""}`.trim());

/** Reports of one status, newest first, after the cursor (keyset on created_at, id), one statement. */
export async function reportsPage(db: Db, status: "open" | "resolved", cursor: { c: string; id: string } | null, limit: number): Promise<AdminReport[]> {
  const after = cursor ? "AND (r.created_at, r.id) < (?2, ?3)" : "";
  const { results } = await db.$client
    .prepare(
      `SELECT r.*, ru.first_name AS reporter_first, ru.last_name AS reporter_last,
              tu.first_name AS reported_first, tu.last_name AS reported_last, tu.suspended_at AS reported_suspended_at,
              l.title AS listing_title,
              (SELECT count(*) FROM reports o WHERE o.status = 'open' AND o.kind = r.kind
                 AND (CASE WHEN r.kind = 'listing' THEN o.listing_id = r.listing_id ELSE o.reported_user_id = r.reported_user_id END)) AS open_on_target
         FROM reports r
         LEFT JOIN users ru ON ru.id = r.reporter_id
         LEFT JOIN users tu ON tu.id = r.reported_user_id
         LEFT JOIN listings l ON l.id = r.listing_id
        WHERE r.status = ?1 ${after}
        ORDER BY r.created_at DESC, r.id DESC LIMIT ${Math.floor(limit)}`,
    )
    .bind(...(cursor ? [status, cursor.c, cursor.id] : [status]))
    .all<AdminReportRow>();
  return results.map((r) => ({
    ...toReport({
      id: r.id,
      reporterId: r.reporter_id,
      kind: r.kind,
      listingId: r.listing_id,
      reportedUserId: r.reported_user_id,
      conversationId: r.conversation_id,
      reason: r.reason,
      details: r.details,
      status: r.status,
      resolution: r.resolution,
      resolvedAt: r.resolved_at,
      createdAt: r.created_at,
    }),
    reporter: { id: r.reporter_id, name: nameOf(r.reporter_first, r.reporter_last) },
    reported_user: r.reported_first === null ? null : { id: r.reported_user_id, name: nameOf(r.reported_first, r.reported_last), suspended: !!r.reported_suspended_at },
    listing_title: r.listing_title,
    open_reports_on_target: r.open_on_target,
  }));
}

// ---------------------------------------------------------------------------------------------
// Suspension (statements for one db.batch in services/reports.ts).

export const setSuspended = (db: Db, userId: string, at: string | null) =>
  db
    .update(users)
    .set({ suspendedAt: at, updatedAt: isoNow() })
    .where(and(eq(users.id, userId), at ? isNull(users.suspendedAt) : sql`${users.suspendedAt} IS NOT NULL`));

/** A suspended owner's visible listings leave public view; lifting the suspension brings back exactly those. */
export const setOwnerListingsModeration = (db: Db, userId: string, from: "visible" | "suspended", to: "visible" | "suspended") =>
  db
    .update(listings)
    .set({ moderationStatus: to, updatedAt: isoNow() })
    .where(and(eq(listings.userId, userId), eq(listings.moderationStatus, from)));

// ---------------------------------------------------------------------------------------------
// Blocks.

export const insertBlock = (db: Db, blockerId: string, blockedId: string) => db.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing();

export const deleteBlock = (db: Db, blockerId: string, blockedId: string) => db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));

/** Whether `blockerId` blocked `blockedId`. */
export async function hasBlocked(db: Db, blockerId: string, blockedId: string): Promise<boolean> {
  return !!(await db.select({ b: blocks.blockerId }).from(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId))).get());
}

/** Blocks between two people, both ways, in one query (sending and opening a conversation need both). */
export async function blocksBetween(db: Db, userId: string, otherId: string): Promise<{ byUser: boolean; byOther: boolean }> {
  const rows = await db
    .select({ blocker: blocks.blockerId })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, userId), eq(blocks.blockedId, otherId)), and(eq(blocks.blockerId, otherId), eq(blocks.blockedId, userId))))
    .all();
  return { byUser: rows.some((r) => r.blocker === userId), byOther: rows.some((r) => r.blocker === otherId) };
}

/** The people a user blocked, newest first (a deleted account shows as "Deleted user"). */
export async function blockedUsersOf(db: Db, blockerId: string): Promise<BlockedUser[]> {
  const rows = await db
    .select({ id: blocks.blockedId, at: blocks.createdAt, first: users.firstName, last: users.lastName, avatar: users.avatarKey })
    .from(blocks)
    .leftJoin(users, eq(users.id, blocks.blockedId))
    .where(eq(blocks.blockerId, blockerId))
    .orderBy(desc(blocks.createdAt))
    .limit(500);
  return rows.map((r) => ({ id: r.id, name: nameOf(r.first, r.last), avatar_url: imageUrl(r.avatar), blocked_at: r.at }));
}

/** Whether the two people share a conversation (and, when given, that it is this one). */
export async function haveConversation(db: Db, a: string, b: string, conversationId?: string | null): Promise<boolean> {
  const pair = or(and(eq(conversations.userA, a), eq(conversations.userB, b)), and(eq(conversations.userA, b), eq(conversations.userB, a)));
  const row = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(conversationId ? and(pair, eq(conversations.id, conversationId)) : pair)
    .get();
  return !!row;
}


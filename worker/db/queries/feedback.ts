import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { feedback } from "../schema";

export type FeedbackRow = typeof feedback.$inferSelect;

export const insertFeedback = (db: Db, id: string, email: string, message: string, page: string | null, createdAt: string) =>
  db.insert(feedback).values({ id, email, message, page, createdAt });

/** A staff page's place: created_at and id. */
export interface FeedbackPageKey {
  c: string;
  id: string;
}

/**
 * One page of active or archived feedback, newest first (feedback_archived_created_idx), `limit` after
 * the key; a search: one item by id, or a sender's by email (feedback_email_idx).
 */
export const feedbackListPage = (db: Db, archived: boolean, search: { kind: "id"; id: string } | { kind: "email"; email: string } | null, after: FeedbackPageKey | null, limit: number) =>
  db
    .select()
    .from(feedback)
    .where(
      and(
        eq(feedback.archived, archived),
        search ? (search.kind === "id" ? eq(feedback.id, search.id) : eq(feedback.email, search.email)) : undefined,
        after ? sql`(${feedback.createdAt}, ${feedback.id}) < (${after.c}, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(limit);

export const findFeedback = (db: Db, id: string) => db.select().from(feedback).where(eq(feedback.id, id)).get();

/** Archives one item (one way: an archived item stays archived). */
export const archiveFeedback = (db: Db, id: string, now: string) =>
  db.update(feedback).set({ archived: true, archivedAt: now }).where(and(eq(feedback.id, id), eq(feedback.archived, false)));

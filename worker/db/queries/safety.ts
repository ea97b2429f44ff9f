/**
 * Scam shield's staff queue (docs/decisions/015): conversations with a flagged message that staff have not
 * reviewed since (safety_flagged_at after safety_reviewed_at), and the review itself. The flags are
 * written with the message, in insertMessage (queries/conversations.ts).
 */
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { conversations } from "../schema";

export interface SafetyQueueRow {
  id: string;
  user_a: string;
  user_b: string;
  safety_flagged_at: string;
  safety_reasons: string | null;
  a_first_name: string | null;
  a_last_name: string | null;
  b_first_name: string | null;
  b_last_name: string | null;
}

export interface FlaggedMessageRow {
  id: string;
  conversation_id: string;
  sender_id: string;
  text: string;
  safety_flags: string;
  created_at: string;
}

export interface SafetyCursor {
  t: string;
  id: string;
}

/** Waiting for staff: flagged, and not reviewed since the last flag (SQL over `c`). */
const PENDING_SQL = "c.safety_flagged_at IS NOT NULL AND (c.safety_reviewed_at IS NULL OR c.safety_reviewed_at < c.safety_flagged_at)";

/** Up to `limit` pending conversations, newest flag first, after the cursor, with both names. */
export async function safetyQueuePage(db: Db, cursor: SafetyCursor | null, limit: number): Promise<SafetyQueueRow[]> {
  const after = cursor ? "AND (c.safety_flagged_at, c.id) < (?1, ?2)" : "";
  const { results } = await db.$client
    .prepare(
      `SELECT c.id, c.user_a, c.user_b, c.safety_flagged_at, c.safety_reasons,
              ua.first_name AS a_first_name, ua.last_name AS a_last_name,
              ub.first_name AS b_first_name, ub.last_name AS b_last_name
         FROM conversations c
         LEFT JOIN users ua ON ua.id = c.user_a
         LEFT JOIN users ub ON ub.id = c.user_b
        WHERE ${PENDING_SQL} ${after}
        ORDER BY c.safety_flagged_at DESC, c.id DESC
        LIMIT ${Math.floor(limit)}`,
    )
    .bind(...(cursor ? [cursor.t, cursor.id] : []))
    .all<SafetyQueueRow>();
  return results;
}

/** The newest `perConversation` flagged messages of each conversation, in one statement. */
export async function flaggedMessagesOf(db: Db, conversationIds: string[], perConversation: number): Promise<FlaggedMessageRow[]> {
  if (conversationIds.length === 0) return [];
  const { results } = await db.$client
    .prepare(
      `SELECT id, conversation_id, sender_id, text, safety_flags, created_at FROM (
         SELECT m.*, ROW_NUMBER() OVER (PARTITION BY m.conversation_id ORDER BY m.created_at DESC, m.id DESC) AS n
           FROM messages m
          WHERE m.conversation_id IN (SELECT value FROM json_each(?1)) AND m.safety_flags IS NOT NULL)
        WHERE n <= ${Math.floor(perConversation)}
        ORDER BY created_at, id`,
    )
    .bind(JSON.stringify(conversationIds))
    .all<FlaggedMessageRow>();
  return results;
}

/** The safety state of one conversation, or null when there is no such conversation. */
export const findSafetyState = (db: Db, id: string) =>
  db
    .select({ flaggedAt: conversations.safetyFlaggedAt, reviewedAt: conversations.safetyReviewedAt })
    .from(conversations)
    .where(eq(conversations.id, id))
    .get();

/** PENDING_SQL for drizzle: flagged, and not reviewed since the last flag. */
export const awaitingSafetyReview = () =>
  and(isNotNull(conversations.safetyFlaggedAt), or(isNull(conversations.safetyReviewedAt), lt(conversations.safetyReviewedAt, sql`${conversations.safetyFlaggedAt}`)));

/** Marks a pending conversation reviewed; a guarded update, so a second review changes nothing. */
export const markSafetyReviewed = (db: Db, id: string, now: string) =>
  db
    .update(conversations)
    .set({ safetyReviewedAt: now })
    .where(and(eq(conversations.id, id), awaitingSafetyReview()));

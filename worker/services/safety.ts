/**
 * Scam shield for staff (issue 13): the Safety queue of flagged conversations and their review. The
 * rules are in scam-shield.ts; messaging stores the flags with each message.
 */
import type { Pagination } from "../contract/listings";
import {
  isSafetyKind,
  isScoredFlags,
  parseScamReasons,
  SAFETY_FEEDBACK_TEXTS,
  SAFETY_KIND_LABELS,
  SCAM_REASON_LABELS,
  type SafetyFeedbackResponse,
  type SafetyKind,
  type SafetyQueueItem,
} from "../contract/safety";
import { deleteSafetyFeedback, insertSafetyFeedback, receivedNoticeOfKind, safetyFeedbackOf } from "../db/queries/conversations";
import { apiError } from "../lib/errors";
import { requireConversation } from "./messaging";
import type { Db } from "../db/client";
import { findSafetyState, flaggedMessagesOf, markSafetyReviewed, safetyQueuePage, type SafetyCursor } from "../db/queries/safety";
import { keysetPage } from "../lib/cursor";
import { notFound } from "../lib/errors";
import { isoNow } from "../lib/time";
import { insertAudit } from "../db/queries/audit";

/** Flagged messages shown per conversation in the queue (the newest). */
const MESSAGES_PER_ITEM = 20;

/** Stored JSON reasons, known ones only, in SCAM_REASONS order (bad JSON reads as none). */
export const parseReasons = parseScamReasons;

const nameOf = (first: string | null, last: string | null) => (first === null ? "Deleted user" : `${first} ${last ?? ""}`.trim());

/** One page of the queue, newest flag first. */
export async function safetyQueue(db: Db, cursor: SafetyCursor | null, limit: number): Promise<{ items: SafetyQueueItem[]; pagination: Pagination }> {
  const { items: page, pagination } = keysetPage(await safetyQueuePage(db, cursor, limit + 1), limit, (last) => ({ t: last.safety_flagged_at, id: last.id }));
  const ids = page.map((r) => r.id);
  const [messages, feedback] = await Promise.all([flaggedMessagesOf(db, ids, MESSAGES_PER_ITEM), safetyFeedbackOf(db, ids)]);
  const items = page.map((r): SafetyQueueItem => {
    const reasons = parseReasons(r.safety_reasons);
    return {
      conversation_id: r.id,
      flagged_at: r.safety_flagged_at,
      participants: [
        { id: r.user_a, name: nameOf(r.a_first_name, r.a_last_name) },
        { id: r.user_b, name: nameOf(r.b_first_name, r.b_last_name) },
      ],
      reasons,
      reason_labels: reasons.map((x) => SCAM_REASON_LABELS[x]),
      messages: messages
        .filter((m) => m.conversation_id === r.id)
        .map((m) => ({ id: m.id, sender_id: m.sender_id, text: m.text, timestamp: m.created_at, reasons: parseReasons(m.safety_flags), scored: isScoredFlags(m.safety_flags) })),
      feedback: feedback
        .filter((f) => f.conversation_id === r.id && isSafetyKind(f.kind))
        .map((f) => ({
          user_id: f.user_id,
          name: nameOf(f.first_name, f.last_name),
          kind: f.kind as SafetyKind,
          kind_label: SAFETY_KIND_LABELS[f.kind as SafetyKind],
          created_at: f.created_at,
        })),
    };
  });
  return { items, pagination };
}

/**
 * Staff reviewed a flagged conversation: it leaves the queue (until a new flag). 404 for no such
 * conversation or one never flagged; a second review is a no-op (changed false, nothing audited).
 */
export async function reviewSafety(db: Db, actor: string, conversationId: string): Promise<{ changed: boolean }> {
  const state = await findSafetyState(db, conversationId);
  if (!state?.flaggedAt) throw notFound("Flagged conversation not found");
  if (state.reviewedAt && state.reviewedAt >= state.flaggedAt) return { changed: false };
  const [res] = await db.batch([markSafetyReviewed(db, conversationId, isoNow()), insertAudit(db, actor, "safety_review", "conversations", conversationId)]);
  return { changed: !!res.meta.changes };
}

// ---------------------------------------------------------------------------------------------
// "This is fine" (issue 26).

/**
 * A recipient says the notices of `kind` in a conversation are fine: their view of its messages has no
 * notice of that kind any more, and staff see the feedback in the queue (the item stays there). 404 for
 * someone outside the conversation; 403 for a participant who received no message flagged with that
 * kind (the sender of the flagged message cannot vouch for it). A repeat changes nothing (changed false).
 */
export async function quietSafetyNotices(db: Db, userId: string, conversationId: string, kind: SafetyKind): Promise<SafetyFeedbackResponse> {
  const conversation = await requireConversation(db, userId, conversationId);
  if (!(await receivedNoticeOfKind(db, conversation.id, userId, kind))) throw apiError(403, { detail: SAFETY_FEEDBACK_TEXTS.noNotice });
  const changed = await insertSafetyFeedback(db, conversation.id, userId, kind);
  return { success: true, kind, quieted: true, changed };
}

/** Undo: the notices of `kind` show again for this user. 404 for someone outside the conversation. */
export async function unquietSafetyNotices(db: Db, userId: string, conversationId: string, kind: SafetyKind): Promise<SafetyFeedbackResponse> {
  const conversation = await requireConversation(db, userId, conversationId);
  const changed = await deleteSafetyFeedback(db, conversation.id, userId, kind);
  return { success: true, kind, quieted: false, changed };
}

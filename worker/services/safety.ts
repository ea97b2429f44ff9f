/**
 * Scam shield for staff: the Safety queue of flagged conversations and their review, and the
 * recipients' "This is fine" (decision 015). The rules are in scam-shield.ts; messaging stores the flags
 * with each message.
 */
import type { Pagination } from "../contract/listings";
import {
  isSafetyKind,
  isScoredFlags,
  parseScamReasons,
  reasonsOfKind,
  SAFETY_FEEDBACK_TEXTS,
  SAFETY_KIND_LABELS,
  SCAM_REASON_LABELS,
  type SafetyFeedbackResponse,
  type SafetyKind,
  type SafetyQueueItem,
} from "../contract/safety";
import { deleteSafetyFeedback, insertSafetyFeedback, messageInConversation, safetyFeedbackOf } from "../db/queries/conversations";
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
          message_id: f.message_id,
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
// "This is fine" (decision 015).

/**
 * A recipient says the notice of `kind` under one message is fine: their view has no notice of that
 * kind on it, nor on that sender's later messages whose reasons of that kind it had too (a new pattern
 * or a more serious kind still shows; `noticeKindAfter`), and staff see the feedback in the queue (the
 * item stays there). 404 for someone outside the conversation or a message not in it; 403 for the
 * sender of the message or a message without a reason of that kind. A repeat changes nothing.
 */
export async function quietSafetyNotice(db: Db, userId: string, conversationId: string, messageId: string, kind: SafetyKind): Promise<SafetyFeedbackResponse> {
  const conversation = await requireConversation(db, userId, conversationId);
  const message = await messageInConversation(db, conversation.id, messageId);
  if (!message) throw notFound(SAFETY_FEEDBACK_TEXTS.noMessage);
  if (message.senderId === userId || reasonsOfKind(parseReasons(message.safetyFlags), kind).length === 0) {
    throw apiError(403, { detail: SAFETY_FEEDBACK_TEXTS.noNotice });
  }
  const changed = await insertSafetyFeedback(db, conversation.id, userId, messageId, kind);
  return { success: true, kind, message_id: messageId, quieted: true, changed };
}

/** Undo: that notice shows again for this user. 404 for someone outside the conversation. */
export async function unquietSafetyNotice(db: Db, userId: string, conversationId: string, messageId: string, kind: SafetyKind): Promise<SafetyFeedbackResponse> {
  const conversation = await requireConversation(db, userId, conversationId);
  const changed = await deleteSafetyFeedback(db, conversation.id, userId, messageId, kind);
  return { success: true, kind, message_id: messageId, quieted: false, changed };
}

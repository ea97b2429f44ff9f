/**
 * Scam shield for staff (issue 13): the Safety queue of flagged conversations and their review. The
 * rules are in scam-shield.ts; messaging stores the flags with each message.
 */
import type { Pagination } from "../contract/listings";
import { isScamReason, SCAM_REASON_LABELS, SCAM_REASONS, type SafetyQueueItem, type ScamReason } from "../contract/safety";
import type { Db } from "../db/client";
import { findSafetyState, flaggedMessagesOf, markSafetyReviewed, safetyQueuePage, type SafetyCursor } from "../db/queries/safety";
import { keysetPage } from "../lib/cursor";
import { notFound } from "../lib/errors";
import { isoNow } from "../lib/time";
import { insertAudit } from "../db/queries/audit";

/** Flagged messages shown per conversation in the queue (the newest). */
const MESSAGES_PER_ITEM = 20;

/** Stored JSON reasons, known ones only, in SCAM_REASONS order (bad JSON reads as none). */
export function parseReasons(json: string | null): ScamReason[] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const found = new Set(Array.isArray(parsed) ? parsed.filter(isScamReason) : []);
  return SCAM_REASONS.filter((r) => found.has(r));
}

const nameOf = (first: string | null, last: string | null) => (first === null ? "Deleted user" : `${first} ${last ?? ""}`.trim());

/** One page of the queue, newest flag first. */
export async function safetyQueue(db: Db, cursor: SafetyCursor | null, limit: number): Promise<{ items: SafetyQueueItem[]; pagination: Pagination }> {
  const { items: page, pagination } = keysetPage(await safetyQueuePage(db, cursor, limit + 1), limit, (last) => ({ t: last.safety_flagged_at, id: last.id }));
  const messages = await flaggedMessagesOf(
    db,
    page.map((r) => r.id),
    MESSAGES_PER_ITEM,
  );
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
        .map((m) => ({ id: m.id, sender_id: m.sender_id, text: m.text, timestamp: m.created_at, reasons: parseReasons(m.safety_flags) })),
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

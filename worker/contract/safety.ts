/**
 * Scam shield (issue 13): the reasons a message can match, their labels for staff, the texts people
 * see, and the staff Safety queue's answers. The rules themselves are in worker/services/scam-shield.ts.
 */
import type { Pagination } from "./listings";

/** Every pattern of rental fraud the shield knows, in the order staff read them. */
export const SCAM_REASONS = ["off_platform_payment", "pay_before_viewing", "owner_unavailable", "moves_off_platform"] as const;
export type ScamReason = (typeof SCAM_REASONS)[number];

export const isScamReason = (value: unknown): value is ScamReason => (SCAM_REASONS as readonly unknown[]).includes(value);

/** What staff read in the Safety queue (never shown to the sender or the recipient). */
export const SCAM_REASON_LABELS: Record<ScamReason, string> = {
  off_platform_payment: "Payment off the platform (wire, payment app, gift cards, crypto)",
  pay_before_viewing: "Money before a viewing",
  owner_unavailable: "Owner away or unable to show the place",
  moves_off_platform: "Moving the conversation off CampusNest",
};

/** Under a flagged message, shown to its recipient only. */
export const SAFETY_NOTICE = "Never pay before you have seen the place and signed a lease";
/** At the top of every conversation. */
export const SAFETY_TIP = "Stay safe: keep the conversation and any payment on CampusNest, and never pay before you have seen the place.";
/** The link under the notice and the tip, to the safety page. */
export const SAFETY_LINK_TEXT = "How to spot a scam";

/** Staff's Safety queue: a page size and its limit. */
export const SAFETY_QUEUE_PAGE = 20;
export const SAFETY_QUEUE_PAGE_MAX = 100;

export interface SafetyParticipant {
  id: string;
  /** "Deleted user" once the account is gone. */
  name: string;
}

export interface SafetyFlaggedMessage {
  id: string;
  sender_id: string;
  text: string;
  timestamp: string;
  reasons: ScamReason[];
}

/** A flagged conversation not yet reviewed (or flagged again since its review). */
export interface SafetyQueueItem {
  conversation_id: string;
  flagged_at: string;
  participants: [SafetyParticipant, SafetyParticipant];
  reasons: ScamReason[];
  /** The same reasons as staff read them. */
  reason_labels: string[];
  /** The flagged messages, oldest first (at most the newest 20). */
  messages: SafetyFlaggedMessage[];
}

/** GET admin/safety?limit&last_evaluated_key: newest flag first. */
export interface SafetyQueueResponse {
  conversations: SafetyQueueItem[];
  pagination: Pagination;
}

/** POST admin/safety/{conversationId}/review: changed is false when it was already reviewed. */
export interface SafetyReviewResponse {
  success: true;
  changed: boolean;
}

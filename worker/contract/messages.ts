/**
 * Messaging: the requests the SPA sends and the answers it reads (api-contract "Messages"), shared
 * by the worker, the rooms and the SPA. Real-time events are in party/protocol.ts, which builds on the
 * message defined here (the contract imports nothing outside itself).
 */
import { visibleText, z } from "./zod";
import { LIMITS } from "./limits";
import { MESSAGING_MESSAGES } from "./messaging-rules";
import type { Pagination } from "./listings";
import type { SafetyKind } from "./safety";

/**
 * contract/safety's SAFETY_KINDS, repeated so that this module (loaded by the rooms' socket chunk on
 * every page) does not pull in the safety texts; the types below keep the two lists equal.
 */
const NOTICE_KINDS = ["identity", "link", "keys", "payment", "away", "contact"] as const satisfies readonly SafetyKind[];
/** contract/safety's SAFETY_PAY_INSIDE_STEPS keys, repeated for the same reason. */
const PAY_INSIDE_STEPS = ["request", "wait", "sign", "pay"] as const;
type MissingNoticeKind = Exclude<SafetyKind, (typeof NOTICE_KINDS)[number]>;
export const noticeKindsComplete: [MissingNoticeKind] extends [never] ? true : never = true;

export { MESSAGING_MESSAGES };

export const messageSchema = z.object({
  id: z.string(),
  sender_id: z.string(),
  text: z.string(),
  timestamp: z.string(),
  is_read: z.boolean(),
  conversation_id: z.string(),
  /**
   * Scam shield: this message matched a fraud pattern, so its recipient sees the safety notice. Always
   * false for the sender's own view (the reasons are never sent to either side).
   */
  safety_notice: z.boolean().default(false),
  /**
   * Which notice the recipient sees (contract/safety `safetyKindOf`: the most serious kind of
   * the message's reasons that this viewer has not quieted with "This is fine"), or null for no notice.
   * Always null for the sender; the server always sends it, set exactly when safety_notice is true (a
   * client reading a message without it shows the payment notice for safety_notice, as before).
   */
  safety_kind: z.enum(NOTICE_KINDS).nullable().optional(),
  /**
   * Under a payment notice, to the one who would rent only (docs/decisions/030): the pair's deal's next step
   * inside CampusNest, where the first month is held until move-in: `request` the stay (the listing's
   * page), `wait` for the lister's answer, `sign`, or `pay` (the deal's page). Null when there is no such
   * notice, the viewer is the lister, or the first month is already paid through CampusNest.
   */
  safety_pay_inside: z
    .object({ step: z.enum(PAY_INSIDE_STEPS), deal_id: z.string().nullable(), listing_id: z.string().nullable() })
    .nullable()
    .optional(),
  /**
   * The `Idempotency-Key` the sender sent it with, in the sender's own view only (null for everyone
   * else): the sender's optimistic bubble is matched to its stored message by it.
   */
  client_key: z.string().nullable().optional(),
  /**
   * "text" (also when absent), or "deal": a deal's request card (docs/decisions/026). Its `text` is a readable summary
   * ("Sublease request: Jan 5 - May 20, 2027") for emails and older clients; `deal_id` names the deal,
   * whose live state comes from GET deals/{id} and the room's `{type: "deal", deal}` events.
   */
  kind: z.enum(["text", "deal"]).optional(),
  deal_id: z.string().nullable().optional(),
});
export type Message = z.infer<typeof messageSchema>;

/** Per user: a real conversation never meets it; a script spraying messages does. */
export const MESSAGES_PER_MINUTE = 30;
/** A socket ticket's life: long enough to connect, too short to be worth stealing from a log. */
export const SOCKET_TICKET_TTL_SECONDS = 60;
/** At most one new-message email per conversation and recipient in this window. */
export const MESSAGE_EMAIL_GAP_MS = 15 * 60 * 1000;

export const messageTextSchema = visibleText({ multiline: true, error: MESSAGING_MESSAGES.empty })
  .min(1, MESSAGING_MESSAGES.empty)
  .max(LIMITS.messageMax, MESSAGING_MESSAGES.tooLong);

export const startConversationSchema = z.object({
  participant_id: z.string().trim().min(1, MESSAGING_MESSAGES.cannotContactOwner).max(64),
  listing_id: z.string().trim().min(1).max(64).optional().nullable(),
});
export type StartConversationInput = z.infer<typeof startConversationSchema>;

export const sendMessageSchema = z.object({
  text: messageTextSchema,
  /** The product's client repeats the id from the path; when present it must match. */
  conversation_id: z.string().max(64).optional(),
});
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

/** A conversation, as one participant sees it, plus the listing it started from. */
export interface Conversation {
  id: string;
  participant_id: string;
  /** "Deleted user" once the other person deleted the account. */
  participant_name: string;
  participant_avatar: string | null;
  latest_message_preview: string | null;
  last_message_timestamp: string | null;
  updated_at: string;
  unread_count: number;
  listing_id: string | null;
  listing_title: string | null;
  /** Card-size photo of that listing. */
  listing_photo: string | null;
}

/** GET messages/conversations: newest activity first. */
export interface ConversationsResponse {
  data: Conversation[];
}
/** GET messages/conversations/enriched. */
export interface ConversationPageResponse {
  data: Conversation[];
  pagination: Pagination;
}
/** GET messages/conversations/with/{userId}; POST messages/conversations (201 new, 200 existing). */
export interface ConversationResponse {
  data: Conversation;
}
/** GET messages/conversations/{id}/messages: newest first. */
export interface MessagesResponse {
  messages: Message[];
  pagination: Pagination;
}
/**
 * POST messages/conversations/{id}/send: 201 with the stored message. With an `Idempotency-Key`, a
 * repeat within 24 hours answers the same 201 and message; the key reused for another text or
 * conversation answers 422 (keyReused).
 */
export type SendMessageResponse = Message;
/** POST messages/conversations/{id}/read. */
export interface MarkReadResponse {
  unread_count: 0;
}
/** GET messages/unread-count. */
export interface UnreadCountResponse {
  data: { unread_count: number };
}
/** POST messages/socket-ticket. */
export interface SocketTicketResponse {
  data: { ticket: string; expires_in: number };
}

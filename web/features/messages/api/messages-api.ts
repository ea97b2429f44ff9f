/** The messaging calls (api-contract "Messages") and their query keys. */
import { PAGE_SIZES } from "@contract/constants";
import type {
  Conversation,
  ConversationPageResponse,
  ConversationResponse,
  MarkReadResponse,
  MessagesResponse,
  SendMessageResponse,
} from "@contract/messages";
import type { ConversationDetailResponse } from "@contract/messaging-rules";
import type { SafetyFeedbackResponse, SafetyKind } from "@contract/safety";
import { apiRequest } from "../../../lib/api-client";
import { conversationsRootKey, messagesRootKey, unreadCountKey, unreadCountRootKey } from "../../../lib/unread";

export const messageKeys = {
  all: messagesRootKey,
  conversations: () => conversationsRootKey,
  /** The paged list (enriched: listing title and photo). */
  conversationList: () => [...conversationsRootKey, "list"] as const,
  /** The conversation with one user (GET .../with/{userId}). */
  withUser: (userId: string) => [...conversationsRootKey, "with", userId] as const,
  /** One conversation and whether the viewer may write in it (GET .../conversations/{id}); outside the lists' root. */
  detail: (conversationId: string) => [...messagesRootKey, "detail", conversationId] as const,
  thread: (conversationId: string) => [...messagesRootKey, "thread", conversationId] as const,
  unreadCountRoot: () => unreadCountRootKey,
  unreadCount: (userId: string | null | undefined) => unreadCountKey(userId),
};

const enc = encodeURIComponent;

export const getConversationPage = (cursor: string | null) =>
  apiRequest<ConversationPageResponse>("messages/conversations/enriched", {
    query: { limit: PAGE_SIZES.conversations, last_evaluated_key: cursor },
  });

export const getConversationWith = (userId: string) =>
  apiRequest<ConversationResponse>(`messages/conversations/with/${enc(userId)}`).then((r) => r.data);

/** One conversation, also with someone the viewer blocked (the lists leave those out), and its reply state. */
export const getConversationDetail = (conversationId: string) =>
  apiRequest<ConversationDetailResponse<Conversation>>(`messages/conversations/${enc(conversationId)}`);

export const createConversation = (participantId: string, listingId: string | null) =>
  apiRequest<ConversationResponse>("messages/conversations", {
    method: "POST",
    body: { participant_id: participantId, listing_id: listingId },
  }).then((r) => r.data);

export const getMessagePage = (conversationId: string, cursor: string | null) =>
  apiRequest<MessagesResponse>(`messages/conversations/${enc(conversationId)}/messages`, {
    query: { limit: PAGE_SIZES.messages, last_evaluated_key: cursor },
  });

/** `key` is the send's Idempotency-Key: the same for every retry of one message (lib/unsent.ts). */
export const sendMessage = (conversationId: string, text: string, key: string) =>
  apiRequest<SendMessageResponse>(`messages/conversations/${enc(conversationId)}/send`, {
    method: "POST",
    body: { text, conversation_id: conversationId },
    headers: { "Idempotency-Key": key },
  });

export const markConversationRead = (conversationId: string) =>
  apiRequest<MarkReadResponse>(`messages/conversations/${enc(conversationId)}/read`, { method: "POST" });

/** "This is fine" under the notice of `kind` on one message (decision 015): that message, and its sender repeating that pattern, show it no more for me. */
export const quietSafetyNotice = (conversationId: string, messageId: string, kind: SafetyKind) =>
  apiRequest<SafetyFeedbackResponse>(`messages/conversations/${enc(conversationId)}/safety-feedback`, { method: "POST", body: { kind, message_id: messageId } });

/** Undo of the above. */
export const unquietSafetyNotice = (conversationId: string, messageId: string, kind: SafetyKind) =>
  apiRequest<SafetyFeedbackResponse>(`messages/conversations/${enc(conversationId)}/safety-feedback/${enc(messageId)}/${enc(kind)}`, { method: "DELETE" });

export type { Conversation };

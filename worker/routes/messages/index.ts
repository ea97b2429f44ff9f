/**
 * Messages (api-contract "Messages"): conversations, their messages, sending, reading, the unread
 * count and socket tickets for the rooms. Every conversation route answers 404 to non-participants.
 */
import { z } from "zod";
import { PAGE_SIZES } from "../../contract/constants";
import {
  sendMessageSchema,
  startConversationSchema,
  type ConversationPageResponse,
  type ConversationResponse,
  type ConversationsResponse,
  type MarkReadResponse,
  type MessagesResponse,
  type SendMessageResponse,
  type SocketTicketResponse,
  type UnreadCountResponse,
} from "../../contract/messages";
import { conversationsPage, cursorOf, dismissalsOf, messagesPage, toMessage, unreadCount } from "../../db/queries/conversations";
import { payInsideStep } from "../../services/safety-deals";
import { isSafetyKind, safetyFeedbackSchema, type SafetyFeedbackResponse } from "../../contract/safety";
import { quietSafetyNotice, unquietSafetyNotice } from "../../services/safety";
import { notFound } from "../../lib/errors";
import { createRouter } from "../../lib/context";
import { decodeCursor, keysetPage } from "../../lib/cursor";
import { validationFailed } from "../../lib/errors";
import { idempotencyKeyOf } from "../../lib/idempotency";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import type { ConversationDetailResponse } from "../../contract/messaging-rules";
import type { Conversation } from "../../contract/messages";
import { conversationDetail, conversationWith, issueSocketTicket, markRead, requireConversation, sendMessage, startConversation, type Defer } from "../../services/messaging";

/** GET messages/conversations is one list (newest activity first), bounded like the staff lists. */
const CONVERSATIONS_LIST_MAX = 500;
const PAGE_MAX = 100;

const pageQuery = (defaultSize: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(defaultSize),
    last_evaluated_key: z.string().max(300).optional(),
  });
const conversationCursor = z.object({ t: z.iso.datetime(), id: z.string().min(1).max(64) });
const messageCursor = z.object({ c: z.iso.datetime(), id: z.string().min(1).max(64) });

export const messagesRoutes = createRouter()
  .get("/conversations", async (c) => {
    const user = await requireUser(c);
    return c.json<ConversationsResponse>({ data: await conversationsPage(c.var.db, user.id, null, CONVERSATIONS_LIST_MAX) });
  })

  .get("/conversations/enriched", async (c) => {
    const user = await requireUser(c);
    const { limit, last_evaluated_key } = parseQuery(c, pageQuery(PAGE_SIZES.conversations));
    const cursor = decodeCursor(last_evaluated_key, conversationCursor);
    const { items, pagination } = keysetPage(await conversationsPage(c.var.db, user.id, cursor, limit + 1), limit, cursorOf);
    return c.json<ConversationPageResponse>({ data: items, pagination });
  })

  .get("/conversations/with/:userId", async (c) => {
    const user = await requireUser(c);
    return c.json<ConversationResponse>({ data: await conversationWith(c.var.db, user.id, c.req.param("userId")) });
  })

  // One conversation and whether the caller may write in it: also one with someone
  // the caller blocked, which the lists leave out.
  .get("/conversations/:id", async (c) => {
    const user = await requireUser(c);
    return c.json<ConversationDetailResponse<Conversation>>(await conversationDetail(c.var.db, user, c.req.param("id")));
  })

  .post("/conversations", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const input = await parseJson(c, startConversationSchema);
    const { conversation, created } = await startConversation(c.var.db, user, input);
    return c.json<ConversationResponse>({ data: conversation }, created ? 201 : 200);
  })

  .get("/conversations/:id/messages", async (c) => {
    const user = await requireUser(c);
    const conversation = await requireConversation(c.var.db, user.id, c.req.param("id"));
    const { limit, last_evaluated_key } = parseQuery(c, pageQuery(PAGE_SIZES.messages));
    const cursor = decodeCursor(last_evaluated_key, messageCursor);
    const [rows, dismissed] = await Promise.all([messagesPage(c.var.db, conversation.id, cursor, limit + 1), dismissalsOf(c.var.db, conversation.id, user.id)]);
    const { items, pagination } = keysetPage(rows, limit, (last) => ({ c: last.createdAt, id: last.id }));
    // Under a payment notice, the deal's next step (docs/decisions/030): read once a page, only when one shows.
    const flaggedForMe = items.some((m) => m.safetyFlags && m.senderId !== user.id);
    const payInside = flaggedForMe ? await payInsideStep(c.var.db, conversation, user.id) : null;
    return c.json<MessagesResponse>({ messages: items.map((m) => toMessage(m, user.id, dismissed, payInside)), pagination });
  })

  // "This is fine" under a safety notice: covers that message's notice of that kind for the caller, and
  // the same sender repeating that pattern (decision 015); DELETE takes it back (Undo). Both idempotent.
  .post("/conversations/:id/safety-feedback", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { kind, message_id } = await parseJson(c, safetyFeedbackSchema);
    return c.json<SafetyFeedbackResponse>(await quietSafetyNotice(c.var.db, user.id, c.req.param("id"), message_id, kind));
  })

  .delete("/conversations/:id/safety-feedback/:messageId/:kind", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const kind = c.req.param("kind");
    if (!isSafetyKind(kind)) throw notFound("Unknown notice kind");
    return c.json<SafetyFeedbackResponse>(await unquietSafetyNotice(c.var.db, user.id, c.req.param("id"), c.req.param("messageId"), kind));
  })

  .post("/conversations/:id/send", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "MESSAGE_LIMITER", user.id);
    const id = c.req.param("id");
    const clientKey = idempotencyKeyOf(c);
    const { text, conversation_id } = await parseJson(c, sendMessageSchema);
    if (conversation_id !== undefined && conversation_id !== id) {
      throw validationFailed([{ path: "conversation_id", message: "conversation_id does not match the conversation of the path" }]);
    }
    // A repeated key answers the first send again, with the same 201.
    const { message } = await sendMessage(c.var.db, c.env, c.var.config, defer(c), user, id, text, clientKey);
    return c.json<SendMessageResponse>(message, 201);
  })

  .post("/conversations/:id/read", async (c) => {
    const user = await requireUser(c);
    await markRead(c.var.db, c.env, defer(c), user, c.req.param("id"));
    return c.json<MarkReadResponse>({ unread_count: 0 });
  })

  .get("/unread-count", async (c) => {
    const user = await requireUser(c);
    return c.json<UnreadCountResponse>({ data: { unread_count: await unreadCount(c.var.db, user.id) } });
  })

  .post("/socket-ticket", async (c) => {
    const user = await requireUser(c);
    return c.json<SocketTicketResponse>({ data: await issueSocketTicket(c.var.config, user.id) });
  });

/** The request's waitUntil: work that may finish after the answer. */
function defer(c: { executionCtx: ExecutionContext }): Defer {
  return (task) => c.executionCtx.waitUntil(task);
}

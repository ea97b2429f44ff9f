/**
 * Messaging: starting a conversation, sending, reading, socket tickets, and what follows a write:
 * real-time events to the rooms (party/) and the new-message email to someone who is away.
 *
 * Everything after the write (publishing, the email) runs in the background (`defer`, the request's
 * waitUntil) and never fails the request: a room that cannot be reached is logged (ids only) and the
 * clients' polling catches up.
 */
import { getServerByName } from "partyserver";
import { CLOSE_CODES, type ServerEvent } from "../../party/protocol";
import { MESSAGE_EMAIL_GAP_MS, MESSAGING_MESSAGES, SOCKET_TICKET_TTL_SECONDS, type Conversation, type Message, type StartConversationInput } from "../contract/messages";
import { canMessage, canViewListing, type Actor } from "../contract/policies";
import type { Config } from "../env";
import { createDb, sessionAsD1 } from "../db/client";
import {
  claimMessageEmail,
  conversationIdsOf,
  conversationView,
  findConversationOf,
  findConversationOfPair,
  insertConversation,
  insertMessage,
  markConversationRead,
  otherParticipant,
  setConversationListing,
  toMessage,
  unreadCount,
  findMessageByClientKey,
  type ConversationRow,
  type MessageRow,
} from "../db/queries/conversations";
import { findListingRow } from "../db/queries/listings";
import { hasBlocked } from "../db/queries/reports";
import { REPORT_TEXTS } from "../contract/reports";
import { findUserById, type UserRow } from "../db/queries/users";
import { badRequest, forbidden, isUniqueViolation, notFound, validationFailed } from "../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../lib/idempotency";
import { isoNow } from "../lib/time";
import { log } from "../lib/log";
import { sendEmail } from "./email";
import { newMessageEmail } from "./email-templates";
import { scanMessage } from "./scam-shield";
import { signSocketTicket } from "./tokens";

/** Hands work to the runtime to finish after the answer (ExecutionContext.waitUntil). */
export type Defer = (task: Promise<unknown>) => void;

const CONVERSATION_NOT_FOUND = "Conversation not found";

const actorOf = (user: UserRow): Actor => ({ id: user.id, id_verification_status: user.idVerificationStatus });

// ---------------------------------------------------------------------------------------------
// Rooms.

type RoomKind = "conversation" | "inbox";

const roomOf = (env: Env, kind: RoomKind, name: string) => getServerByName(kind === "conversation" ? env.Conversation : env.Inbox, name);

/** Pushes an event to a room; the number of sockets reached, or null when the room failed (logged). */
export async function publishTo(env: Env, kind: RoomKind, name: string, event: ServerEvent, perUser?: Record<string, ServerEvent>): Promise<number | null> {
  try {
    return await (await roomOf(env, kind, name)).publish(event, perUser);
  } catch (err) {
    log.warn("realtime_publish_failed", { room: kind, event: event.type, error: err instanceof Error ? err.name : "unknown" });
    return null;
  }
}

/** Open sockets of a room, or null when the room could not be asked (logged). */
async function connectionCount(env: Env, kind: RoomKind, name: string): Promise<number | null> {
  try {
    return await (await roomOf(env, kind, name)).connectionCount();
  } catch (err) {
    log.warn("realtime_count_failed", { room: kind, error: err instanceof Error ? err.name : "unknown" });
    return null;
  }
}

async function closeRoom(env: Env, kind: RoomKind, name: string, code: number, reason: string, userId?: string) {
  try {
    await (await roomOf(env, kind, name)).closeAll(code, reason, userId);
  } catch (err) {
    log.warn("realtime_close_failed", { room: kind, error: err instanceof Error ? err.name : "unknown" });
  }
}

/** A deleted conversation: its room's sockets are closed (the clients should not reconnect). */
export const closeConversationRoom = (env: Env, conversationId: string) =>
  closeRoom(env, "conversation", conversationId, CLOSE_CODES.conversationDeleted, "Conversation deleted");

/**
 * A deleted account: its inbox sockets and its sockets in each of its conversations' rooms are
 * closed (the conversations stay for the other person, with the messages shown as from a deleted user).
 */
export async function closeSocketsOfUser(env: Env, userId: string, conversationIds: string[], reason = "Account deleted") {
  await closeRoom(env, "inbox", userId, CLOSE_CODES.accountDeleted, reason);
  const BATCH = 20;
  for (let i = 0; i < conversationIds.length; i += BATCH) {
    await Promise.all(conversationIds.slice(i, i + BATCH).map((id) => closeRoom(env, "conversation", id, CLOSE_CODES.accountDeleted, reason, userId)));
  }
}

/** The ids of a user's conversations (read before the account goes). */
export async function conversationIdsOfUser(env: Env, userId: string): Promise<string[]> {
  return (await conversationIdsOf(createDb(env), userId)).map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Conversations.

/**
 * Starts (or finds) the conversation of the caller and `participant_id`: 400 to oneself, 404 for an
 * unknown or deleted user or a listing the caller cannot see, 422 for a listing of someone else.
 */
export async function startConversation(env: Env, user: UserRow, input: StartConversationInput): Promise<{ conversation: Conversation; created: boolean }> {
  const db = createDb(env);
  if (!canMessage(actorOf(user), input.participant_id)) throw badRequest(MESSAGING_MESSAGES.self);
  const participant = await findUserById(db, input.participant_id);
  if (!participant) throw notFound("User not found");
  // Someone who blocked the caller does not hear from them (issue 13).
  if (await hasBlocked(db, participant.id, user.id)) throw forbidden(REPORT_TEXTS.blockedSend);
  const listingId = input.listing_id ?? null;
  if (listingId) {
    const listing = await findListingRow(env.DB, listingId);
    if (!listing || !canViewListing(user, listing)) throw notFound("Listing not found");
    if (listing.user_id !== user.id && listing.user_id !== participant.id) {
      throw validationFailed([{ path: "listing_id", message: "The listing must belong to you or to the person you message" }]);
    }
  }
  const created = await insertConversation(db, user.id, participant.id, listingId);
  const row = (await findConversationOfPair(db, user.id, participant.id))!;
  // Contacting the same person about another listing: the conversation shows the newest one.
  if (!created && listingId && row.listingId !== listingId) await setConversationListing(db, row.id, listingId);
  return { conversation: (await conversationView(env.DB, user.id, row.id))!, created };
}

/** The caller's conversation with `otherId`, or 404. */
export async function conversationWith(env: Env, userId: string, otherId: string): Promise<Conversation> {
  const row = otherId === userId ? null : await findConversationOfPair(createDb(env), userId, otherId);
  const view = row ? await conversationView(env.DB, userId, row.id) : null;
  if (!view) throw notFound(CONVERSATION_NOT_FOUND);
  return view;
}

/** The conversation if the user takes part in it; 404 for everyone else (and for no such conversation). */
export async function requireConversation(env: Env, userId: string, conversationId: string): Promise<ConversationRow> {
  const row = await findConversationOf(createDb(env), conversationId, userId);
  if (!row) throw notFound(CONVERSATION_NOT_FOUND);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Sending and reading.

/**
 * Stores a message from `sender`, then (in the background) publishes it to the conversation room,
 * the recipient's new unread count to their inbox room, and emails a recipient who is away.
 *
 * With a `clientKey` (the request's Idempotency-Key, api-contract "Retries"): the sender's message
 * already stored under that key within IDEMPOTENCY_WINDOW_MS is answered again and nothing else
 * happens (no second row, push, unread count, email or scam-shield entry); the same key for another
 * conversation or another text is refused (422). Two deliveries at once both try to insert; the unique
 * index lets one in and the other answers the stored row. `created` says whether this call stored it.
 */
export async function sendMessage(
  env: Env,
  config: Config,
  defer: Defer,
  sender: UserRow,
  conversationId: string,
  text: string,
  clientKey: string | null = null,
  now = Date.now(),
): Promise<{ message: Message; created: boolean }> {
  const db = createDb(env);
  const conversation = await requireConversation(env, sender.id, conversationId);
  const claim = clientKey ? { key: clientKey, sinceIso: isoNow(now - IDEMPOTENCY_WINDOW_MS) } : null;
  if (claim) {
    const earlier = await findMessageByClientKey(db, sender.id, claim.key, claim.sinceIso);
    if (earlier) return { message: replayOf(earlier, sender.id, conversation.id, text), created: false };
  }
  const recipient = await findUserById(db, otherParticipant(conversation, sender.id));
  if (!recipient) throw notFound("This user has deleted their account");
  if (await hasBlocked(db, recipient.id, sender.id)) throw forbidden(REPORT_TEXTS.blockedSend);
  let row: MessageRow;
  try {
    // Scam shield: a match is stored and queued for staff, and the message is still delivered.
    row = await insertMessage(db, conversation.id, sender.id, text, scanMessage(text), claim);
  } catch (err) {
    // The same key arrived at the same moment (or the lookup read a replica behind the primary) and
    // its twin was stored first: answer the twin, read from the primary, which has it.
    const twin = claim && isUniqueViolation(err) ? await findMessageByClientKey(primaryDb(env), sender.id, claim.key, claim.sinceIso) : null;
    if (!twin) throw err;
    return { message: replayOf(twin, sender.id, conversation.id, text), created: false };
  }
  const message = toMessage(row, sender.id);
  defer(afterSend(env, config, conversation, sender, recipient, message, toMessage(row, recipient.id)));
  return { message, created: true };
}

/** The database's primary: a request's D1 session may read a replica (middleware/d1-session.ts). */
function primaryDb(env: Env) {
  return typeof env.DB.withSession === "function" ? createDb({ DB: sessionAsD1(env.DB.withSession("first-primary"), env.DB) }) : createDb(env);
}

/** The stored answer to a repeated key, or 422 when the key was used for a different message. */
function replayOf(stored: MessageRow, senderId: string, conversationId: string, text: string): Message {
  if (stored.conversationId !== conversationId || stored.text !== text) {
    throw validationFailed([{ path: "Idempotency-Key", message: MESSAGING_MESSAGES.keyReused }]);
  }
  return toMessage(stored, senderId);
}

async function afterSend(env: Env, config: Config, conversation: ConversationRow, sender: UserRow, recipient: UserRow, message: Message, recipientView: Message) {
  try {
    const db = createDb(env);
    // The sender's sockets get the sender's view (no safety notice), everyone else the recipient's.
    await publishTo(env, "conversation", conversation.id, { type: "message", message: recipientView }, { [sender.id]: { type: "message", message } });
    await publishTo(env, "inbox", recipient.id, { type: "unread", unread_count: await unreadCount(db, recipient.id) });
    if (!recipient.emailOnMessage) return;
    // Someone with the app open sees the message; only the unreachable (or unknown) are emailed.
    const online = await connectionCount(env, "inbox", recipient.id);
    if (online !== null && online > 0) return;
    if (!(await claimMessageEmail(db, conversation, recipient.id, MESSAGE_EMAIL_GAP_MS))) return;
    const url = `${config.publicBaseUrl}/messages?userId=${encodeURIComponent(sender.id)}`;
    await sendEmail(env, config, newMessageEmail(recipient.email, recipient.firstName, sender.firstName, url));
  } catch (err) {
    log.warn("message_followup_failed", { error: err instanceof Error ? err.name : "unknown" });
  }
}

/** Marks the other person's messages read; tells the conversation room and the reader's inbox. */
export async function markRead(env: Env, defer: Defer, reader: UserRow, conversationId: string): Promise<void> {
  const db = createDb(env);
  const conversation = await requireConversation(env, reader.id, conversationId);
  const changed = await markConversationRead(db, conversation.id, reader.id);
  if (!changed) return;
  defer(
    (async () => {
      await publishTo(env, "conversation", conversation.id, { type: "read", conversation_id: conversation.id, reader_id: reader.id });
      const count = await unreadCount(db, reader.id).catch(() => null);
      if (count !== null) await publishTo(env, "inbox", reader.id, { type: "unread", unread_count: count });
    })(),
  );
}

/** A socket ticket: a short-lived JWT that opens the user's rooms and nothing else. */
export async function issueSocketTicket(config: Config, userId: string) {
  return { ticket: await signSocketTicket(config.jwtSecret, userId, SOCKET_TICKET_TTL_SECONDS), expires_in: SOCKET_TICKET_TTL_SECONDS };
}

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
import { MESSAGING_MESSAGES, SOCKET_TICKET_TTL_SECONDS, type Conversation, type Message, type StartConversationInput } from "../contract/messages";
import { messagingRefusal, replyStateOf, type MessagingRefusal, type ReplyState } from "../contract/messaging-rules";
import type { Config } from "../env";
import { primaryOf, type Db } from "../db/client";
import {
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
  dismissalsOf,
  type ConversationRow,
  type MessageRow,
} from "../db/queries/conversations";
import { findListingRow } from "../db/queries/listings";
import { blocksBetween, hasBlocked } from "../db/queries/reports";
import { findUserById, type UserRow } from "../db/queries/users";
import { apiError, isUniqueViolation, notFound, validationFailed } from "../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../lib/idempotency";
import { isoNow } from "../lib/time";
import { log } from "../lib/log";
import { notify } from "./notify";
import { clearNotice } from "../db/queries/push";
import { mentionsLaterMonths, scanForStorage } from "./scam-shield";
import { firstMonthPaid, payInsideStep } from "./safety-deals";
import { signSocketTicket } from "./tokens";

/** Hands work to the runtime to finish after the answer (ExecutionContext.waitUntil). */
export type Defer = (task: Promise<unknown>) => void;

const CONVERSATION_NOT_FOUND = "Conversation not found";

const senderOf = (user: UserRow) => ({ id: user.id, suspended: !!user.suspendedAt });

/** Answers a refusal of the messaging rule (contract/policies) in the API's shape. */
function refuseIf(refusal: MessagingRefusal | null): void {
  if (!refusal) return;
  if (refusal.field) throw validationFailed([{ path: refusal.field, message: refusal.detail }]);
  throw apiError(refusal.status, refusal.code ? { detail: refusal.detail, code: refusal.code } : { detail: refusal.detail });
}

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
async function connectionCount(env: Env, kind: RoomKind, name: string, userId?: string): Promise<number | null> {
  try {
    return await (await roomOf(env, kind, name)).connectionCount(userId);
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

/** The connection ids of one user's open sockets in a room; none when the room cannot be asked (logged). */
export async function openSocketIds(env: Env, socket: { party: string; room: string }, userId: string): Promise<string[]> {
  try {
    return await (await roomOf(env, socket.party === "inbox" ? "inbox" : "conversation", socket.room)).openConnectionIds(userId);
  } catch (err) {
    log.warn("realtime_count_failed", { room: socket.party, error: err instanceof Error ? err.name : "unknown" });
    return [];
  }
}

/** Closes one socket of a room by its connection id (a user's oldest past their limit: services/room-access). */
export async function closeSocket(env: Env, socket: { party: string; room: string; id: string }, code: number, reason: string) {
  try {
    await (await roomOf(env, socket.party === "inbox" ? "inbox" : "conversation", socket.room)).closeConnection(socket.id, code, reason);
  } catch (err) {
    log.warn("realtime_close_failed", { room: socket.party, error: err instanceof Error ? err.name : "unknown" });
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
export async function conversationIdsOfUser(db: Db, userId: string): Promise<string[]> {
  return (await conversationIdsOf(db, userId)).map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Conversations.

/**
 * Starts (or finds) the conversation of the caller and `participant_id`, unless the messaging rule
 * refuses (contract/policies `messagingRefusal`: 400 to oneself, 404 for an unknown or deleted user or a
 * listing the caller cannot see, 403 when blocked, 422 for a listing of a third person).
 */
export async function startConversation(db: Db, user: UserRow, input: StartConversationInput): Promise<{ conversation: Conversation; created: boolean }> {
  const listingId = input.listing_id ?? null;
  const self = input.participant_id === user.id;
  // The facts of the rule, read at once (none when writing to oneself, refused whatever they are).
  const [participant, blocked, listing] = self
    ? [null, false, undefined]
    : await Promise.all([
        findUserById(db, input.participant_id),
        hasBlocked(db, input.participant_id, user.id),
        listingId ? findListingRow(db, listingId) : undefined,
      ]);
  refuseIf(
    messagingRefusal({ act: "start", sender: senderOf(user), recipientId: input.participant_id, recipient: participant, recipientBlockedSender: blocked, listing }),
  );
  if (!participant) throw notFound(MESSAGING_MESSAGES.userNotFound); // refused above: narrows the type
  const created = await insertConversation(db, user.id, participant.id, listingId);
  const row = (await findConversationOfPair(db, user.id, participant.id))!;
  // Contacting the same person about another listing: the conversation shows the newest one.
  if (!created && listingId && row.listingId !== listingId) await setConversationListing(db, row.id, listingId);
  return { conversation: (await conversationView(db, user.id, row.id))!, created };
}

/** The caller's conversation with `otherId`, or 404. */
export async function conversationWith(db: Db, userId: string, otherId: string): Promise<Conversation> {
  const row = otherId === userId ? null : await findConversationOfPair(db, userId, otherId);
  const view = row ? await conversationView(db, userId, row.id, { listed: true }) : null;
  if (!view) throw notFound(CONVERSATION_NOT_FOUND);
  return view;
}

/**
 * One conversation as `userId` sees it, even with someone they blocked (the list leaves those out), and
 * whether they may write in it; 404 for everyone else.
 */
export async function conversationDetail(db: Db, user: UserRow, conversationId: string): Promise<{ data: Conversation; reply: ReplyState }> {
  const row = await requireConversation(db, user.id, conversationId);
  const recipientId = otherParticipant(row, user.id);
  const [view, recipient, blocks] = await Promise.all([conversationView(db, user.id, row.id), findUserById(db, recipientId), blocksBetween(db, user.id, recipientId)]);
  if (!view) throw notFound(CONVERSATION_NOT_FOUND);
  const reply = replyStateOf({ act: "send", sender: senderOf(user), recipientId, recipient, recipientBlockedSender: blocks.byOther, senderBlockedRecipient: blocks.byUser });
  return { data: view, reply };
}

/** The conversation if the user takes part in it; 404 for everyone else (and for no such conversation). */
export async function requireConversation(db: Db, userId: string, conversationId: string): Promise<ConversationRow> {
  const row = await findConversationOf(db, conversationId, userId);
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
  db: Db,
  env: Env,
  config: Config,
  defer: Defer,
  sender: UserRow,
  conversationId: string,
  text: string,
  clientKey: string | null = null,
  now = Date.now(),
): Promise<{ message: Message; created: boolean }> {
  const conversation = await requireConversation(db, sender.id, conversationId);
  const claim = clientKey ? { key: clientKey, sinceIso: isoNow(now - IDEMPOTENCY_WINDOW_MS) } : null;
  if (claim) {
    const earlier = await findMessageByClientKey(db, sender.id, claim.key, claim.sinceIso);
    if (earlier) return { message: replayOf(earlier, sender.id, conversation.id, text), created: false };
  }
  const recipientId = otherParticipant(conversation, sender.id);
  const [recipient, blocks] = await Promise.all([findUserById(db, recipientId), blocksBetween(db, sender.id, recipientId)]);
  refuseIf(messagingRefusal({ act: "send", sender: senderOf(sender), recipientId, recipient, recipientBlockedSender: blocks.byOther, senderBlockedRecipient: blocks.byUser }));
  if (!recipient) throw notFound(MESSAGING_MESSAGES.recipientDeleted); // refused above: narrows the type
  let row: MessageRow;
  try {
    // Scam shield: a match is stored and queued for staff, and the message is still delivered.
    // A paid deal's later months are paid between the parties (decision 030): the pair's deals are read
    // only when the message speaks of a later month's rent, the one thing they change.
    const context = mentionsLaterMonths(text) ? { firstMonthPaid: await firstMonthPaid(db, conversation) } : {};
    row = await insertMessage(db, conversation.id, sender.id, text, scanForStorage(text, context), claim);
  } catch (err) {
    // The same key arrived at the same moment (or the lookup read a replica behind the primary) and
    // its twin was stored first: answer the twin, read from the primary, which has it.
    const twin = claim && isUniqueViolation(err) ? await findMessageByClientKey(primaryOf(db), sender.id, claim.key, claim.sinceIso) : null;
    if (!twin) throw err;
    return { message: replayOf(twin, sender.id, conversation.id, text), created: false };
  }
  const message = toMessage(row, sender.id);
  // The recipient's view leaves out the notices their "This is fine"s cover (decision 015).
  const dismissed = row.safetyFlags ? await dismissalsOf(db, conversation.id, recipient.id) : undefined;
  const payInside = row.safetyFlags ? await payInsideStep(db, conversation, recipient.id) : null;
  defer(afterSend(db, env, config, conversation, sender, recipient, message, toMessage(row, recipient.id, dismissed, payInside)));
  return { message, created: true };
}

/** The stored answer to a repeated key, or 422 when the key was used for a different message. */
function replayOf(stored: MessageRow, senderId: string, conversationId: string, text: string): Message {
  if (stored.conversationId !== conversationId || stored.text !== text) {
    throw validationFailed([{ path: "Idempotency-Key", message: MESSAGING_MESSAGES.keyReused }]);
  }
  return toMessage(stored, senderId);
}

/** Runs after the answer (waitUntil) on the request's db: the work belongs to that request. */
async function afterSend(db: Db, env: Env, config: Config, conversation: ConversationRow, sender: UserRow, recipient: UserRow, message: Message, recipientView: Message) {
  try {
    // The rooms are told and asked at once (none of these throws): the push waits for no publish.
    const [reading, online] = await Promise.all([
      connectionCount(env, "conversation", conversation.id, recipient.id),
      connectionCount(env, "inbox", recipient.id),
      // The sender's sockets get the sender's view (no safety notice), everyone else the recipient's.
      publishTo(env, "conversation", conversation.id, { type: "message", message: recipientView }, { [sender.id]: { type: "message", message } }),
      unreadCount(db, recipient.id).then((count) => publishTo(env, "inbox", recipient.id, { type: "unread", unread_count: count })),
    ]);
    // Someone reading this conversation sees the message: no notice at all. With the app open
    // elsewhere the badge tells them, so a push may go but no email (docs/decisions/027).
    if (reading !== null && reading > 0) return;
    await notify(
      { db, env, config },
      { user: recipient },
      { kind: "new_message", conversation, senderId: sender.id, senderFirstName: sender.firstName, recipientOnline: online !== null && online > 0 },
    );
  } catch (err) {
    log.warn("message_followup_failed", { error: err instanceof Error ? err.name : "unknown" });
  }
}

/** Marks the other person's messages read; tells the conversation room and the reader's inbox. */
export async function markRead(db: Db, env: Env, defer: Defer, reader: UserRow, conversationId: string): Promise<void> {
  const conversation = await requireConversation(db, reader.id, conversationId);
  const changed = await markConversationRead(db, conversation.id, reader.id);
  // Read: the next message here may push again (one push per conversation until read).
  await clearNotice(db, reader.id, `conversation:${conversation.id}`);
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

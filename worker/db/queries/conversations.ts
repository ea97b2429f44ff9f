/**
 * Conversations and messages. A conversation's pair is stored ordered (user_a < user_b), so one pair
 * has one row. The lists are hand-written SQL on D1: one statement per page, whatever its length
 * (names, avatars, listing titles, card photos and unread counts come from joins and correlated
 * subqueries on indexes, never from one query per conversation).
 */
import { and, desc, eq, gte, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Conversation, Message } from "../../contract/messages";
import { isSafetyKind, noticeKindAfter, parseScamReasons, reasonsOfKind, type SafetyDismissal, type SafetyKind, type StoredFlag } from "../../contract/safety";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import type { Db } from "../client";
import { conversations, messages, safetyFeedback } from "../schema";
import { PUBLIC_LISTING_SQL } from "./listing-sql";
import { imageUrl } from "../../lib/image-url";

export type ConversationRow = typeof conversations.$inferSelect;

export type MessageRow = typeof messages.$inferSelect;

/** The stored order of a pair. */
export const orderedPair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);

/** The other participant of a conversation. */
export const otherParticipant = (row: Pick<ConversationRow, "userA" | "userB">, userId: string) => (row.userA === userId ? row.userB : row.userA);

export async function isParticipant(db: Db, conversationId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), or(eq(conversations.userA, userId), eq(conversations.userB, userId))))
    .get();
  return !!row;
}

/** The conversation if `userId` takes part in it, else null (callers answer 404 either way). */
export async function findConversationOf(db: Db, conversationId: string, userId: string): Promise<ConversationRow | null> {
  const row = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), or(eq(conversations.userA, userId), eq(conversations.userB, userId))))
    .get();
  return row ?? null;
}

export async function findConversationOfPair(db: Db, a: string, b: string): Promise<ConversationRow | null> {
  const [userA, userB] = orderedPair(a, b);
  return (await db.select().from(conversations).where(and(eq(conversations.userA, userA), eq(conversations.userB, userB))).get()) ?? null;
}

/** Creates the pair's conversation, started by `a`, unless it exists; true when this call created it. */
export async function insertConversation(db: Db, a: string, b: string, listingId: string | null): Promise<boolean> {
  const [userA, userB] = orderedPair(a, b);
  const now = isoNow();
  const inserted = await db
    .insert(conversations)
    .values({ id: newId(), userA, userB, listingId, startedBy: a, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: conversations.id });
  return inserted.length > 0;
}

export const setConversationListing = (db: Db, id: string, listingId: string) =>
  db.update(conversations).set({ listingId, updatedAt: isoNow() }).where(eq(conversations.id, id));

/** The ids of a user's conversations (account deletion closes their rooms). */
export const conversationIdsOf = (db: Db, userId: string) =>
  db
    .select({ id: conversations.id })
    .from(conversations)
    .where(or(eq(conversations.userA, userId), eq(conversations.userB, userId)));

// ---------------------------------------------------------------------------------------------
// Conversation lists, as one participant sees them.

interface ConversationListRow {
  id: string;
  participant_id: string;
  first_name: string | null;
  last_name: string | null;
  avatar_key: string | null;
  last_message_preview: string | null;
  last_message_at: string | null;
  activity: string;
  unread_count: number;
  listing_id: string | null;
  listing_title: string | null;
  listing_photo_key: string | null;
}

/** The sort key of the lists: the last message, or the creation of a conversation without one. */
const ACTIVITY = "COALESCE(c.last_message_at, c.created_at)";

/**
 * `?1` is the viewer. The listing shows only while the viewer may see it (canViewListing: public, or
 * the viewer's own), from the SQL twin of the rule.
 */
const CONVERSATION_SELECT = `
  SELECT c.id,
         CASE WHEN c.user_a = ?1 THEN c.user_b ELSE c.user_a END AS participant_id,
         u.first_name, u.last_name, u.avatar_key,
         c.last_message_preview, c.last_message_at, ${ACTIVITY} AS activity,
         (SELECT count(*) FROM messages m
            WHERE m.conversation_id = c.id AND m.read_at IS NULL AND m.sender_id <> ?1) AS unread_count,
         l.id AS listing_id, l.title AS listing_title,
         (SELECT COALESCE(p.thumb_key, p.key) FROM listing_photos p
            WHERE p.listing_id = l.id ORDER BY p.position LIMIT 1) AS listing_photo_key
    FROM conversations c
    LEFT JOIN users u ON u.id = CASE WHEN c.user_a = ?1 THEN c.user_b ELSE c.user_a END
    LEFT JOIN listings l ON l.id = c.listing_id AND ((${PUBLIC_LISTING_SQL}) OR l.user_id = ?1)`;

const MINE = "(c.user_a = ?1 OR c.user_b = ?1)";
/**
 * A conversation shows in the lists and `with/{userId}` once it holds a message, or to whoever started
 * it: pressing Message without writing leaves nothing in the other person's inbox.
 */
const SHOWN = "(c.last_message_at IS NOT NULL OR c.started_by = ?1)";
/** The viewer's list leaves out conversations with people they blocked; unblocking brings them back. */
const NOT_BLOCKED_BY_VIEWER = "NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = CASE WHEN c.user_a = ?1 THEN c.user_b ELSE c.user_a END)";

function toConversation(r: ConversationListRow): Conversation {
  return {
    id: r.id,
    participant_id: r.participant_id,
    participant_name: r.first_name === null ? "Deleted user" : `${r.first_name} ${r.last_name ?? ""}`.trim(),
    participant_avatar: imageUrl(r.avatar_key),
    latest_message_preview: r.last_message_preview,
    last_message_timestamp: r.last_message_at,
    updated_at: r.activity,
    unread_count: r.unread_count,
    listing_id: r.listing_id,
    listing_title: r.listing_title,
    listing_photo: imageUrl(r.listing_photo_key),
  };
}

export interface ConversationCursor {
  t: string;
  id: string;
}

/** A user's conversations, newest activity first, after the cursor (keyset on (activity, id)). */
export async function conversationsPage(db: Db, userId: string, cursor: ConversationCursor | null, limit: number): Promise<Conversation[]> {
  const d1 = db.$client;
  const after = cursor ? `AND (${ACTIVITY}, c.id) < (?2, ?3)` : "";
  const binds: unknown[] = cursor ? [userId, cursor.t, cursor.id] : [userId];
  const { results } = await d1
    .prepare(`${CONVERSATION_SELECT} WHERE ${MINE} AND ${SHOWN} AND ${NOT_BLOCKED_BY_VIEWER} ${after} ORDER BY activity DESC, c.id DESC LIMIT ${Math.floor(limit)}`)
    .bind(...binds)
    .all<ConversationListRow>();
  return results.map(toConversation);
}

/**
 * One conversation as `userId` sees it, or null when it does not exist or they are not in it; with
 * `listed`, also null while it is empty and someone else started it (as in the lists).
 */
export async function conversationView(db: Db, userId: string, conversationId: string, { listed = false } = {}): Promise<Conversation | null> {
  const shown = listed ? ` AND ${SHOWN}` : "";
  const row = await db.$client.prepare(`${CONVERSATION_SELECT} WHERE ${MINE}${shown} AND c.id = ?2`).bind(userId, conversationId).first<ConversationListRow>();
  return row ? toConversation(row) : null;
}

/** The sort key of a conversation in the lists (for the next page's cursor). */
export const cursorOf = (c: Conversation): ConversationCursor => ({ t: c.updated_at, id: c.id });

// ---------------------------------------------------------------------------------------------
// Messages.

/**
 * A message as `viewerId` sees it: safety_notice and safety_kind (scam shield) only for the recipient of
 * a flagged message, never for its sender, who must not learn what tripped the filter. `dismissed` are
 * this viewer's "This is fine"s in this conversation (dismissalsOf): a notice they cover is not shown
 * (`noticeKindAfter`, decision 015); `payInside`, the viewer's next step of the pair's deal, goes with a
 * payment notice (services/safety-deals.ts). Every message payload (the lists, the send answer, the room's
 * push) is built here.
 */
export const toMessage = (m: MessageRow, viewerId: string, dismissed: readonly SafetyDismissal[] = [], payInside: Message["safety_pay_inside"] = null): Message => {
  const kind = m.safetyFlags && m.senderId !== viewerId ? noticeKindAfter(parseScamReasons(m.safetyFlags), m.senderId, dismissed) : null;
  return {
    id: m.id,
    sender_id: m.senderId,
    text: m.text,
    timestamp: m.createdAt,
    is_read: !!m.readAt,
    conversation_id: m.conversationId,
    safety_notice: kind !== null,
    safety_kind: kind,
    // A payment notice points inside: the viewer's next step of the pair's deal (docs/decisions/030).
    safety_pay_inside: kind === "payment" ? (payInside ?? null) : null,
    // The sender's own key, so their optimistic bubble finds its stored message; nobody else sees it.
    client_key: m.senderId === viewerId ? m.clientKey : null,
    kind: m.kind === "deal" ? "deal" : "text",
    deal_id: m.dealId ?? null,
  };
};

// ---------------------------------------------------------------------------------------------
// "This is fine" (decision 015): given on one message, for one kind of notice.

/** `userId`'s "This is fine"s in a conversation, each with the sender and that kind's reasons of the message it was given on. */
export async function dismissalsOf(db: Db, conversationId: string, userId: string): Promise<SafetyDismissal[]> {
  const rows = await db
    .select({ kind: safetyFeedback.kind, senderId: messages.senderId, flags: messages.safetyFlags })
    .from(safetyFeedback)
    .innerJoin(messages, eq(messages.id, safetyFeedback.messageId))
    .where(and(eq(safetyFeedback.conversationId, conversationId), eq(safetyFeedback.userId, userId)));
  return rows
    .filter((r): r is typeof r & { kind: SafetyKind } => isSafetyKind(r.kind))
    .map((r) => ({ kind: r.kind, senderId: r.senderId, reasons: reasonsOfKind(parseScamReasons(r.flags), r.kind) }));
}

/** A message of this conversation with its sender and stored flags, or null. */
export async function messageInConversation(db: Db, conversationId: string, messageId: string): Promise<{ senderId: string; safetyFlags: string | null } | null> {
  const row = await db
    .select({ senderId: messages.senderId, safetyFlags: messages.safetyFlags })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)))
    .get();
  return row ?? null;
}

/** Stores a "This is fine"; one row per conversation, user, message and kind (a repeat changes nothing). True when stored now. */
export async function insertSafetyFeedback(db: Db, conversationId: string, userId: string, messageId: string, kind: SafetyKind): Promise<boolean> {
  const inserted = await db
    .insert(safetyFeedback)
    .values({ conversationId, userId, messageId, kind, createdAt: isoNow() })
    .onConflictDoNothing()
    .returning({ kind: safetyFeedback.kind });
  return inserted.length > 0;
}

/** Takes a "This is fine" back (Undo); true when there was one. */
export async function deleteSafetyFeedback(db: Db, conversationId: string, userId: string, messageId: string, kind: SafetyKind): Promise<boolean> {
  const res = await db
    .delete(safetyFeedback)
    .where(
      and(eq(safetyFeedback.conversationId, conversationId), eq(safetyFeedback.userId, userId), eq(safetyFeedback.messageId, messageId), eq(safetyFeedback.kind, kind)),
    );
  return (res.meta.changes ?? 0) > 0;
}

export interface SafetyFeedbackRow {
  conversation_id: string;
  user_id: string;
  message_id: string;
  kind: string;
  created_at: string;
  first_name: string | null;
  last_name: string | null;
}

/** The feedback of these conversations with the names of who gave it, oldest first, in one statement (staff). */
export async function safetyFeedbackOf(db: Db, conversationIds: string[]): Promise<SafetyFeedbackRow[]> {
  if (conversationIds.length === 0) return [];
  const { results } = await db.$client
    .prepare(
      `SELECT f.conversation_id, f.user_id, f.message_id, f.kind, f.created_at, u.first_name, u.last_name
         FROM safety_feedback f LEFT JOIN users u ON u.id = f.user_id
        WHERE f.conversation_id IN (SELECT value FROM json_each(?1))
        ORDER BY f.created_at, f.user_id, f.message_id, f.kind`,
    )
    .bind(JSON.stringify(conversationIds))
    .all<SafetyFeedbackRow>();
  return results;
}

export interface MessageCursor {
  c: string;
  id: string;
}

/**
 * Up to `limit` messages of a conversation older than the cursor, newest first: a keyset on
 * (created_at, id), served by messages_conversation_idx, so every message is met exactly once however
 * many arrive while the client pages.
 */
export const messagesPage = (db: Db, conversationId: string, cursor: MessageCursor | null, limit: number) =>
  db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        cursor ? sql`(${messages.createdAt}, ${messages.id}) < (${cursor.c}, ${cursor.id})` : undefined,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);

/** The sender's message stored under `clientKey` at or after `sinceIso` (the key's window), or null. */
export async function findMessageByClientKey(db: Db, senderId: string, clientKey: string, sinceIso: string): Promise<MessageRow | null> {
  const row = await db
    .select()
    .from(messages)
    .where(and(eq(messages.senderId, senderId), eq(messages.clientKey, clientKey), gte(messages.createdAt, sinceIso)))
    .get();
  return row ?? null;
}

/** A send's `Idempotency-Key` and the start of its window: an older message with the key gives it up. */
export interface ClientKeyClaim {
  key: string;
  sinceIso: string;
}

/**
 * Stores a message and makes it the conversation's latest, atomically; returns the message. With
 * scam-shield reasons (`flags`), the message keeps them and the conversation joins the staff Safety
 * queue in the same batch: flagged now unless it is already waiting for review (a flag after a review
 * queues it again), its reasons the union of all seen. With a client key, a message of the sender
 * holding it from before the window gives it up in the same batch; a message holding it within the
 * window makes the whole batch fail on messages_sender_client_key_unique (isUniqueViolation).
 */
export async function insertMessage(db: Db, conversationId: string, senderId: string, text: string, flags: readonly StoredFlag[] = [], clientKey: ClientKeyClaim | null = null): Promise<MessageRow> {
  const now = isoNow();
  const safetyFlags = flags.length > 0 ? JSON.stringify(flags) : null;
  const row: MessageRow = { id: newId(), conversationId, senderId, text, safetyFlags, readAt: null, clientKey: clientKey?.key ?? null, kind: "text", dealId: null, createdAt: now };
  const insert = db.insert(messages).values(row);
  const makeLatest = db
    .update(conversations)
    .set({
      lastMessagePreview: preview(text),
      lastMessageAt: now,
      updatedAt: now,
      ...(safetyFlags && {
        safetyFlaggedAt: sql`CASE WHEN ${conversations.safetyFlaggedAt} IS NULL OR (${conversations.safetyReviewedAt} IS NOT NULL AND ${conversations.safetyReviewedAt} >= ${conversations.safetyFlaggedAt}) THEN ${now} ELSE ${conversations.safetyFlaggedAt} END`,
        safetyReasons: sql`(SELECT json_group_array(value) FROM (SELECT value FROM json_each(COALESCE(${conversations.safetyReasons}, '[]')) UNION SELECT value FROM json_each(${safetyFlags})))`,
      }),
    })
    .where(eq(conversations.id, conversationId));
  if (clientKey) {
    const releaseExpiredKey = db
      .update(messages)
      .set({ clientKey: null })
      .where(and(eq(messages.senderId, senderId), eq(messages.clientKey, clientKey.key), lt(messages.createdAt, clientKey.sinceIso)));
    await db.batch([releaseExpiredKey, insert, makeLatest]);
  } else {
    await db.batch([insert, makeLatest]);
  }
  return row;
}

const PREVIEW_LENGTH = 120;
const preview = (text: string) => (text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text);

/**
 * Deletes one message (staff moderation) and points its conversation's preview at the newest message
 * left, so the removed text does not stay in both people's lists. False when there was no such message.
 */
export async function deleteMessage(db: Db, id: string): Promise<boolean> {
  const row = await db.select({ conversationId: messages.conversationId }).from(messages).where(eq(messages.id, id)).get();
  if (!row) return false;
  const newest = `FROM messages WHERE conversation_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 1`;
  const d1 = db.$client;
  // One transaction: the row goes and the preview (cut like preview()) follows what is left.
  const [deleted] = await d1.batch([
    d1.prepare("DELETE FROM messages WHERE id = ?2").bind(row.conversationId, id),
    d1
      .prepare(
        `UPDATE conversations SET
           last_message_preview = (SELECT CASE WHEN length(text) > ${PREVIEW_LENGTH} THEN substr(text, 1, ${PREVIEW_LENGTH - 1}) || '…' ELSE text END ${newest}),
           last_message_at = (SELECT created_at ${newest})
         WHERE id = ?1`,
      )
      .bind(row.conversationId),
  ]);
  return !!deleted?.meta.changes;
}

/** Marks the other person's unread messages of a conversation read; returns how many changed. */
export async function markConversationRead(db: Db, conversationId: string, readerId: string): Promise<number> {
  const res = await db
    .update(messages)
    .set({ readAt: isoNow() })
    .where(and(eq(messages.conversationId, conversationId), ne(messages.senderId, readerId), isNull(messages.readAt)));
  return res.meta.changes ?? 0;
}

/**
 * The one definition of "unread" (messages to the user, in their conversations, not read yet), as a
 * single statement: GET messages/unread-count and users/stats both use it.
 */
export const unreadCountQuery = (db: Db, userId: string) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(messages)
    .innerJoin(conversations, eq(messages.conversationId, conversations.id))
    .where(
      and(
        or(eq(conversations.userA, userId), eq(conversations.userB, userId)),
        ne(messages.senderId, userId),
        isNull(messages.readAt),
        // Messages from people the user blocked do not count (their conversations are out of the list).
        sql`NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${userId} AND b.blocked_id = ${messages.senderId})`,
      ),
    );

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await unreadCountQuery(db, userId);
  return row?.n ?? 0;
}

/**
 * Claims the right to email `recipientId` about this conversation: sets their "last emailed" time
 * only if it is empty or older than `gapMs`, in one statement, so two concurrent sends never both
 * win. True when this call claimed it.
 */
export async function claimMessageEmail(db: Db, conversation: Pick<ConversationRow, "id" | "userA" | "userB">, recipientId: string, gapMs: number, now = Date.now()): Promise<boolean> {
  const column = conversation.userA === recipientId ? conversations.userAEmailedAt : conversations.userBEmailedAt;
  const key = conversation.userA === recipientId ? "userAEmailedAt" : "userBEmailedAt";
  const res = await db
    .update(conversations)
    .set({ [key]: isoNow(now) })
    .where(and(eq(conversations.id, conversation.id), or(isNull(column), lt(column, isoNow(now - gapMs)))));
  return (res.meta.changes ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// Staff reads (read-only, paged).

/** Up to `limit` conversations, most recently active first, after the cursor, for staff. */
export const recentConversations = (db: Db, search: { kind: "id"; id: string } | { kind: "email"; email: string } | null, cursor: ConversationCursor | null, limit = 100) => {
  // A search: the conversation, or those of the participant the id or email names (the pair index and user_b's).
  const participant = search?.kind === "email" ? sql`(SELECT id FROM users WHERE email = ${search.email})` : search?.id;
  return db
    .select()
    .from(conversations)
    .where(
      and(
        search
          ? or(...(search.kind === "id" ? [eq(conversations.id, search.id)] : []), eq(conversations.userA, participant!), eq(conversations.userB, participant!))
          : undefined,
        // The generated activity_at (last message, else creation) and its index: most recently active first (docs/decisions/038).
        cursor ? sql`(${conversations.activityAt}, ${conversations.id}) < (${cursor.t}, ${cursor.id})` : undefined,
      ),
    )
    .orderBy(desc(conversations.activityAt), desc(conversations.id))
    .limit(limit);
};

/** Up to `limit` messages of a conversation, newest first, after the cursor, for staff. */
export const messagesOf = (db: Db, conversationId: string, cursor: MessageCursor | null = null, limit = 200) => messagesPage(db, conversationId, cursor, limit);

// ---------------------------------------------------------------------------------------------
// Response time (median first reply; decision 015).

/**
 * The user's first-reply delays (ms) in conversations created since `sinceIso` where the other person
 * wrote first and the user replied: one statement, at most `limit` newest conversations (the pair
 * index and conversations_user_b_idx find them; each first message and first reply is one seek of
 * messages_conversation_idx). Unreplied conversations are left out.
 */
export async function firstReplyDelays(db: Db, userId: string, sinceIso: string, limit = 200): Promise<number[]> {
  const { results } = await db.$client
    .prepare(
      `WITH mine AS (
         SELECT id, created_at FROM conversations WHERE user_a = ?1 AND created_at >= ?2
         UNION ALL
         SELECT id, created_at FROM conversations WHERE user_b = ?1 AND created_at >= ?2
       ), firsts AS (
         SELECT mine.id,
                (SELECT m.sender_id FROM messages m WHERE m.conversation_id = mine.id ORDER BY m.created_at, m.id LIMIT 1) AS first_sender,
                (SELECT m.created_at FROM messages m WHERE m.conversation_id = mine.id ORDER BY m.created_at, m.id LIMIT 1) AS first_at
           FROM mine ORDER BY mine.created_at DESC LIMIT ${Math.floor(limit)}
       )
       SELECT f.first_at,
              (SELECT m.created_at FROM messages m
                 WHERE m.conversation_id = f.id AND m.sender_id = ?1 AND m.created_at >= f.first_at
                 ORDER BY m.created_at LIMIT 1) AS reply_at
         FROM firsts f
        WHERE f.first_sender IS NOT NULL AND f.first_sender <> ?1`,
    )
    .bind(userId, sinceIso)
    .all<{ first_at: string; reply_at: string | null }>();
  return results.filter((r) => r.reply_at).map((r) => Date.parse(r.reply_at!) - Date.parse(r.first_at));
}

/** Whether the user still has unread messages in this conversation (the push's email fallback asks). */
export async function hasUnreadIn(db: Db, conversationId: string, userId: string): Promise<boolean> {
  const row = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), ne(messages.senderId, userId), isNull(messages.readAt)))
    .limit(1)
    .get();
  return !!row;
}

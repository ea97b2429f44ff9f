/** Pure helpers of the messages cache: merge by id, date groups, cache updaters. */
import type { InfiniteData } from "@tanstack/react-query";
import type { Conversation, ConversationPageResponse, Message, MessagesResponse } from "@contract/messages";
import type { SafetyKind } from "@contract/safety";
import { formatMomentDate } from "@contract/dates";

const byTime = (a: Message, b: Message) =>
  a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * One list, oldest first, each message once: a message that arrived by socket and again by a poll (or
 * in two overlapping pages) is kept once; the later copy wins (it may carry is_read).
 */
export function mergeMessages(...lists: readonly (readonly Message[])[]): Message[] {
  const byId = new Map<string, Message>();
  for (const list of lists) for (const m of list) byId.set(m.id, byId.has(m.id) ? { ...byId.get(m.id)!, ...m, is_read: byId.get(m.id)!.is_read || m.is_read } : m);
  return [...byId.values()].sort(byTime);
}

export type ThreadData = InfiniteData<MessagesResponse, unknown>;
export type ConversationListData = InfiniteData<ConversationPageResponse, unknown>;

/** The thread's messages, oldest first, each once (pages are newest first and may overlap). */
export const threadMessages = (data: ThreadData | undefined): Message[] =>
  data ? mergeMessages(...data.pages.map((p) => p.messages)) : [];

/** Adds (or updates) a message in the cached thread: into the newest page unless some page has it. */
export function upsertThreadMessage(data: ThreadData | undefined, message: Message): ThreadData | undefined {
  if (!data || data.pages.length === 0) return data;
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.messages.some((m) => m.id === message.id)) return page;
    found = true;
    return { ...page, messages: page.messages.map((m) => (m.id === message.id ? { ...m, ...message, is_read: m.is_read || message.is_read } : m)) };
  });
  if (!found) pages[0] = { ...pages[0]!, messages: [message, ...pages[0]!.messages] };
  return { ...data, pages };
}

/** Marks as read every message of the thread matching `which` (mine once the other person read them). */
export function markThreadRead(data: ThreadData | undefined, which: (m: Message) => boolean): ThreadData | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => ({
    ...page,
    messages: page.messages.map((m) => {
      if (m.is_read || !which(m)) return m;
      changed = true;
      return { ...m, is_read: true };
    }),
  }));
  return changed ? { ...data, pages } : data;
}

/** The conversation list's conversations, each once, in server order. */
export function listConversations(data: ConversationListData | undefined): Conversation[] {
  if (!data) return [];
  const seen = new Set<string>();
  return data.pages.flatMap((p) => p.data).filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)));
}

/** Applies `change` to one conversation of the cached list. */
export function updateConversation(data: ConversationListData | undefined, id: string, change: (c: Conversation) => Conversation): ConversationListData | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, data: p.data.map((c) => (c.id === id ? change(c) : c)) })) };
}

/** Whether the cached list holds the conversation (one not in it is only shown by a refetch). */
export const hasConversation = (data: ConversationListData | undefined, id: string) => !!data?.pages.some((p) => p.data.some((c) => c.id === id));

/**
 * A new message updates its conversation's preview and time (and, from the other person to a thread
 * that is not open, its unread count) and moves it to the top: the list is newest activity first. An
 * older message (a late push) changes nothing; a conversation not in the list is left to a refetch.
 */
export function applyMessageToList(data: ConversationListData | undefined, message: Message, me: string, open: boolean): ConversationListData | undefined {
  const current = listConversations(data).find((c) => c.id === message.conversation_id);
  if (!data || !current || (current.last_message_timestamp && current.last_message_timestamp > message.timestamp)) return data;
  const updated: Conversation = {
    ...current,
    latest_message_preview: message.text,
    last_message_timestamp: message.timestamp,
    updated_at: message.timestamp,
    unread_count: message.sender_id !== me && !open && !message.is_read ? current.unread_count + 1 : current.unread_count,
  };
  const pages = data.pages.map((p) => ({ ...p, data: p.data.filter((c) => c.id !== current.id) }));
  pages[0] = { ...pages[0]!, data: [updated, ...pages[0]!.data] };
  return { ...data, pages };
}

/** The local calendar day of a timestamp, as a stable key. */
export const dayKey = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

/** "Today", "Yesterday" or the date. */
export function dayLabel(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const today = dayKey(now.toISOString());
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(iso) === today) return "Today";
  if (dayKey(iso) === dayKey(yesterday.toISOString())) return "Yesterday";
  return d.toLocaleDateString(undefined, { weekday: "long", month: "long", day: "numeric", year: d.getFullYear() === now.getFullYear() ? undefined : "numeric" });
}

export const timeLabel = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });

/** The list's time: the hour today, else the date. */
export function listTimeLabel(iso: string | null, now = new Date()): string {
  if (!iso) return "";
  return dayKey(iso) === dayKey(now.toISOString()) ? timeLabel(iso) : formatMomentDate(iso, { now })!;
}

/**
 * The safety notice a message shows its reader (docs/decisions/015): the server's kind; a message without one (an
 * older server) that has safety_notice shows the payment notice, as before.
 */
export const noticeKindOf = (m: Pick<Message, "safety_notice" | "safety_kind">): SafetyKind | null => m.safety_kind ?? (m.safety_notice ? "payment" : null);

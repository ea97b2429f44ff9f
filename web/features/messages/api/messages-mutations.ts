/** The messaging writes, each a useMutation hook that updates or invalidates the keys it changes. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { Conversation, Message } from "@contract/messages";
import { MESSAGING_MESSAGES } from "@contract/messages";
import { REPORT_TEXTS } from "@contract/reports";
import { ApiError } from "../../../lib/api-client";
import { applyMessageToList, listConversations, markThreadRead, threadMessages, updateConversation, upsertThreadMessage, type ConversationListData, type ThreadData } from "../lib/thread";
import { createConversation, getConversationWith, markConversationRead, messageKeys, sendMessage } from "./messages-api";

/** A message on its way (shown at once) or one that failed (shown with Retry). */
export interface PendingMessage {
  tempId: string;
  text: string;
  status: "sending" | "failed";
  createdAt: string;
  /** My messages with the same text already in the thread when it was sent (see isEchoed). */
  knownIds: string[];
}

/**
 * Whether the room already delivered this message before the send call answered (its echo): a message
 * of mine with the same text that was not in the thread when it was sent. The bubble then hides.
 */
export const isEchoed = (p: PendingMessage, messages: Message[], me: string) =>
  p.status === "sending" && messages.some((m) => m.sender_id === me && m.text === p.text && !p.knownIds.includes(m.id));

/** The answer to a message for someone who blocked the sender. */
const isBlockedError = (err: unknown) => err instanceof ApiError && err.status === 403 && err.message === REPORT_TEXTS.blockedSend;

let tempCounter = 0;
const nextTempId = () => `pending-${Date.now()}-${++tempCounter}`;

/**
 * Sends in one conversation with an optimistic bubble: it shows at once, disappears into the thread when
 * the server answers, or stays with 'Failed to send message' and a Retry.
 */
export function useSendMessage(conversationId: string, me: string) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingMessage[]>([]);
  /** The other person blocked me (issue 13): the composer gives way to the reason. */
  const [blocked, setBlocked] = useState(false);
  const mutation = useMutation({
    mutationFn: ({ text }: { tempId: string; text: string }) => sendMessage(conversationId, text),
    onMutate: ({ tempId, text }) => {
      const knownIds = threadMessages(queryClient.getQueryData<ThreadData>(messageKeys.thread(conversationId)))
        .filter((m) => m.sender_id === me && m.text === text)
        .map((m) => m.id);
      setPending((list) =>
        list.some((p) => p.tempId === tempId)
          ? list.map((p) => (p.tempId === tempId ? { ...p, status: "sending", knownIds } : p))
          : [...list, { tempId, text, status: "sending", createdAt: new Date().toISOString(), knownIds }],
      );
    },
    onSuccess: (message: Message, { tempId }) => {
      queryClient.setQueryData<ThreadData>(messageKeys.thread(conversationId), (d) => upsertThreadMessage(d, message));
      queryClient.setQueryData<ConversationListData>(messageKeys.conversationList(), (d) => applyMessageToList(d, message, me, true));
      setPending((list) => list.filter((p) => p.tempId !== tempId));
      return queryClient.invalidateQueries({ queryKey: messageKeys.conversations() });
    },
    onError: (err, { tempId }) => {
      // Blocked: no Retry would help, so the bubble goes and the thread says why instead.
      if (isBlockedError(err)) {
        setBlocked(true);
        setPending((list) => list.filter((p) => p.tempId !== tempId));
        return;
      }
      setPending((list) => list.map((p) => (p.tempId === tempId ? { ...p, status: "failed" } : p)));
    },
  });
  const { mutate } = mutation;
  const send = useCallback((text: string) => mutate({ tempId: nextTempId(), text }), [mutate]);
  const retry = useCallback((p: PendingMessage) => mutate({ tempId: p.tempId, text: p.text }), [mutate]);
  const discard = useCallback((tempId: string) => setPending((list) => list.filter((p) => p.tempId !== tempId)), []);
  return { pending, send, retry, discard, blocked };
}

/**
 * Marks a conversation read: its count in the list and the badge drop at once (by what it had), the
 * other person's messages count as read; the badge is refetched afterwards.
 */
export function useMarkRead(me: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) => markConversationRead(conversationId),
    onMutate: (conversationId) => {
      const list = queryClient.getQueryData<ConversationListData>(messageKeys.conversationList());
      const had = listConversations(list).find((c) => c.id === conversationId)?.unread_count ?? 0;
      queryClient.setQueryData<ConversationListData>(messageKeys.conversationList(), (d) => updateConversation(d, conversationId, (c) => ({ ...c, unread_count: 0 })));
      queryClient.setQueryData<ThreadData>(messageKeys.thread(conversationId), (d) => markThreadRead(d, (m) => m.sender_id !== me));
      if (had > 0) queryClient.setQueriesData<number>({ queryKey: messageKeys.unreadCountRoot() }, (n) => (typeof n === "number" ? Math.max(0, n - had) : n));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: messageKeys.unreadCountRoot() }),
  });
}

/** Opens the conversation with a user: the existing one, else a new one (about the listing, if given). */
export function useStartConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, listingId }: { userId: string; listingId: string | null }): Promise<Conversation> => {
      try {
        return await getConversationWith(userId);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return createConversation(userId, listingId);
        throw err;
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.conversations() }),
  });
}

/** The spec's texts for a conversation that could not be started. */
export function startConversationError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.message === MESSAGING_MESSAGES.self) return MESSAGING_MESSAGES.self;
    if (isBlockedError(err)) return REPORT_TEXTS.blockedSend;
    if (err.status === 404 || err.status === 400 || err.status === 403 || err.status === 422) return MESSAGING_MESSAGES.cannotContactOwner;
  }
  return MESSAGING_MESSAGES.startFailed;
}

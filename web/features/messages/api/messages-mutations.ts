/** The messaging writes, each a useMutation hook that updates or invalidates the keys it changes. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { Conversation, Message } from "@contract/messages";
import { MESSAGING_MESSAGES } from "@contract/messages";
import { REPORT_TEXTS } from "@contract/reports";
import { ApiError } from "../../../lib/api-client";
import { isInboxConnected } from "../../../lib/unread";
import { applyMessageToList, hasConversation, listConversations, markThreadRead, threadMessages, updateConversation, upsertThreadMessage, type ConversationListData, type ThreadData } from "../lib/thread";
import { unreadLedgerOf } from "../lib/unread-ledger";
import { newClientKey, readUnsent, writeUnsent, type UnsentMessage } from "../lib/unsent";
import type { SafetyKind } from "@contract/safety";
import { noticeKindOf } from "../lib/thread";
import { createConversation, getConversationWith, markConversationRead, messageKeys, quietSafetyNotice, sendMessage, unquietSafetyNotice } from "./messages-api";

/** A message on its way (shown at once) or one that failed (shown with Retry). */
export interface PendingMessage extends UnsentMessage {
  status: "sending" | "failed";
}

/** The answer to a message for someone who blocked the sender. */
const isBlockedError = (err: unknown) => err instanceof ApiError && err.status === 403 && err.message === REPORT_TEXTS.blockedSend;
/** The answer to a message from someone who blocked the recipient: "Unblock {name} to send messages." */
const isUnblockFirstError = (err: unknown) => err instanceof ApiError && err.status === 403 && err.message.startsWith("Unblock ");

/**
 * Sends in one conversation with an optimistic bubble: it shows at once, disappears into the thread when
 * the server answers, or stays with 'Failed to send message' and a Retry. Each message has one
 * Idempotency-Key from its first send, kept across Retry and (in localStorage) across a reload: after
 * a reload it shows as failed, with Retry. A bubble whose key appears on a stored message of the thread
 * (the POST's answer, the room's push or a poll, in any order) is that message, and goes.
 */
export function useSendMessage(conversationId: string, me: string, thread: readonly Message[]) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingMessage[]>(() => readUnsent(me, conversationId).map((u) => ({ ...u, status: "failed" })));
  /** The other person blocked me (docs/decisions/015): the composer gives way to the reason. */
  const [blocked, setBlocked] = useState(false);

  useEffect(() => writeUnsent(me, conversationId, pending), [me, conversationId, pending]);

  // Settled: the thread holds the stored message of a pending key. Dropped while rendering (React's
  // "adjust state when a prop changes"), so no frame shows both.
  const storedKeys = new Set(thread.flatMap((m) => (m.sender_id === me && m.client_key ? [m.client_key] : [])));
  if (pending.some((p) => storedKeys.has(p.key))) setPending((list) => list.filter((p) => !storedKeys.has(p.key)));

  const mutation = useMutation({
    mutationFn: ({ key, text }: { key: string; text: string }) => sendMessage(conversationId, text, key),
    onMutate: ({ key, text }) => {
      setPending((list) =>
        list.some((p) => p.key === key)
          ? list.map((p) => (p.key === key ? { ...p, status: "sending" } : p))
          : [...list, { key, text, status: "sending", createdAt: new Date().toISOString() }],
      );
    },
    onSuccess: (message: Message, { key }) => {
      queryClient.setQueryData<ThreadData>(messageKeys.thread(conversationId), (d) => upsertThreadMessage(d, message));
      setPending((list) => list.filter((p) => p.key !== key));
      // The answer carries the message: the list is updated in place, refetched only to show a
      // conversation it does not hold yet.
      const list = queryClient.getQueryData<ConversationListData>(messageKeys.conversationList());
      if (list && !hasConversation(list, conversationId)) return queryClient.invalidateQueries({ queryKey: messageKeys.conversationList() });
      queryClient.setQueryData<ConversationListData>(messageKeys.conversationList(), (d) => applyMessageToList(d, message, me, true));
    },
    onError: (err, { key }) => {
      // Blocked: no Retry would help, so the bubble goes and the thread says why instead.
      if (isBlockedError(err)) {
        setBlocked(true);
        setPending((list) => list.filter((p) => p.key !== key));
        return;
      }
      // I blocked them (in another tab): the thread learns it and offers Unblock instead of the composer.
      if (isUnblockFirstError(err)) {
        setPending((list) => list.filter((p) => p.key !== key));
        void queryClient.invalidateQueries({ queryKey: messageKeys.detail(conversationId) });
        return;
      }
      setPending((list) => list.map((p) => (p.key === key ? { ...p, status: "failed" } : p)));
    },
  });
  const { mutate } = mutation;
  const send = useCallback((text: string) => mutate({ key: newClientKey(), text }), [mutate]);
  // The same key again: if the first attempt was stored after all, the server answers that message.
  const retry = useCallback((p: PendingMessage) => mutate({ key: p.key, text: p.text }), [mutate]);
  const discard = useCallback((key: string) => setPending((list) => list.filter((p) => p.key !== key)), []);
  return { pending: pending.filter((p) => !storedKeys.has(p.key)), send, retry, discard, blocked };
}

/**
 * Marks a conversation read: its count in the list and the badge drop at once (by what it had), the
 * other person's messages count as read. The badge's true count follows: pushed by the inbox room
 * when it is open (what it will take off is noted in the unread ledger, so the list is not
 * refetched for it), else, or when the call failed, fetched once the call is done.
 */
export function useMarkRead(me: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) => markConversationRead(conversationId),
    onMutate: (conversationId) => {
      const list = queryClient.getQueryData<ConversationListData>(messageKeys.conversationList());
      const had = listConversations(list).find((c) => c.id === conversationId)?.unread_count ?? 0;
      const unreadInThread = threadMessages(queryClient.getQueryData<ThreadData>(messageKeys.thread(conversationId))).filter((m) => m.sender_id !== me && !m.is_read).length;
      unreadLedgerOf(queryClient).expectRead(unreadInThread - had);
      queryClient.setQueryData<ConversationListData>(messageKeys.conversationList(), (d) => updateConversation(d, conversationId, (c) => ({ ...c, unread_count: 0 })));
      queryClient.setQueryData<ThreadData>(messageKeys.thread(conversationId), (d) => markThreadRead(d, (m) => m.sender_id !== me));
      if (had > 0) queryClient.setQueriesData<number>({ queryKey: messageKeys.unreadCountRoot() }, (n) => (typeof n === "number" ? Math.max(0, n - had) : n));
    },
    // A failed call pushes nothing: the badge is fetched to undo the optimistic drop.
    onSettled: (_data, error) => (error || !isInboxConnected() ? queryClient.invalidateQueries({ queryKey: messageKeys.unreadCountRoot() }) : undefined),
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

/**
 * The product's texts for a conversation that could not be started (docs/product-rules.md "Wording"):
 * about a listing, its owner; without one (a message link to a person), the person.
 */
export function startConversationError(err: unknown, aboutListing = true): string {
  if (err instanceof ApiError) {
    if (err.message === MESSAGING_MESSAGES.self) return MESSAGING_MESSAGES.self;
    if (isBlockedError(err)) return REPORT_TEXTS.blockedSend;
    if (err.status === 404 || err.status === 400 || err.status === 403 || err.status === 422) return aboutListing ? MESSAGING_MESSAGES.cannotContactOwner : MESSAGING_MESSAGES.cannotContactPerson;
  }
  return MESSAGING_MESSAGES.startFailed;
}

/** The last "This is fine" pressed in a thread: shown as a confirmation with Undo in place of that notice. */
export interface SafetyConfirmation {
  messageId: string;
  kind: SafetyKind;
}

/**
 * "This is fine" under a safety notice (decision 015): the server quiets that notice on that message for
 * me, and on the same sender's messages with the same pattern; the message drops its notice at once and
 * the thread is refetched (the message may then show another kind's notice, and others of that pattern
 * lose theirs). Undo takes it back and refetches.
 */
export function useSafetyFeedback(conversationId: string) {
  const queryClient = useQueryClient();
  const [confirmed, setConfirmed] = useState<SafetyConfirmation | null>(null);
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const refetch = () => queryClient.invalidateQueries({ queryKey: messageKeys.thread(conversationId) });
  const quiet = useMutation({
    mutationFn: ({ messageId, kind }: SafetyConfirmation) => quietSafetyNotice(conversationId, messageId, kind),
    onMutate: ({ messageId }) => setFailedFor((id) => (id === messageId ? null : id)),
    onSuccess: (_res, c) => {
      setConfirmed(c);
      queryClient.setQueryData<ThreadData>(messageKeys.thread(conversationId), (d) =>
        d && {
          ...d,
          pages: d.pages.map((p) => ({
            ...p,
            messages: p.messages.map((m) => (m.id === c.messageId && noticeKindOf(m) === c.kind ? { ...m, safety_notice: false, safety_kind: null } : m)),
          })),
        },
      );
      void refetch();
    },
    onError: (_err, { messageId }) => setFailedFor(messageId),
  });
  /** After Undo: the message whose "This is fine" gets the focus back once its notice is shown again. */
  const [refocus, setRefocus] = useState<string | null>(null);
  const undo = useMutation({
    mutationFn: ({ messageId, kind }: SafetyConfirmation) => unquietSafetyNotice(conversationId, messageId, kind),
    onSuccess: async (_res, c) => {
      await refetch();
      setConfirmed(null);
      setRefocus(c.messageId);
    },
  });
  return {
    confirmed,
    /** The message whose "This is fine" could not be saved (its notice says so). */
    failedFor,
    busy: quiet.isPending || undo.isPending,
    undoFailed: undo.isError,
    quiet: (messageId: string, kind: SafetyKind) => quiet.mutate({ messageId, kind }),
    undo: () => confirmed && undo.mutate(confirmed),
    refocus,
    refocused: () => setRefocus(null),
  };
}

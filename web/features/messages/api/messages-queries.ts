/** The messaging reads: the conversation list, one thread, and the thread's room. */
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ServerEvent } from "@party/protocol";
import { PARTIES } from "@contract/parties";
import { pollInterval, useIdle } from "../../../lib/activity";
import { publicUserQuery } from "../../../lib/public-user-api";
import { ApiError } from "../../../lib/api-client";
import { usePartySocket } from "../../../lib/party-socket";
import { useDealChanged } from "../../../lib/deals-api";
import { subscribeUnreadChanges, useInboxConnected } from "../../../lib/unread";
import { applyMessageToList, hasConversation, markThreadRead, upsertThreadMessage, type ConversationListData, type ThreadData } from "../lib/thread";
import { unreadLedgerOf } from "../lib/unread-ledger";
import { getConversationDetail, getConversationPage, getMessagePage, messageKeys } from "./messages-api";

/** The conversation list, newest activity first; polled (30 s, 60 s idle) while the inbox room is closed. */
export function useConversations() {
  const connected = useInboxConnected();
  const idle = useIdle();
  return useInfiniteQuery({
    queryKey: messageKeys.conversationList(),
    queryFn: ({ pageParam }) => getConversationPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.pagination.has_more && last.pagination.next_token ? last.pagination.next_token : undefined),
    refetchInterval: pollInterval("conversations", { connected, idle }),
  });
}

/**
 * One thread, newest page first; older pages load on scroll up (fetchNextPage). Polled (15 s, 30 s
 * idle) while the conversation's room is closed.
 */
export function useMessages(conversationId: string, connected: boolean) {
  const idle = useIdle();
  return useInfiniteQuery({
    queryKey: messageKeys.thread(conversationId),
    queryFn: ({ pageParam }) => getMessagePage(conversationId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.pagination.has_more && last.pagination.next_token ? last.pagination.next_token : undefined),
    // A conversation that is gone (deleted, or never ours) stays gone: no retries, no polling.
    retry: (failures, err) => !isGoneError(err) && failures < 3,
    refetchInterval: (q) => (isGoneError(q.state.error) ? false : pollInterval("conversation", { connected, idle })),
  });
}

/**
 * The open conversation's name and whether the viewer may write in it: read once
 * when the thread opens (a reload, a link, Message on a listing), also for a conversation with someone
 * the viewer blocked, which the list leaves out. Block and Unblock refetch it (they invalidate the
 * messages root). Not retried: the thread's own read says when a conversation is gone.
 */
export function useConversationDetail(conversationId: string) {
  return useQuery({
    queryKey: messageKeys.detail(conversationId),
    queryFn: () => getConversationDetail(conversationId),
    retry: false,
    staleTime: 60_000,
  });
}

/** The answer to a conversation that does not exist or is not the caller's. */
export const isGoneError = (err: unknown) => err instanceof ApiError && err.status === 404;

/**
 * What a conversation room's event changes in the cache: the push carries the data, so nothing is
 * refetched, except the list when the message's conversation is not in it yet.
 */
export function useApplyServerEvent(me: string, openConversationId: string | null) {
  const queryClient = useQueryClient();
  const dealChanged = useDealChanged();
  return (event: ServerEvent) => {
    if (event.type === "message") {
      const m = event.message;
      // The inbox room's `unread` event that follows counts it; the list below already shows it.
      if (m.sender_id !== me && !m.is_read) unreadLedgerOf(queryClient).expectIncoming(m.id);
      queryClient.setQueryData<ThreadData>(messageKeys.thread(m.conversation_id), (d) => upsertThreadMessage(d, m));
      const list = queryClient.getQueryData<ConversationListData>(messageKeys.conversationList());
      if (list && !hasConversation(list, m.conversation_id)) void queryClient.invalidateQueries({ queryKey: messageKeys.conversationList() });
      else queryClient.setQueryData<ConversationListData>(messageKeys.conversationList(), (d) => applyMessageToList(d, m, me, m.conversation_id === openConversationId));
    } else if (event.type === "deal") {
      // A deal of this conversation moved (accepted, declined, signed): its card shows my view of it now.
      dealChanged(event.views[me] ?? { id: event.deal_id });
    } else if (event.type === "read" && event.reader_id !== me) {
      // The other person read the thread: my messages are seen.
      queryClient.setQueryData<ThreadData>(messageKeys.thread(event.conversation_id), (d) => markThreadRead(d, (m) => m.sender_id === me));
    }
  };
}

/** Keeps the open conversation's room open; `connected` says whether polling can stop. */
export function useThreadSocket(conversationId: string | null, me: string) {
  const queryClient = useQueryClient();
  const apply = useApplyServerEvent(me, conversationId);
  const { connected } = usePartySocket({
    party: PARTIES.conversation,
    room: conversationId,
    onEvent: apply,
    onConnected: () => {
      if (conversationId) void queryClient.invalidateQueries({ queryKey: messageKeys.thread(conversationId) });
    },
  });
  return connected;
}

/**
 * While the messages page is open: a pushed change of the unread count that this tab did not expect (a
 * message in another conversation, a thread read on another device) refetches the conversation list,
 * the only way to learn which conversation moved; an expected one (unread-ledger.ts) is already shown.
 */
export function useInboxUnreadSync() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeUnreadChanges(({ previous, next }) => {
        if (!unreadLedgerOf(queryClient).explain(previous, next)) void queryClient.invalidateQueries({ queryKey: messageKeys.conversationList() });
      }),
    [queryClient],
  );
}

/** The other person's public profile (the header's trust signals and reviews); the listing page's owner query, briefly cached. */
export const useParticipant = (id: string | undefined) => useQuery({ ...publicUserQuery(id), staleTime: 5 * 60_000 });

/**
 * The unread badge on the navbar avatar and the inbox room (`/parties/inbox/{userId}`) that keeps it
 * live. The room's `unread` events set the count; while the room is not open the count is polled
 * every 30 s (GET messages/unread-count). A failed fetch sets the count to 0 (spec, section 8).
 * Other inbox events are passed to subscribers (the messages page merges them into its cache).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { UnreadCountResponse } from "@contract/messages";
import { PARTIES } from "@contract/constants";
import type { ServerEvent } from "@party/protocol";
import { pollInterval, useIdle } from "./activity";
import { apiRequest } from "./api-client";
import { usePartySocket } from "./party-socket";

/** The query-key roots shared by the badge (here) and the messages feature's key factory. */
export const messagesRootKey = ["messages"] as const;
export const unreadCountRootKey = [...messagesRootKey, "unread-count"] as const;
/** Per user, so a count never outlives a sign-out. */
export const unreadCountKey = (userId: string | null | undefined) => [...unreadCountRootKey, userId ?? null] as const;
export const conversationsRootKey = [...messagesRootKey, "conversations"] as const;

/** The count, or 0 when it cannot be fetched. */
export async function getUnreadCount(): Promise<number> {
  try {
    const res = await apiRequest<UnreadCountResponse>("messages/unread-count");
    const n = res?.data?.unread_count;
    return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

type InboxListener = (event: ServerEvent) => void;

/** The inbox room's state, outside React: whether it is open, and who listens to its events. */
const inbox = (() => {
  let connected = false;
  const statusListeners = new Set<() => void>();
  const eventListeners = new Set<InboxListener>();
  return {
    setConnected(value: boolean) {
      if (connected === value) return;
      connected = value;
      statusListeners.forEach((l) => l());
    },
    getConnected: () => connected,
    subscribeStatus(listener: () => void) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    emit(event: ServerEvent) {
      eventListeners.forEach((l) => l(event));
    },
    subscribe(listener: InboxListener) {
      eventListeners.add(listener);
      return () => {
        eventListeners.delete(listener);
      };
    },
  };
})();

/** Listen to the inbox room's events (message, read) while mounted. */
export const subscribeInbox = inbox.subscribe;

/** Whether the inbox room is open (the conversation list polls while it is not). */
export function useInboxConnected(): boolean {
  return useSyncExternalStore(inbox.subscribeStatus, inbox.getConnected, () => false);
}

/** The unread count of the signed-in user (0 when signed out); opens the inbox room. */
export function useUnreadCount(userId: string | null | undefined): number {
  const queryClient = useQueryClient();
  const idle = useIdle();
  const { connected } = usePartySocket({
    party: PARTIES.inbox,
    room: userId,
    onEvent: (event) => {
      if (event.type === "unread") {
        queryClient.setQueryData(unreadCountKey(userId), event.unread_count);
        // A new message somewhere: the list's previews, order and counts follow (it is not polled
        // while this room is open).
        void queryClient.invalidateQueries({ queryKey: conversationsRootKey });
      } else if (event.type === "message" || event.type === "read") {
        void queryClient.invalidateQueries({ queryKey: conversationsRootKey });
        inbox.emit(event);
      }
    },
    onConnected: () => {
      void queryClient.invalidateQueries({ queryKey: unreadCountRootKey });
      void queryClient.invalidateQueries({ queryKey: conversationsRootKey });
    },
  });
  useEffect(() => {
    inbox.setConnected(connected);
    return () => inbox.setConnected(false);
  }, [connected]);
  const query = useQuery({
    queryKey: unreadCountKey(userId),
    queryFn: getUnreadCount,
    enabled: !!userId,
    refetchInterval: pollInterval("unread", { connected, idle }),
  });
  return userId ? (query.data ?? 0) : 0;
}

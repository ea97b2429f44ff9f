/**
 * The unread badge on the navbar avatar and the inbox room (`/parties/inbox/{userId}`) that keeps it
 * live. The room sends only `unread` events (worker/services/messaging.ts): each sets the count; while
 * the room is not open the count is polled every 30 s (GET messages/unread-count). A failed fetch sets
 * the count to 0 (docs/product-rules.md "Wording"). Each change is also given to subscribers: the messages page decides
 * whether its conversation list already shows it (see features/messages/lib/unread-ledger.ts).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { UnreadCountResponse } from "@contract/messages";
import { PARTIES } from "@contract/parties";
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

/** A move of the unread count pushed by the inbox room: `previous` is what the cache held. */
export interface UnreadChange {
  previous: number | undefined;
  next: number;
}
type UnreadListener = (change: UnreadChange) => void;

/** The inbox room's state, outside React: whether it is open, and who listens to its count. */
const inbox = (() => {
  let connected = false;
  const statusListeners = new Set<() => void>();
  const changeListeners = new Set<UnreadListener>();
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
    /** How many listened. */
    emit(change: UnreadChange): number {
      changeListeners.forEach((l) => l(change));
      return changeListeners.size;
    },
    subscribe(listener: UnreadListener) {
      changeListeners.add(listener);
      return () => {
        changeListeners.delete(listener);
      };
    },
  };
})();

/** Listen to the pushed changes of the unread count (the messages page, while mounted). */
export const subscribeUnreadChanges = inbox.subscribe;

/** Whether the inbox room is open now: then every change of the count is pushed, no refetch needed. */
export const isInboxConnected = inbox.getConnected;

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
      if (event.type !== "unread") return;
      const previous = queryClient.getQueryData<number>(unreadCountKey(userId));
      queryClient.setQueryData(unreadCountKey(userId), event.unread_count);
      // Nobody shows the conversation list (the messages page is closed): it is only marked stale, and
      // is fetched when the page opens.
      if (inbox.emit({ previous, next: event.unread_count }) === 0) {
        void queryClient.invalidateQueries({ queryKey: conversationsRootKey, refetchType: "none" });
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

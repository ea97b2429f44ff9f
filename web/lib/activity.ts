/**
 * Polling while a room's socket is down (docs/product-rules.md "Timings and sizes"): the conversation list every 30 s (60 s when
 * idle), the open conversation every 15 s (30 s idle), the unread count every 30 s. Idle means no
 * pointer, key, scroll or visibility activity for 5 minutes. With the socket open, nothing polls.
 */
import { useSyncExternalStore } from "react";
import { TIMINGS } from "@contract/constants";

export const POLL_INTERVALS = {
  conversations: { active: 30_000, idle: 60_000 },
  conversation: { active: 15_000, idle: 30_000 },
  unread: { active: TIMINGS.unreadPollMs, idle: TIMINGS.unreadPollMs },
} as const;

export type PollKind = keyof typeof POLL_INTERVALS;

/** react-query's refetchInterval: false while the socket is open, else the product's interval (docs/product-rules.md "Timings and sizes"). */
export function pollInterval(kind: PollKind, state: { connected: boolean; idle: boolean }): number | false {
  if (state.connected) return false;
  return state.idle ? POLL_INTERVALS[kind].idle : POLL_INTERVALS[kind].active;
}

const ACTIVITY_EVENTS = ["pointerdown", "pointermove", "keydown", "wheel", "touchstart", "scroll"] as const;

/** One shared idle tracker for the whole app: listeners are attached while anyone subscribes. */
function createIdleStore(idleMs: number) {
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastReset = 0;
  const listeners = new Set<() => void>();
  const set = (value: boolean) => {
    if (idle === value) return;
    idle = value;
    listeners.forEach((l) => l());
  };
  const arm = () => {
    clearTimeout(timer);
    lastReset = Date.now();
    timer = setTimeout(() => set(true), idleMs);
  };
  const onActivity = () => {
    set(false);
    // pointermove fires constantly: re-arm at most once a second.
    if (Date.now() - lastReset > 1000 || idle) arm();
  };
  const onVisibility = () => {
    if (document.visibilityState === "visible") {
      set(false);
      arm();
    }
  };
  return {
    subscribe(listener: () => void) {
      if (listeners.size === 0) {
        ACTIVITY_EVENTS.forEach((e) => window.addEventListener(e, onActivity, { passive: true, capture: true }));
        document.addEventListener("visibilitychange", onVisibility);
        idle = false;
        arm();
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          ACTIVITY_EVENTS.forEach((e) => window.removeEventListener(e, onActivity, { capture: true }));
          document.removeEventListener("visibilitychange", onVisibility);
          clearTimeout(timer);
        }
      };
    },
    get: () => idle,
  };
}

const idleStore = createIdleStore(TIMINGS.idleMs);

/** True after 5 minutes without user activity. */
export function useIdle(): boolean {
  return useSyncExternalStore(idleStore.subscribe, idleStore.get, () => false);
}

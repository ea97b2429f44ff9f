/**
 * The hook that keeps a real-time room open (the connection itself is in party-connection.ts). That
 * module, partysocket and the event schemas (zod) are loaded on first use, so pages that never open a
 * room, and every visitor, do not download them.
 */
import { useEffect, useEffectEvent, useState } from "react";
import type { ServerEvent } from "@party/protocol";

interface UsePartySocket {
  party: string;
  room: string | null | undefined;
  enabled?: boolean;
  onEvent: (event: ServerEvent) => void;
  /**
   * Each time the socket becomes connected: events sent while it was down (or before it first opened)
   * were not pushed, so refetch what it keeps fresh.
   */
  onConnected?: () => void;
}

/**
 * Keeps a room open while `enabled` and gives its events to `onEvent` (the latest one passed).
 * `connected` is true only while the socket is (stably) open: poll while it is false.
 */
export function usePartySocket({ party, room, enabled = true, onEvent, onConnected }: UsePartySocket) {
  const [connected, setConnected] = useState(false);
  const handle = useEffectEvent(onEvent);
  const connectedNow = useEffectEvent(() => onConnected?.());
  useEffect(() => {
    if (!enabled || !room) return;
    let close: (() => void) | null = null;
    let cancelled = false;
    void import("./party-connection").then(({ connectParty }) => {
      if (cancelled) return;
      close = connectParty({
        party,
        room,
        onEvent: (e) => handle(e),
        onStatus: (value) => {
          setConnected(value);
          if (value) connectedNow();
        },
      });
    });
    return () => {
      cancelled = true;
      close?.();
    };
  }, [party, room, enabled]);
  return { connected: enabled && !!room && connected };
}

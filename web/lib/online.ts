/**
 * Whether the browser has a connection (docs/decisions/042): the `online`/`offline` events and
 * navigator.onLine, read by the offline banner, the deal page and a page that cannot load.
 */
import { useEffect, useSyncExternalStore } from "react";

/** What a page that was never saved on this device says when it is opened offline. */
export const OFFLINE_NOT_SAVED = "You're offline, and this page wasn't saved on this device. It will load when you're back online.";

/** What any other read says offline (a section of a page, a list): it is not an error of the app. */
export const OFFLINE_READ = "You're offline: this loads when you're back online.";

export const isOffline = () => typeof navigator !== "undefined" && navigator.onLine === false;

function subscribe(listener: () => void) {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

/** True while the browser says it is offline; a server render (and its hydration) is online. */
export const useOffline = () => useSyncExternalStore(subscribe, isOffline, () => false);

/**
 * Runs `again` when the connection comes back. TanStack Query's own refetch on reconnect misses a page
 * opened offline: its online manager starts online and only hears a change, so the `online` event after
 * an offline start changes nothing for it.
 */
export function useWhenBackOnline(again: () => unknown) {
  useEffect(() => {
    const online = () => void again();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [again]);
}

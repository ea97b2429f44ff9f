/**
 * Whether the app can reach its server (docs/decisions/042): offline when the browser says so
 * (navigator.onLine and its `online`/`offline` events) or when the last call to the API found no
 * connection (a browser that still says online: a dead Wi-Fi, an emulated outage, a page the service
 * worker served offline). Read by the offline banner, the deal page and a page that cannot load.
 */
import { useEffect, useRef, useSyncExternalStore } from "react";

/** What a page that was never saved on this device says when it is opened offline. */
export const OFFLINE_NOT_SAVED = "You're offline, and this page wasn't saved on this device. It will load when you're back online.";

/** What any other read says offline (a section of a page, a list): it is not an error of the app. */
export const OFFLINE_READ = "You're offline: this loads when you're back online.";

/** While the API is unreachable, how often a small request asks whether it is back. */
export const PROBE_MS = 10_000;

let unreachable = false;
/** When the page the service worker served offline had been saved (its banner said), until the API answers again. */
let pageSavedAt: string | null = null;
let probe: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const isOffline = () => unreachable || (typeof navigator !== "undefined" && navigator.onLine === false);

/** The API answered (true) or a call found no connection (false): the app's own reading of the connection. */
export function reportReach(reached: boolean) {
  if (typeof window === "undefined" || unreachable === !reached) return;
  unreachable = !reached;
  if (reached) pageSavedAt = null;
  if (probe) clearTimeout(probe);
  probe = null;
  // Nothing else may call the API for a while (a page read from this device): ask, until it answers.
  if (unreachable) {
    const ask = () => {
      probe = setTimeout(() => {
        fetch("/version.txt", { cache: "no-store" }).then(() => reportReach(true), ask);
      }, PROBE_MS);
    };
    ask();
  }
  emit();
}

/** The service worker served this page offline, saved at `savedAt` (web/public/sw.js). */
export function servedOffline(savedAt: string | null) {
  pageSavedAt = savedAt;
  // Told afresh, so the banner hears it even when a call had already found no connection.
  unreachable = false;
  reportReach(false);
}

if (typeof window !== "undefined") {
  window.addEventListener("online", () => (unreachable ? reportReach(true) : emit()));
  window.addEventListener("offline", emit);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** True while offline; a server render (and its hydration) is online. */
export const useOffline = () => useSyncExternalStore(subscribe, isOffline, () => false);

/** Offline or not, and when the page the service worker served offline had been saved (null when unknown). */
export function useConnection() {
  // One string, compared by value: "" online (as a server render and its hydration are), else "off" and the time.
  const state = useSyncExternalStore(subscribe, () => (isOffline() ? `off${pageSavedAt ?? ""}` : ""), () => "");
  return { offline: state !== "", pageSavedAt: state.length > 3 ? state.slice(3) : null };
}

/**
 * Runs `again` when the connection comes back. TanStack Query's own refetch on reconnect misses a page
 * opened offline: its online manager starts online and only hears the browser's events.
 */
export function useWhenBackOnline(again: () => unknown) {
  const offline = useOffline();
  const was = useRef(offline);
  useEffect(() => {
    if (was.current && !offline) void again();
    was.current = offline;
  }, [offline, again]);
}

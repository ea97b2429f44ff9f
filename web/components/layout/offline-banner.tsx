import { useEffect, useSyncExternalStore } from "react";
import { useOffline } from "../../lib/online";

const clock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

/** The static banner the service worker puts on a page it served offline (web/public/sw.js). */
const WORKER_BANNER = "sw-offline-banner";

/** This page was served offline by the worker (and when it had been saved), until the browser is online again. */
let fromWorker: { savedAt: string | null } | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

function subscribe(listener: () => void) {
  listeners.add(listener);
  const online = () => {
    if (!fromWorker) return;
    fromWorker = null;
    emit();
  };
  window.addEventListener("online", online);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("online", online);
  };
}

/** Takes the worker's banner over: its saved time is kept here and the static element goes. */
function takeWorkerBanner() {
  const banner = document.getElementById(WORKER_BANNER);
  if (!banner) return;
  fromWorker = { savedAt: banner.dataset.savedAt ?? null };
  banner.remove();
  emit();
}

/**
 * "You're offline" while the connection is gone, and nothing once it is back (docs/decisions/042). A
 * page the service worker served offline carries the worker's static banner: this one takes it over
 * (its saved time included) so the banner goes when the connection comes back. The live region is
 * always there, empty while online, so a screen reader hears it appear.
 */
export function OfflineBanner() {
  const offline = useOffline();
  const worker = useSyncExternalStore(subscribe, () => fromWorker, () => null);
  useEffect(takeWorkerBanner, []);
  const savedAt = worker?.savedAt;
  return (
    <div role="status" className="offline-banner">
      {offline || worker
        ? savedAt
          ? `You're offline: this is what you saw at ${clock(savedAt)}.`
          : "You're offline. What this device saved still opens; the rest loads when you're back online."
        : null}
    </div>
  );
}

import { useEffect } from "react";
import { servedOffline, useConnection } from "../../lib/online";

const clock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

/** The static banner the service worker puts on a page it served offline (web/public/sw.js). */
const WORKER_BANNER = "sw-offline-banner";

/** Takes the worker's banner over: the page came from no connection, and its saved time is kept here. */
function takeWorkerBanner() {
  const banner = document.getElementById(WORKER_BANNER);
  if (!banner) return;
  banner.remove();
  servedOffline(banner.dataset.savedAt ?? null);
}

/**
 * "You're offline" while the connection is gone, and nothing once it is back (docs/decisions/042). A
 * page the service worker served offline carries the worker's static banner: this one takes it over
 * (its saved time included) so the banner goes when the connection comes back. The live region is
 * always there, empty while online, so a screen reader hears it appear.
 */
export function OfflineBanner() {
  const { offline, pageSavedAt: savedAt } = useConnection();
  useEffect(takeWorkerBanner, []);
  return (
    <div role="status" className="offline-banner">
      {offline
        ? savedAt
          ? `You're offline: this is what you saw at ${clock(savedAt)}.`
          : "You're offline. What this device saved still opens; the rest loads when you're back online."
        : null}
    </div>
  );
}

import { useEffect, useState } from "react";
import { useOffline } from "../../lib/online";

const clock = (iso: string) => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
};

/**
 * "You're offline" while the connection is gone, and nothing once it is back (docs/decisions/042). A
 * page the service worker served offline carries the worker's static banner: this one takes it over
 * (its saved time included) so the banner goes when the connection comes back. The live region is
 * always there, empty while online, so a screen reader hears it appear.
 */
export function OfflineBanner() {
  const offline = useOffline();
  // Served by the worker: offline for this page until the browser says it is online again.
  const [fromWorker, setFromWorker] = useState<{ savedAt: string | null } | null>(null);
  useEffect(() => {
    const banner = document.getElementById("sw-offline-banner");
    if (!banner) return;
    setFromWorker({ savedAt: banner.dataset.savedAt ?? null });
    banner.remove();
  }, []);
  useEffect(() => {
    if (!fromWorker) return;
    const online = () => setFromWorker(null);
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [fromWorker]);
  const savedAt = fromWorker?.savedAt;
  return (
    <div role="status" className="offline-banner">
      {offline || fromWorker
        ? savedAt
          ? `You're offline: this is what you saw at ${clock(savedAt)}.`
          : "You're offline. What this device saved still opens; the rest loads when you're back online."
        : null}
    </div>
  );
}

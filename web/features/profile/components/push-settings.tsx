/**
 * Push per kind, quiet hours, and this device (docs/decisions/027). Loaded lazily by the profile page:
 * the push client code never weighs on the home page.
 */
import { useEffect, useState, type FormEvent } from "react";
import type { NotificationKind } from "@contract/users";
import { useToast } from "../../../components/ui/toast";
import { useSession } from "../../../lib/session";
import { disablePush, enablePush, isSubscribed, pushSupport } from "../../../lib/push/client";
import { useUpdateNotifications } from "../api/profile-api";
import { profileErrorMessage, useSessionExpiry } from "../hooks/use-profile-errors";

const KINDS: { kind: NotificationKind; label: string }[] = [
  { kind: "messages", label: "New messages" },
  { kind: "deals", label: "Deal steps, receipts and billing" },
  { kind: "saved_searches", label: "Saved-search matches and “still available?”" },
  { kind: "reviews", label: "Listing and identity reviews" },
];

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export default function PushSettings() {
  const { session } = useSession();
  const toast = useToast();
  const expireOn401 = useSessionExpiry();
  const update = useUpdateNotifications();
  const settings = session!.user.notification_settings;
  const support = pushSupport();
  const [device, setDevice] = useState<"unknown" | "on" | "off" | "blocked">(() => (support === "supported" && Notification.permission === "denied" ? "blocked" : "unknown"));
  const [start, setStart] = useState(settings.quiet_hours?.start ?? "22:00");
  const [end, setEnd] = useState(settings.quiet_hours?.end ?? "07:00");

  useEffect(() => {
    if (support !== "supported" || Notification.permission === "denied") return;
    void isSubscribed().then((on) => setDevice(on ? "on" : "off"));
  }, [support]);

  const save = (body: Parameters<typeof update.mutate>[0]) =>
    update.mutate(body, {
      onError: (err) => {
        expireOn401(err);
        toast.show(profileErrorMessage(err, "Notification settings update failed"), { kind: "error", durationMs: 3000 });
      },
    });

  async function toggleDevice() {
    try {
      if (device === "on") {
        await disablePush();
        setDevice("off");
      } else {
        const result = await enablePush();
        setDevice(result === "subscribed" ? "on" : result === "denied" ? "blocked" : "off");
      }
    } catch {
      toast.show("Notifications could not be changed on this device", { kind: "error", durationMs: 3000 });
    }
  }

  function saveQuietHours(e: FormEvent) {
    e.preventDefault();
    save({ quiet_hours: { start, end, time_zone: settings.quiet_hours?.time_zone ?? browserZone() } });
  }

  return (
    <div className="stack-sm">
      {support === "ios-home-screen" ? (
        <p>Add to Home Screen to get notifications: tap Share, then “Add to Home Screen”, and open CampusNest from there.</p>
      ) : support === "unsupported" ? (
        <p>This browser cannot show notifications from websites. Email keeps you posted.</p>
      ) : device === "blocked" ? (
        <p role="status">Notifications are blocked for this site. Allow them in your browser’s site settings to get them here.</p>
      ) : (
        <button type="button" className="btn" disabled={device === "unknown"} onClick={() => void toggleDevice()}>
          {device === "on" ? "Turn off notifications on this device" : "Turn on notifications on this device"}
        </button>
      )}
      <fieldset className="stack-sm toggles">
        <legend>Push notifications for</legend>
        {KINDS.map(({ kind, label }) => (
          <label key={kind} className="switch">
            <input type="checkbox" checked={settings[kind].push} disabled={update.isPending} onChange={(e) => save({ [kind]: { push: e.target.checked } })} />
            {label}
          </label>
        ))}
      </fieldset>
      <form className="stack-sm" onSubmit={saveQuietHours} aria-labelledby="quiet-hours-heading">
        <h3 id="quiet-hours-heading">Quiet hours</h3>
        <p className="muted">
          {settings.quiet_hours
            ? `Pushes wait from ${settings.quiet_hours.start} to ${settings.quiet_hours.end} (${settings.quiet_hours.time_zone}); one summary follows.`
            : "Off: pushes arrive at any hour."}
        </p>
        <div className="row">
          <label>
            From <input type="time" value={start} required onChange={(e) => setStart(e.target.value)} />
          </label>
          <label>
            To <input type="time" value={end} required onChange={(e) => setEnd(e.target.value)} />
          </label>
        </div>
        <div className="row">
          <button type="submit" className="btn" disabled={update.isPending}>
            Save quiet hours
          </button>
          {settings.quiet_hours && (
            <button type="button" className="btn" disabled={update.isPending} onClick={() => save({ quiet_hours: null })}>
              Turn quiet hours off
            </button>
          )}
        </div>
      </form>
    </div>
  );
}

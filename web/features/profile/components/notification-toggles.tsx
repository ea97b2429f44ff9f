import { useState } from "react";
import type { NotificationSettings } from "@contract/users";
import { useSession } from "../../../lib/session";
import { useUpdateNotifications } from "../api/profile-api";
import { profileErrorMessage, useSessionExpiry } from "../hooks/use-profile-errors";

/** The older email switches: each is the `email` of its kind (docs/decisions/027). */
type EmailKey = keyof NotificationSettings & `email_on_${string}`;

const TOGGLES: { key: EmailKey; label: string }[] = [
  { key: "email_on_message", label: "Email me when I get a new message" },
  { key: "email_on_listing_review", label: "Email me when my listing is approved or rejected" },
  { key: "email_on_verification_review", label: "Email me when my identity review is done" },
  { key: "email_on_saved_search", label: "Saved search alerts: email me new listings that match my saved searches" },
];

export function NotificationToggles() {
  const { session } = useSession();
  const expireOn401 = useSessionExpiry();
  const update = useUpdateNotifications();
  // What the last change came to, said beside the switches: a switch alone never tells whether it saved.
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const user = session!.user;
  const saving = (key: EmailKey) => update.isPending && !!update.variables && key in update.variables;

  function toggle(key: EmailKey, value: boolean) {
    setOutcome(null);
    update.mutate(
      { [key]: value },
      {
        onSuccess: () => setOutcome({ ok: true, text: "Saved." }),
        onError: (err) => {
          expireOn401(err);
          setOutcome({ ok: false, text: `Not saved: ${profileErrorMessage(err, "Preferences update failed")}` });
        },
      },
    );
  }

  return (
    <fieldset className="stack-sm toggles">
      <legend className="visually-hidden">Email notifications</legend>
      {TOGGLES.map(({ key, label }) => (
        <label key={key} className="switch">
          <input type="checkbox" checked={user.notification_settings[key] ?? true} disabled={saving(key)} onChange={(e) => toggle(key, e.target.checked)} />
          {label}
        </label>
      ))}
      {/* Always in the page, so screen readers announce what is written into it. */}
      <p role="status" aria-live="polite" className={outcome && !outcome.ok ? "field-error" : "field-hint"}>
        {update.isPending ? "Saving…" : (outcome?.text ?? "")}
      </p>
    </fieldset>
  );
}

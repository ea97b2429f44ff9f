import type { NotificationSettings } from "@contract/users";
import { useToast } from "../../../components/ui/toast";
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
  const toast = useToast();
  const expireOn401 = useSessionExpiry();
  const update = useUpdateNotifications();
  const user = session!.user;
  const saving = (key: EmailKey) => update.isPending && !!update.variables && key in update.variables;

  function toggle(key: EmailKey, value: boolean) {
    update.mutate({ [key]: value }, {
        onError: (err) => {
          expireOn401(err);
          toast.show(profileErrorMessage(err, "Preferences update failed"), { kind: "error", durationMs: 3000 });
        },
      });
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
    </fieldset>
  );
}

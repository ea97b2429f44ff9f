import { useState, type FormEvent, type ReactNode } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { NotificationSettings } from "@contract/users";
import { DELETE_ACCOUNT_CONFIRMATION } from "@contract/profile";
import { PageFrame } from "../../../components/layout/page-frame";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { UniversitySelect } from "../../../components/university-select";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { deleteAccount, updateNotifications, updateProfile } from "../api/profile-api";
import { AvatarUploader } from "./avatar-uploader";

const ID_STATUS_TEXT: Record<string, string> = {
  unverified: "Not verified",
  pending: "Awaiting review",
  approved: "Verified",
  verified: "Verified",
  rejected: "Rejected",
};

/** 401 ends the session (spec: 'Your session has expired. Please log in again.'). */
function useProfileErrors() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  return (err: unknown, fallback: string): string => {
    if (err instanceof ApiError && err.status === 401) {
      signOut();
      navigate(paths.home);
      toast.show("Your session has expired. Please log in again.", { kind: "error", durationMs: 4000 });
      return "Your session has expired. Please log in again.";
    }
    if (err instanceof ApiError && err.isNetworkError) return "Network error occurred.";
    return errorMessage(err, fallback);
  };
}

function EditProfileForm() {
  const { session, setUser } = useSession();
  const toast = useToast();
  const handleError = useProfileErrors();
  const user = session!.user;
  const [form, setForm] = useState({
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone ?? "",
    university_id: user.university_id ? String(user.university_id) : "",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!form.first_name.trim()) found.first_name = "First name is required";
    if (!form.last_name.trim()) found.last_name = "Last name is required";
    setErrors(found);
    setError(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      setUser(
        await updateProfile({
          first_name: form.first_name,
          last_name: form.last_name,
          phone: form.phone.trim() || null,
          university_id: form.university_id ? Number(form.university_id) : null,
        }),
      );
      toast.show("Profile updated", { kind: "success" });
    } catch (err) {
      if (err instanceof ApiError && err.body?.errors) setErrors(Object.fromEntries(err.body.errors.map((e) => [e.path, e.message])));
      setError(handleError(err, "Failed to update profile"));
    } finally {
      setBusy(false);
    }
  }

  const bind = (name: keyof typeof form) => ({
    value: form[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  return (
    <form onSubmit={onSubmit} noValidate className="stack">
      <div className="grid-2">
        <TextField label="First name" autoComplete="given-name" {...bind("first_name")} />
        <TextField label="Last name" autoComplete="family-name" {...bind("last_name")} />
      </div>
      <div className="grid-2">
        <TextField label="Phone (optional)" type="tel" autoComplete="tel" hint="Never shown to other students." {...bind("phone")} />
        <UniversitySelect
          value={form.university_id}
          error={errors.university_id}
          emptyLabel="No university"
          onChange={(v) => setForm((f) => ({ ...f, university_id: v }))}
        />
      </div>
      <FormError message={error} />
      <div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Saving…" : "Save changes"}
        </button>
      </div>
    </form>
  );
}

const TOGGLES: { key: keyof NotificationSettings; label: string }[] = [
  { key: "email_on_message", label: "Email me when I get a new message" },
  { key: "email_on_listing_review", label: "Email me when my listing is approved or rejected" },
  { key: "email_on_verification_review", label: "Email me when my identity review is done" },
];

function NotificationToggles() {
  const { session, setUser } = useSession();
  const toast = useToast();
  const handleError = useProfileErrors();
  const user = session!.user;
  const [saving, setSaving] = useState<string | null>(null);

  async function toggle(key: keyof NotificationSettings, value: boolean) {
    setSaving(key);
    try {
      const settings = await updateNotifications({ [key]: value });
      setUser({ ...user, notification_settings: settings });
    } catch (err) {
      toast.show(handleError(err, "Preferences update failed"), { kind: "error", durationMs: 3000 });
    } finally {
      setSaving(null);
    }
  }

  return (
    <fieldset className="stack-sm toggles">
      <legend className="visually-hidden">Email notifications</legend>
      {TOGGLES.map(({ key, label }) => (
        <label key={key} className="switch">
          <input type="checkbox" checked={user.notification_settings[key]} disabled={saving === key} onChange={(e) => toggle(key, e.target.checked)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function DeleteAccount() {
  const navigate = useNavigate();
  const { signOut } = useSession();
  const toast = useToast();
  const handleError = useProfileErrors();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onDelete() {
    setBusy(true);
    setError(null);
    try {
      await deleteAccount();
      signOut();
      navigate(paths.home);
      toast.show("Your account was deleted.", { kind: "success", durationMs: 4000 });
    } catch (err) {
      setError(handleError(err, "Failed to delete account"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        Delete account
      </button>
      <Dialog
        open={open}
        alert
        onClose={() => {
          setOpen(false);
          setTyped("");
        }}
        size="sm"
        title="Delete your account?"
        description="This removes your profile, listings, photos and favourites for good. Messages you sent stay, shown as from a deleted user."
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="button" className="button button-danger" disabled={typed !== DELETE_ACCOUNT_CONFIRMATION || busy} onClick={onDelete}>
              {busy ? "Deleting…" : "Delete forever"}
            </button>
          </>
        }
      >
        <TextField
          label={`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`}
          value={typed}
          autoComplete="off"
          onChange={(e) => setTyped(e.target.value)}
          data-autofocus
        />
        <FormError message={error} />
      </Dialog>
    </>
  );
}

export function ProfilePage({ listings }: { listings?: ReactNode }) {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const user = session!.user;
  const idStatus = user.id_verification_status;
  return (
    <PageFrame title="My Profile">
      <div className="profile-grid">
        <section className="panel stack" aria-labelledby="about-heading">
          <div className="profile-head">
            <AvatarUploader />
            <div>
              <h2 id="about-heading">
                {user.first_name} {user.last_name}
              </h2>
              <p className="muted">{user.email}</p>
              <p>
                <span className={`badge badge-${idStatus}`}>{ID_STATUS_TEXT[idStatus] ?? idStatus}</span>{" "}
                {idStatus !== "verified" && idStatus !== "approved" && idStatus !== "pending" && (
                  <Link to={paths.verification}>Get verified</Link>
                )}
              </p>
            </div>
          </div>
          <h2>Edit profile</h2>
          <EditProfileForm />
        </section>
        <aside className="stack">
          <section className="panel stack-sm" aria-labelledby="notifications-heading">
            <h2 id="notifications-heading">Email notifications</h2>
            <NotificationToggles />
          </section>
          <section className="panel stack-sm" aria-labelledby="account-heading">
            <h2 id="account-heading">Account</h2>
            <div className="row row-start">
              <button
                type="button"
                className="button button-ghost"
                onClick={() => {
                  signOut();
                  navigate(paths.home);
                }}
              >
                Sign out
              </button>
              <DeleteAccount />
            </div>
          </section>
        </aside>
        {listings}
      </div>
    </PageFrame>
  );
}

import { useState, type FormEvent } from "react";
import { LIMITS } from "@contract/limits";
import { isIdVerified } from "@contract/policies";
import { profileUpdateSchema, type ProfileUpdate } from "@contract/profile";
import { REVIEW_TIME } from "@contract/waits";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { UniversityCombobox } from "../../../components/university-combobox";
import { ApiError } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { useUpdateProfile } from "../api/profile-api";
import { profileErrorMessage, useSessionExpiry } from "../hooks/use-profile-errors";

const byField = (issues: { path: PropertyKey[] | string; message: string }[]) =>
  Object.fromEntries(issues.map((i) => [Array.isArray(i.path) ? String(i.path[0]) : i.path, i.message]));

export function EditProfileForm() {
  const { session } = useSession();
  const toast = useToast();
  const expireOn401 = useSessionExpiry();
  const update = useUpdateProfile();
  const user = session!.user;
  const [form, setForm] = useState({
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone ?? "",
    university_id: user.university_id ? String(user.university_id) : "",
  });
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  // A verified student's new name waits here while they confirm it restarts their ID review.
  const [renaming, setRenaming] = useState<ProfileUpdate | null>(null);
  const serverErrors = update.error instanceof ApiError && update.error.body?.errors ? byField(update.error.body.errors) : {};
  const errors: Record<string, string> = { ...invalid, ...serverErrors };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const input = profileUpdateSchema.safeParse({
      first_name: form.first_name,
      last_name: form.last_name,
      phone: form.phone.trim() || null,
      university_id: form.university_id ? Number(form.university_id) : null,
    });
    setInvalid(input.success ? {} : byField(input.error.issues));
    if (!input.success) return update.reset();
    // The legal name on agreements is the one checked against the ID: a new one goes back to review
    // (the server's rule, services/profile.ts), so a verified student is told before it is saved.
    const renamed = input.data.first_name !== user.first_name || input.data.last_name !== user.last_name;
    if (renamed && isIdVerified(user)) return setRenaming(input.data);
    save(input.data);
  }

  function save(data: ProfileUpdate) {
    setRenaming(null);
    update.mutate(data, {
      onSuccess: () => toast.show("Profile updated", { kind: "success" }),
      onError: expireOn401,
    });
  }

  const bind = (name: keyof typeof form) => ({
    value: form[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  return (
    <form onSubmit={onSubmit} noValidate className="stack">
      <div className="grid-2">
        <TextField label="First name" autoComplete="given-name" limit={LIMITS.nameMax} {...bind("first_name")} />
        <TextField label="Last name" autoComplete="family-name" limit={LIMITS.nameMax} {...bind("last_name")} />
      </div>
      <div className="grid-2">
        <TextField label="Phone (optional)" type="tel" autoComplete="tel" hint="Never shown to other students." limit={LIMITS.phoneMax} limitLabel="Phone" {...bind("phone")} />
        <UniversityCombobox
          value={form.university_id || null}
          error={errors.university_id}
          placeholder="No university"
          emptyOption="No university"
          onChange={(v) => setForm((f) => ({ ...f, university_id: v ?? "" }))}
        />
      </div>
      <FormError message={update.error && profileErrorMessage(update.error, "Failed to update profile")} />
      <div>
        <button type="submit" className="button button-primary" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save changes"}
        </button>
      </div>
      <Dialog
        open={renaming !== null}
        onClose={() => setRenaming(null)}
        size="sm"
        alert
        title="Change your name and restart ID review?"
        description={
          renaming
            ? `Your ID was checked for ${user.first_name} ${user.last_name}. Saving ${renaming.first_name} ${renaming.last_name} sends your identity back to review (${REVIEW_TIME}): until staff approve the new name, you can't create listings or sign agreements.`
            : undefined
        }
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setRenaming(null)} data-autofocus>
              Keep my name
            </button>
            <button type="button" className="button button-primary" onClick={() => renaming && save(renaming)}>
              Change name and restart review
            </button>
          </>
        }
      />
    </form>
  );
}

import { useState } from "react";
import { adminListingEditSchema } from "@contract/admin";
import { Dialog } from "../../../components/ui/dialog";
import { TextAreaField, TextField } from "../../../components/ui/field";
import type { AdminListing } from "@contract/admin";
import type { AdminListingEdit } from "../api/admin-api";

/** Staff corrections, checked with the API's own schema (its limits and messages). */
export function EditListingDialog({ listing, onClose, onSave }: { listing: AdminListing; onClose: () => void; onSave: (edit: AdminListingEdit) => void }) {
  const [title, setTitle] = useState(listing.title);
  const [description, setDescription] = useState(listing.description);
  const [rent, setRent] = useState(String(listing.monthly_rent));
  const [visibility, setVisibility] = useState(listing.moderation_status);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open onClose={onClose} title="Edit listing" description="Corrections are saved as they are and written to the audit log.">
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          const edit = adminListingEditSchema.safeParse({ title, description, monthly_rent: Math.round(Number(rent)), moderation_status: visibility === "suspended" ? undefined : visibility });
          if (!edit.success) return setError(edit.error.issues[0]!.message);
          onSave(edit.data);
        }}
      >
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
        <TextAreaField label="Description" rows={4} value={description} onChange={(e) => setDescription(e.target.value)} />
        <TextField label="Monthly rent ($)" type="number" min={1} value={rent} onChange={(e) => setRent(e.target.value)} />
        <label className="field">
          <span className="field-label">Visibility (staff only; the owner cannot undo it)</span>
          <select value={visibility} onChange={(e) => setVisibility(e.target.value as AdminListing["moderation_status"])}>
            <option value="visible">Visible</option>
            <option value="hidden">Hidden by staff</option>
            {visibility === "suspended" && (
              <option value="suspended" disabled>
                Owner suspended
              </option>
            )}
          </select>
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-primary">
          Save
        </button>
      </form>
    </Dialog>
  );
}

import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { ALERT_FREQUENCIES, canonicalSavedQuery, SAVED_SEARCH, type AlertFrequency } from "@contract/saved-searches";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import { defaultSearchName, useCreateSavedSearch } from "../../../lib/saved-searches-api";
import { useUniversities } from "../../../lib/universities";

const FREQUENCY_TEXT: Record<AlertFrequency, { label: string; hint: string }> = {
  // Not "Instant": at most one email a day (docs/decisions/020); later matches that day come the next.
  instant: { label: "First match of the day", hint: "An email as soon as a new listing matches, at most one a day" },
  daily: { label: "Daily digest", hint: "One email a day with every new match" },
};

/** Save this search: a name (prefilled from the filters) and how alerts arrive. */
export function SaveSearchDialog({ open, query, onClose }: { open: boolean; query: string; onClose: () => void }) {
  const universities = useUniversities();
  const canonical = canonicalSavedQuery(query);
  const [name, setName] = useState<string | null>(null);
  const [frequency, setFrequency] = useState<AlertFrequency>("instant");
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useCreateSavedSearch();
  const toast = useToast();
  const navigate = useNavigate();
  // Prefilled from the filters once the universities' names are there; the student's typing wins.
  const value = name ?? defaultSearchName(canonical, universities.data);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = value.trim();
    if (!trimmed) return setNameError("Name is required");
    // The field already says how much to cut.
    if (trimmed.length > SAVED_SEARCH.nameMaxLength) return setNameError(null);
    setNameError(null);
    create.mutate(
      { name: trimmed, query: canonical, alert_frequency: frequency },
      {
        onSuccess: () => {
          onClose();
          toast.show("Search saved", {
            kind: "success",
            durationMs: 5000,
            action: { label: "See saved searches", href: paths.profile, onClick: () => navigate(paths.profile) },
          });
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title="Save this search"
      description="We email you when a new listing matches these filters. Manage your searches in your profile."
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="save-search-form" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? "Saving…" : "Save search"}
          </button>
        </>
      }
    >
      <form id="save-search-form" className="stack-sm" onSubmit={submit} noValidate>
        <TextField
          label="Name"
          value={value}
          limit={SAVED_SEARCH.nameMaxLength}
          onChange={(e) => setName(e.target.value)}
          error={nameError}
          data-autofocus
          required
        />
        <fieldset className="report-reasons">
          <legend className="field-label">Email alerts</legend>
          {ALERT_FREQUENCIES.map((f) => (
            <label key={f} className="radio-row">
              <input type="radio" name="alert_frequency" value={f} checked={frequency === f} onChange={() => setFrequency(f)} />
              <span>
                {FREQUENCY_TEXT[f].label} <span className="muted">— {FREQUENCY_TEXT[f].hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <FormError message={create.isError ? errorMessage(create.error, "Could not save the search. Please try again.") : null} />
      </form>
    </Dialog>
  );
}

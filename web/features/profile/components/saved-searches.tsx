import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { SAVED_SEARCH, type AlertFrequency, type SavedSearch } from "@contract/saved-searches";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextField } from "../../../components/ui/field";
import { Loadable } from "../../../components/ui/loadable";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import { defaultSearchName, describeSavedQuery, useDeleteSavedSearch, useSavedSearches, useUpdateSavedSearch } from "../../../lib/saved-searches-api";
import { useUniversities } from "../../../lib/universities";
import { useSessionExpiry } from "../hooks/use-profile-errors";

/** The profile's "Saved searches" (docs/decisions/020): each with Open, Rename, alerts (first match of the day / daily digest), Pause/Resume, Delete. */
export function SavedSearches() {
  const query = useSavedSearches();
  return (
    <section className="panel stack-sm" aria-labelledby="saved-searches-heading">
      <h2 id="saved-searches-heading">Saved searches</h2>
      <Loadable query={query} label="saved searches">
        {(searches) =>
          searches.length === 0 ? (
            <p className="muted">
              No saved searches yet. Filter the listings on <Link to={paths.home}>Browse</Link> and choose Save this search to get an email when a new one matches.
            </p>
          ) : (
            <ul className="saved-search-list">
              {searches.map((s) => (
                <SavedSearchRow key={s.id} search={s} />
              ))}
            </ul>
          )
        }
      </Loadable>
    </section>
  );
}

function SavedSearchRow({ search }: { search: SavedSearch }) {
  const universities = useUniversities();
  const update = useUpdateSavedSearch();
  const remove = useDeleteSavedSearch();
  const toast = useToast();
  const expireOn401 = useSessionExpiry();
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const filters = describeSavedQuery(search.query, universities.data).join(" · ");
  // A search still named after its filters (the default name) would say them twice.
  const summary = defaultSearchName(search.query, universities.data) === search.name ? "" : filters;
  const failed = (fallback: string) => (err: unknown) => {
    expireOn401(err);
    toast.show(errorMessage(err, fallback), { kind: "error", durationMs: 3000 });
  };

  return (
    <li className="saved-search">
      <div className="saved-search-head">
        <span className="saved-search-name">{search.name}</span>
        {search.paused && <span className="badge badge-paused">Paused</span>}
      </div>
      {summary && <p className="saved-search-summary muted">{summary}</p>}
      {/* Two groups that wrap as wholes: the search itself, then its alerts. */}
      <div className="saved-search-actions">
        <div className="saved-search-buttons">
          <Link to={paths.savedSearch(search.query)} className="button button-ghost" aria-label={`Open ${search.name}`}>
            Open
          </Link>
          <button type="button" className="button button-ghost" aria-label={`Rename ${search.name}`} onClick={() => setRenaming(true)}>
            Rename
          </button>
          <button type="button" className="button button-ghost" aria-label={`Delete ${search.name}`} onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        </div>
        <div className="saved-search-alerts">
          <select
            aria-label={`How alerts for ${search.name} arrive`}
            value={search.alert_frequency}
            disabled={update.isPending}
            onChange={(e) =>
              update.mutate(
                { id: search.id, alert_frequency: e.target.value as AlertFrequency },
                { onSuccess: () => toast.show("Alerts updated", { kind: "success" }), onError: failed("Could not change the alerts. Please try again.") },
              )
            }
          >
            <option value="instant">First match of the day</option>
            <option value="daily">Daily digest</option>
          </select>
          <button
            type="button"
            className="button button-ghost"
            aria-label={`${search.paused ? "Resume" : "Pause"} alerts for ${search.name}`}
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: search.id, paused: !search.paused },
                {
                  onSuccess: (s) => toast.show(s.paused ? `Alerts for "${s.name}" are paused.` : `Alerts for "${s.name}" are on.`, { kind: "success" }),
                  onError: failed("Could not change the alerts. Please try again."),
                },
              )
            }
          >
            {search.paused ? "Resume" : "Pause"}
          </button>
        </div>
      </div>
      {renaming && <RenameDialog search={search} onClose={() => setRenaming(false)} />}
      <Dialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        alert
        size="sm"
        title="Delete saved search?"
        description={`"${search.name}" and its alerts will be deleted.`}
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setConfirmDelete(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(search.id, {
                  onSuccess: () => {
                    setConfirmDelete(false);
                    toast.show(`Deleted "${search.name}".`, { kind: "success" });
                  },
                  onError: (err) => {
                    setConfirmDelete(false);
                    failed("Could not delete the search. Please try again.")(err);
                  },
                })
              }
            >
              {remove.isPending ? "Deleting…" : "Delete"}
            </button>
          </>
        }
      />
    </li>
  );
}

function RenameDialog({ search, onClose }: { search: SavedSearch; onClose: () => void }) {
  const [name, setName] = useState(search.name);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateSavedSearch();
  const toast = useToast();

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError("Name is required");
    setError(null);
    // The field already says how much to cut.
    if (trimmed.length > SAVED_SEARCH.nameMaxLength) return;
    update.mutate(
      { id: search.id, name: trimmed },
      {
        onSuccess: () => {
          onClose();
          toast.show("Search renamed", { kind: "success" });
        },
      },
    );
  }

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title="Rename saved search"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={`rename-${search.id}`} className="button button-primary" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save"}
          </button>
        </>
      }
    >
      <form id={`rename-${search.id}`} onSubmit={submit} noValidate>
        <TextField label="Name" value={name} limit={SAVED_SEARCH.nameMaxLength} onChange={(e) => setName(e.target.value)} error={error} data-autofocus required />
        <FormError message={update.isError ? errorMessage(update.error, "Could not rename the search. Please try again.") : null} />
      </form>
    </Dialog>
  );
}

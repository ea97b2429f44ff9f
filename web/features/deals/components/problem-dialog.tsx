import { useState, type FormEvent } from "react";
import { DEAL_PROBLEM_KINDS, DEAL_STATEMENT_PHOTOS_MAX, type Deal, type DealProblemKind } from "@contract/deals";
import { Dialog } from "../../../components/ui/dialog";
import { FormError } from "../../../components/ui/field";
import { ProgressBar } from "../../../components/ui/progress";
import { errorMessage } from "../../../lib/api-client";
import { PROBLEM_LABELS } from "../../../lib/deal-status";
import { EvidencePhoto } from "../../../components/ui/evidence-photo";
import { loadEvidence, useAddStatement, useReportProblem } from "../api/deals-api";
import { afterClose } from "../lib/focus";
import { draftProblem, emptyDraft, StatementFields, uploadDraftPhotos, type StatementDraft } from "./statement-fields";

/** A photo upload, then the call: one busy state and one error line for both. */
function useSendWithPhotos() {
  const [uploading, setUploading] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const send = async (files: File[], then: (photos: string[]) => void) => {
    setUploadError(null);
    setUploading(0);
    try {
      const photos = await uploadDraftPhotos(files, setUploading);
      setUploading(null);
      then(photos);
    } catch (err) {
      setUploading(null);
      setUploadError(err instanceof Error ? err.message : "The photos could not be uploaded. Please try again.");
    }
  };
  return { uploading, uploadError, send };
}

/** A problem started from somewhere (a damaged room of a condition report): what it says, and photos already sent. */
export interface ProblemPrefill {
  kind: DealProblemKind;
  text: string;
  /** Evidence urls the server already has (the report's), sent as the problem's `photos`. */
  photos: string[];
  /** Where they come from, in words ("move-in report: Kitchen"). */
  from: string;
}

/**
 * "Report a problem" while the money is held: what is wrong, what happened, photos. The deal becomes
 * `disputed` and nothing is released until staff decide. From a condition report's room it opens
 * prefilled, with that room's photos attached (each removable).
 */
export function ProblemDialog({ deal, prefill, onClose, onDone }: { deal: Deal; prefill?: ProblemPrefill; onClose: () => void; onDone: () => void }) {
  const report = useReportProblem();
  const { uploading, uploadError, send } = useSendWithPhotos();
  const [kind, setKind] = useState<DealProblemKind | null>(prefill?.kind ?? null);
  const [draft, setDraft] = useState<StatementDraft>(() => ({ ...emptyDraft(), text: prefill?.text ?? "" }));
  const [attached, setAttached] = useState<string[]>(() => prefill?.photos.slice(0, DEAL_STATEMENT_PHOTOS_MAX) ?? []);
  const [checked, setChecked] = useState(false);
  const busy = uploading !== null || report.isPending;
  const kindError = checked && !kind ? "Please choose what is wrong." : null;
  const textError = checked ? draftProblem(draft) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (!kind || draftProblem(draft) || busy) return;
    report.reset();
    void send(draft.files, (photos) =>
      report.mutate({ id: deal.id, input: { kind, text: draft.text.trim(), photos: [...attached, ...photos] } }, { onSuccess: () => (onClose(), afterClose(onDone)) }),
    );
  };

  return (
    <Dialog open onClose={onClose} title="Report a problem" description={`CampusNest keeps the money held while our team looks into it. ${deal.lister.first_name} sees your report and can answer.`}>
      <form className="stack" onSubmit={submit} noValidate>
        <fieldset className="field problem-kinds" aria-describedby={kindError ? "problem-kind-error" : undefined}>
          <legend className="field-label">What is wrong?</legend>
          <div className="stack-sm">
            {DEAL_PROBLEM_KINDS.map((k, i) => (
              <label key={k} className="check-row">
                <input type="radio" name="problem-kind" value={k} checked={kind === k} onChange={() => setKind(k)} data-autofocus={i === 0 ? true : undefined} />
                <span>{PROBLEM_LABELS[k]}</span>
              </label>
            ))}
          </div>
          {kindError && (
            <p className="field-error" id="problem-kind-error" role="alert">
              {kindError}
            </p>
          )}
        </fieldset>
        <StatementFields draft={draft} onChange={setDraft} textLabel="What happened?" error={textError} attachedCount={attached.length} />
        {prefill && attached.length > 0 && (
          <div className="field">
            <span className="field-label">Attached from your {prefill.from}</span>
            <ul className="statement-photos" aria-label="Attached photos">
              {attached.map((url, i) => (
                <li key={url}>
                  <EvidencePhoto url={url} alt={`${prefill.from}, photo ${i + 1}`} load={loadEvidence} />
                  <button type="button" className="link-button" onClick={() => setAttached((a) => a.filter((u) => u !== url))}>
                    Remove{" "}
                    <span className="visually-hidden">attached photo {i + 1}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        {uploading !== null && <ProgressBar value={uploading} label="Uploading photos" />}
        <FormError message={uploadError ?? (report.isError ? errorMessage(report.error, "Could not send the report. Please try again.") : null)} />
        <div className="row">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-danger" disabled={busy}>
            {busy ? "Sending…" : "Send the report"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Either party's statement on a disputed deal: staff read both sides before deciding. */
export function StatementForm({ deal, role }: { deal: Deal; role: "renter" | "lister" }) {
  const add = useAddStatement();
  const { uploading, uploadError, send } = useSendWithPhotos();
  const [draft, setDraft] = useState<StatementDraft>(emptyDraft);
  const [checked, setChecked] = useState(false);
  const [sent, setSent] = useState(0);
  const busy = uploading !== null || add.isPending;
  const textError = checked ? draftProblem(draft) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (draftProblem(draft) || busy) return;
    add.reset();
    void send(draft.files, (photos) =>
      add.mutate(
        { id: deal.id, text: draft.text.trim(), photos },
        {
          onSuccess: () => {
            setDraft(emptyDraft());
            setChecked(false);
            setSent((n) => n + 1);
          },
        },
      ),
    );
  };

  return (
    <form className="stack-sm" onSubmit={submit} noValidate aria-labelledby="statement-heading">
      <h3 id="statement-heading">{role === "lister" ? "Your side" : "Add to your report"}</h3>
      <StatementFields draft={draft} onChange={setDraft} textLabel={role === "lister" ? "Your statement" : "What else staff should know"} error={textError} />
      {uploading !== null && <ProgressBar value={uploading} label="Uploading photos" />}
      <p className="muted" role="status">
        {sent > 0 ? "Sent. Staff will read it with the rest of the case." : ""}
      </p>
      <FormError message={uploadError ?? (add.isError ? errorMessage(add.error, "Could not send your statement. Please try again.") : null)} />
      <div className="row row-start">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Sending…" : "Send to CampusNest"}
        </button>
      </div>
    </form>
  );
}

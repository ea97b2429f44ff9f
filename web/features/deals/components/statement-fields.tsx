import { useEffect, useId, useMemo, useRef, useState } from "react";
import { DEAL_STATEMENT_MAX, DEAL_STATEMENT_PHOTOS_MAX } from "@contract/deals";
import { TextAreaField } from "../../../components/ui/field";
import { ApiError } from "../../../lib/api-client";
import { MESSAGES, pickPhotos, preparePhoto, uploadPhotos } from "../../../lib/upload";

/** What a problem report or a statement says: its text and the photos picked (not uploaded yet). */
export interface StatementDraft {
  text: string;
  files: File[];
}
export const emptyDraft = (): StatementDraft => ({ text: "", files: [] });

/** The text's problem, in words, or null (the server says the same in its own words). */
export function draftProblem(draft: StatementDraft): string | null {
  if (!draft.text.trim()) return "Please say what happened.";
  if (draft.text.length > DEAL_STATEMENT_MAX) return `Please keep it to ${DEAL_STATEMENT_MAX} characters.`;
  return null;
}

/**
 * The photos of a statement, prepared the way the listing form does (lib/upload: scaled, EXIF dropped)
 * and uploaded as private evidence (seen only by the deal's two parties and staff; docs/decisions/032);
 * none: no call. A failure says which photo and why.
 */
export async function uploadDraftPhotos(files: File[], onProgress: (percent: number) => void): Promise<string[]> {
  if (files.length === 0) return [];
  let prepared;
  try {
    prepared = await Promise.all(files.map(preparePhoto));
  } catch {
    throw new Error(MESSAGES.processing);
  }
  try {
    const result = await uploadPhotos(prepared, onProgress, undefined, "evidence");
    if (result.failed_files.length) throw new Error(`Some photos failed to upload: ${result.failed_files.map((f) => `${f.filename}: ${f.error}`).join(", ")}`);
    return result.uploaded_files.map((u) => u.url);
  } catch (err) {
    if (err instanceof ApiError) throw new Error(`The photos could not be uploaded: ${err.message}`);
    throw err;
  }
}

/** The text (with its limit and counter) and up to six photos, each removable, with a preview. */
export function StatementFields({
  draft,
  onChange,
  textLabel,
  error,
  autoFocus,
  attachedCount = 0,
}: {
  draft: StatementDraft;
  onChange: (next: StatementDraft) => void;
  textLabel: string;
  error: string | null;
  autoFocus?: boolean;
  /** Photos already attached elsewhere in the form (a condition report's): they count toward the limit. */
  attachedCount?: number;
}) {
  const inputId = useId();
  const [photoError, setPhotoError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const previews = usePreviews(draft.files);
  const taken = draft.files.length + attachedCount;
  const room = DEAL_STATEMENT_PHOTOS_MAX - taken;

  const add = async (picked: File[]) => {
    setPhotoError(null);
    // The readable photos are added; each other file is named with what is wrong with it.
    const { added, problem } = await pickPhotos(picked, taken, { max: DEAL_STATEMENT_PHOTOS_MAX });
    setPhotoError(problem);
    if (added.length) onChange({ ...draft, files: [...draft.files, ...added] });
  };

  return (
    <>
      <TextAreaField
        label={textLabel}
        rows={5}
        limit={DEAL_STATEMENT_MAX}
        value={draft.text}
        error={error}
        hint={`Up to ${DEAL_STATEMENT_MAX} characters. Staff read it with the agreement and your conversation.`}
        onChange={(e) => onChange({ ...draft, text: e.target.value })}
        data-autofocus={autoFocus ? true : undefined}
      />
      <div className="field">
        <span className="field-label" id={`${inputId}-label`}>
          Photos (optional, up to {DEAL_STATEMENT_PHOTOS_MAX})
        </span>
        {/* The app's button, not the browser's "Choose Files": the input inside it is hidden but focusable. */}
        <label className={`button button-ghost file-button${room <= 0 ? " is-disabled" : ""}`}>
          Add photos
          <input
            ref={picker}
            id={inputId}
            type="file"
            accept="image/*"
            multiple
            className="visually-hidden"
            disabled={room <= 0}
            aria-labelledby={`${inputId}-label`}
            aria-describedby={photoError ? `${inputId}-error` : undefined}
            aria-invalid={photoError ? true : undefined}
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = "";
              if (files.length) void add(files);
            }}
          />
        </label>
        {photoError && (
          <p className="field-error" id={`${inputId}-error`} role="alert">
            {photoError}
          </p>
        )}
        {draft.files.length > 0 && (
          <ul className="statement-photos" aria-label="Photos to send">
            {draft.files.map((file, i) => (
              <li key={`${file.name}-${i}`}>
                {previews[i] && <img src={previews[i]} alt="" />}
                <span className="statement-photo-name">{file.name}</span>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    onChange({ ...draft, files: draft.files.filter((_, j) => j !== i) });
                    picker.current?.focus();
                  }}
                >
                  Remove{" "}
                  <span className="visually-hidden">{file.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

/** Object URLs for the picked photos' previews, revoked when they change or the form closes. */
function usePreviews(files: File[]): (string | null)[] {
  // jsdom and very old browsers have no object URLs: the name alone then.
  const urls = useMemo(() => files.map((f) => (typeof URL.createObjectURL === "function" ? URL.createObjectURL(f) : null)), [files]);
  useEffect(() => () => urls.forEach((u) => u && URL.revokeObjectURL(u)), [urls]);
  return urls;
}

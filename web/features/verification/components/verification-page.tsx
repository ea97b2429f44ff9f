import { useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { REVIEW_TIME } from "@contract/waits";
import { LIMITS, megabytes } from "@contract/limits";
import { looksIdVerified } from "@contract/policies";
import { DOCUMENT_TYPES, VERIFICATION_MESSAGES } from "@contract/verification";
import { PageFrame } from "../../../components/layout/page-frame";
import { FormError, isOverLimit, SelectField, TextAreaField } from "../../../components/ui/field";
import { ProgressBar } from "../../../components/ui/progress";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { checkDecodable } from "../../../lib/decodable";
import { useSubmitVerification, useVerificationStatus } from "../api/verification-api";

/** The documents the page offers (the API accepts a few more). */
const DOCUMENT_CHOICES: { value: (typeof DOCUMENT_TYPES)[number]; label: string }[] = [
  { value: "student_id", label: "Student ID" },
  { value: "driver_license", label: "Driver's license" },
  { value: "passport", label: "Passport" },
];
const ALLOWED = ["image/jpeg", "image/png", "image/webp", "application/pdf"];
/** The product's texts for the server's two 409 answers (docs/product-rules.md "Wording"). */
const CONFLICT_TOASTS: Record<string, string> = {
  [VERIFICATION_MESSAGES.pending]: "You already have a pending verification request",
  [VERIFICATION_MESSAGES.alreadyVerified]: "You are already verified",
};

/** The server's 409 answers, shown as a toast rather than a form error. */
const conflictToast = (err: unknown) => (err instanceof ApiError ? CONFLICT_TOASTS[err.message] : undefined);

function submitErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.isNetworkError) return "Network error occurred while submitting verification request.";
  return errorMessage(err, "Failed to submit verification request.");
}


/** What is wrong with a picked document, naming the file ("notes.txt can't be used. Invalid file type. ..."); null when nothing is. */
export function checkDocument(file: File | null): string | null {
  if (!file) return VERIFICATION_MESSAGES.missing;
  const refused = (why: string) => `${file.name} can't be used. ${why}`;
  if (!ALLOWED.includes(file.type)) return refused(VERIFICATION_MESSAGES.invalidType);
  if (file.size === 0) return refused(VERIFICATION_MESSAGES.empty);
  if (file.size > LIMITS.documentMaxBytes) return refused(VERIFICATION_MESSAGES.tooLarge);
  return null;
}

function StatusCard() {
  const status = useVerificationStatus();
  if (status.isPending) return <p className="muted">Loading your verification status…</p>;
  if (status.isError) return <FormError message={errorMessage(status.error, "Failed to load verification status")} />;
  const { status: value, latest_request } = status.data;
  const text =
    looksIdVerified(value)
      ? "You're verified. You can create listings and sign sublease agreements."
      : value === "pending"
        ? `Your document is awaiting review. Reviews take ${REVIEW_TIME}.`
        : value === "rejected"
          ? "Your last request was rejected. You can submit a new document."
          : "You are not verified yet.";
  return (
    <section className={`panel notice notice-${value}`} aria-live="polite">
      <h2>
        Status: <span className={`badge badge-${value}`}>{value}</span>
      </h2>
      <p>{text}</p>
      {value === "rejected" && latest_request?.rejection_reason && (
        <p>
          <strong>Reason:</strong> {latest_request.rejection_reason}
        </p>
      )}
    </section>
  );
}

export function VerificationPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const status = useVerificationStatus();
  const submit = useSubmitVerification();
  const [documentType, setDocumentType] = useState<(typeof DOCUMENT_TYPES)[number]>("student_id");
  const [file, setFile] = useState<File | null>(null);
  const [notes, setNotes] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const done = submit.isSuccess;
  const error = invalid ?? (submit.error && !conflictToast(submit.error) ? submitErrorMessage(submit.error) : null);

  const preview = useMemo(() => (file?.type.startsWith("image/") ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  // The newest pick wins when an older one is still being read.
  const picks = useRef(0);
  /**
   * Refused at pick time, naming the file, rather than shown as a broken preview: an
   * image must also decode, as the listing form checks its photos.
   */
  async function choose(next: File | undefined) {
    if (!next) return;
    const pick = ++picks.current;
    const problem = checkDocument(next) ?? (next.type.startsWith("image/") ? await checkDecodable([next]) : null);
    if (pick !== picks.current) return;
    setInvalid(problem);
    setFile(problem ? null : next);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    // A refused pick keeps saying what was wrong with it, not "Please select a document".
    if (!file && invalid) return;
    const problem = checkDocument(file);
    if (problem || !file) return setInvalid(problem);
    setInvalid(null);
    // The notes field already says how much to cut.
    if (isOverLimit(notes.trim(), LIMITS.verificationNotesMax)) return;
    setProgress(0);
    submit.mutate(
      { file, documentType, notes: notes.trim() || null, onProgress: setProgress },
      {
        onSuccess: () => {
          toast.show("Submitted for review", { kind: "success", durationMs: 2000 });
          window.setTimeout(() => navigate(paths.profile), 2000);
        },
        onError: (err) => {
          const conflict = conflictToast(err);
          if (conflict) toast.show(conflict, { durationMs: 3000 });
        },
        onSettled: () => setProgress(null),
      },
    );
  }

  const canSubmit = status.data && !looksIdVerified(status.data.status) && status.data.status !== "pending";

  return (
    <PageFrame
      title="Get verified"
      lead={`Verify your identity once: you need it to create listings and to sign a sublease agreement, as a renter or a lister. Your document is private: only our review team sees it. Review takes ${REVIEW_TIME}.`}
      width="narrow"
    >
      <div className="stack">
        <StatusCard />
        {canSubmit && (
          <section className="panel">
            <form onSubmit={onSubmit} noValidate className="stack">
              <SelectField label="Document type" value={documentType} onChange={(e) => setDocumentType(e.target.value as (typeof DOCUMENT_TYPES)[number])}>
                {DOCUMENT_CHOICES.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </SelectField>
              <label
                className={`dropzone${dragging ? " dropzone-active" : ""}`}
                onDragOver={(e) => {
                  e.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
              >
                <input
                  type="file"
                  accept="image/jpeg,image/png,image/webp,application/pdf"
                  className="visually-hidden"
                  onChange={(e) => void choose(e.target.files?.[0])}
                />
                {file ? (
                  <span className="dropzone-file">
                    {preview && <img src={preview} alt="Preview of your document" />}
                    <span>{file.name}</span>
                    <span className="muted">Click or drop another file to replace it</span>
                  </span>
                ) : (
                  <span>
                    <strong>Drag and drop your document here</strong>, or click to choose a file.
                    <br />
                    <span className="muted">JPEG, PNG, WebP or PDF, up to {megabytes(LIMITS.documentMaxBytes)}.</span>
                  </span>
                )}
              </label>
              <TextAreaField label="Notes (optional)" rows={3} limit={LIMITS.verificationNotesMax} value={notes} onChange={(e) => setNotes(e.target.value)} />
              {progress !== null && <ProgressBar value={progress} label="Uploading document" />}
              <FormError message={error} />
              <button type="submit" className="button button-primary button-lg" disabled={submit.isPending || done}>
                {submit.isPending ? "Submitting…" : "Submit for Review"}
              </button>
              <p className="muted">Review time: {REVIEW_TIME}.</p>
            </form>
          </section>
        )}
      </div>
    </PageFrame>
  );
}

import { useState } from "react";
import { REPORT_DETAILS_MAX, REPORT_REASON_LABELS, REPORT_REASONS, REPORT_TEXTS, reportFormSchema, type ReportReason } from "@contract/reports";
import { errorMessage } from "../lib/api-client";
import { useReport } from "../lib/reports-blocks-api";
import { Dialog } from "./ui/dialog";
import { FormError, TextAreaField } from "./ui/field";
import { useToast } from "./ui/toast";

export type ReportTarget = { kind: "listing"; listing_id: string } | { kind: "user"; user_id: string; conversation_id?: string | null };

/**
 * Report a listing or a person (docs/decisions/015): a reason (radio buttons) and details (required for
 * "Other"). On success the dialog closes with a thank-you toast.
 */
export function ReportDialog({ open, onClose, title, target }: { open: boolean; onClose: () => void; title: string; target: ReportTarget }) {
  const toast = useToast();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState("");
  const [errors, setErrors] = useState<{ reason?: string; details?: string }>({});
  const report = useReport(() => {
    toast.show(REPORT_TEXTS.thanks, { kind: "success", durationMs: 4000 });
    setReason(null);
    setDetails("");
    onClose();
  });

  const close = () => {
    report.reset();
    setErrors({});
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} size="sm" title={title} description="Tell us what is wrong. The person you report is not told who reported them.">
      <form
        className="stack report-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = reportFormSchema.safeParse({ reason, details });
          if (!parsed.success) {
            const next: { reason?: string; details?: string } = {};
            for (const issue of parsed.error.issues) {
              const key = issue.path[0] === "details" ? "details" : "reason";
              next[key] ??= issue.message;
            }
            setErrors(next);
            return;
          }
          setErrors({});
          report.mutate({ ...target, reason: parsed.data.reason, details: parsed.data.details || null });
        }}
      >
        <fieldset className="report-reasons" aria-describedby={errors.reason ? "report-reason-error" : undefined}>
          <legend className="field-label">Reason</legend>
          {REPORT_REASONS.map((r, i) => (
            <label key={r} className="radio-row">
              <input
                type="radio"
                name="report-reason"
                value={r}
                checked={reason === r}
                onChange={() => {
                  setReason(r);
                  setErrors((e) => ({ ...e, reason: undefined }));
                }}
                {...(i === 0 && { "data-autofocus": true })}
              />
              <span>{REPORT_REASON_LABELS[r]}</span>
            </label>
          ))}
          {errors.reason && (
            <p id="report-reason-error" className="field-error" role="alert">
              {errors.reason}
            </p>
          )}
        </fieldset>
        <TextAreaField
          label={reason === "other" ? "Details (required)" : "Details (optional)"}
          rows={3}
          limit={REPORT_DETAILS_MAX}
          limitLabel="Details"
          value={details}
          onChange={(e) => {
            setDetails(e.target.value);
            if (errors.details) setErrors((x) => ({ ...x, details: undefined }));
          }}
          error={errors.details}
        />
        <FormError message={report.isError ? errorMessage(report.error, "Could not send the report. Please try again.") : null} />
        <div className="dialog-footer">
          <button type="button" className="button button-ghost" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button button-danger" disabled={report.isPending}>
            {report.isPending ? "Sending…" : "Send report"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

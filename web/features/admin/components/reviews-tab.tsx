import { useState, type FormEvent } from "react";
import { HIDE_REASON_MAX, type AdminReview } from "@contract/reviews";
import { isScamReason, SCAM_REASON_LABELS, SCORED_FLAG } from "@contract/safety";
import { Dialog } from "../../../components/ui/dialog";
import { FormError, TextAreaField } from "../../../components/ui/field";
import { Stars } from "../../../components/ui/reviews";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import type { AdminReviewsView } from "../api/admin-api";
import { useHideReview, useKeepReview } from "../api/admin-mutations";
import { useAdminReviews } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";
import { PagedList } from "./paged-list";
import { SCORED_NOTE } from "./safety-tab";

const ROLE_WORDS = { renter: "renter", lister: "lister" } as const;

/**
 * The Reviews tab (docs/decisions/040): reviews someone reported or the scam shield flagged, oldest
 * question first, with why each is here; staff hide one (a reason, confirmed, audited) or keep it, and
 * either takes it out of the queue. The Hidden list shows what was hidden and why.
 */
export function ReviewsTab({ status }: { status: AdminReviewsView }) {
  const query = useAdminReviews(status);
  const keep = useKeepReview();
  const toast = useToast();
  const [hiding, setHiding] = useState<AdminReview | null>(null);

  const keepIt = (review: AdminReview) =>
    keep.mutate(review.id, {
      onSuccess: () => toast.show("Review kept: it left the queue.", { kind: "success" }),
      onError: (err) => toast.show(errorMessage(err, "Could not keep the review."), { kind: "error", durationMs: 4000 }),
    });

  return (
    <div className="stack">
      <PagedList query={query} label={status === "queue" ? "the reviews queue" : "hidden reviews"} empty={status === "queue" ? "No reviews waiting: nothing reported or flagged." : "No hidden reviews."}>
        {(reviews) => (
          <ul className="admin-cards">
            {reviews.map((r) => (
              <StaffReview key={r.id} review={r} busy={keep.isPending && keep.variables === r.id} onHide={status === "queue" ? () => setHiding(r) : undefined} onKeep={status === "queue" ? () => keepIt(r) : undefined} />
            ))}
          </ul>
        )}
      </PagedList>
      {hiding && <HideReviewDialog review={hiding} onClose={() => setHiding(null)} />}
    </div>
  );
}

function StaffReview({ review: r, busy, onHide, onKeep }: { review: AdminReview; busy: boolean; onHide?: () => void; onKeep?: () => void }) {
  const reasons = r.flags.filter(isScamReason);
  const scored = r.flags.includes(SCORED_FLAG);
  const title = `${r.author.first_name} (${ROLE_WORDS[r.role]}) about ${r.subject.first_name}`;
  return (
    <li className="panel stack-sm admin-review" aria-label={`Review by ${title}`}>
      <div className="section-head">
        <strong>{title}</strong>
        <span className="muted">
          Written <time dateTime={r.created_at}>{formatStaffTime(r.created_at)}</time>
        </span>
      </div>
      <p className="muted">
        {r.listing_title} · Deal <span className="mono">{r.deal_id}</span> · {r.revealed_at ? "visible" : "not revealed yet"}
      </p>
      <p>
        <Stars rating={r.rating} />
      </p>
      <p className="prewrap">{r.text}</p>
      {r.reply && (
        <p className="prewrap">
          <strong>Reply: </strong>
          {r.reply.text}
        </p>
      )}
      {(reasons.length > 0 || scored) && (
        <div>
          <p>
            <strong>Flagged by the scam shield</strong>
          </p>
          <ul className="admin-safety-reasons" aria-label="Reasons">
            {reasons.map((reason) => (
              <li key={reason}>{SCAM_REASON_LABELS[reason]}</li>
            ))}
          </ul>
          {scored && <p className="muted admin-safety-scored">{SCORED_NOTE}</p>}
        </div>
      )}
      {r.reports.length > 0 && (
        <div>
          <p>
            <strong>
              Reported {r.reports.length} {r.reports.length === 1 ? "time" : "times"}
            </strong>
          </p>
          <ul className="admin-review-reports" aria-label="Reports">
            {r.reports.map((report, i) => (
              <li key={`${report.created_at}-${i}`}>
                <span className="prewrap">“{report.reason}”</span> · <time dateTime={report.created_at}>{formatStaffTime(report.created_at)}</time>
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.hidden_at && (
        <p>
          <span className="badge badge-rejected">Hidden</span> <time dateTime={r.hidden_at}>{formatStaffTime(r.hidden_at)}</time>
          {r.hidden_reason ? `: ${r.hidden_reason}` : ""}
        </p>
      )}
      {(onHide || onKeep) && (
        <div className="row row-start">
          {onHide && (
            <button type="button" className="button button-danger" disabled={busy} onClick={onHide}>
              Hide…{" "}
              <span className="visually-hidden">the review by {title}</span>
            </button>
          )}
          {onKeep && (
            <button type="button" className="button button-ghost" disabled={busy} onClick={onKeep}>
              {busy ? "Keeping…" : "Keep"}{" "}
              <span className="visually-hidden">the review by {title}</span>
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** Hiding needs a reason (kept in the audit log): confirmed here, what was typed kept on a failure. */
function HideReviewDialog({ review, onClose }: { review: AdminReview; onClose: () => void }) {
  const hide = useHideReview();
  const toast = useToast();
  const [reason, setReason] = useState("");
  const [checked, setChecked] = useState(false);
  const reasonError = checked && !reason.trim() ? "A reason is required" : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (!reason.trim() || hide.isPending) return;
    hide.mutate(
      { id: review.id, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.show("Review hidden.", { kind: "success" });
          onClose();
        },
      },
    );
  };
  return (
    <Dialog
      open
      alert
      size="sm"
      onClose={onClose}
      title={`Hide ${review.author.first_name}'s review?`}
      description={`Nobody sees it any more, and it leaves ${review.subject.first_name}'s average. The reason is kept in the audit log.`}
    >
      <form className="stack" onSubmit={submit} noValidate>
        <TextAreaField label="Reason (required)" rows={3} limit={HIDE_REASON_MAX} value={reason} error={reasonError} onChange={(e) => setReason(e.target.value)} data-autofocus />
        <FormError message={hide.isError ? errorMessage(hide.error, "Could not hide the review. Please try again.") : null} />
        <div className="row">
          <button type="button" className="button button-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-danger" disabled={hide.isPending}>
            {hide.isPending ? "Hiding…" : "Hide review"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

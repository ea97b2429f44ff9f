import { useEffect, useState, type FormEvent } from "react";
import type { Deal } from "@contract/deals";
import {
  PROBLEM_CONDITIONS,
  REVIEW_REPLY_MAX,
  REVIEW_TEXT_MAX,
  REVIEW_WORDS,
  ROOM_CONDITIONS,
  ROOM_NOTE_MAX,
  phaseWords,
  type ConditionPhase,
  type ConditionReport,
  type ConditionRoom,
  type Review,
  type RoomCondition,
} from "@contract/reviews";
import { CONDITION_LABELS, ConditionRooms, reportTitle } from "../../../components/condition-rooms";
import { FormError, TextAreaField, TextField } from "../../../components/ui/field";
import { ProgressBar } from "../../../components/ui/progress";
import { Stars } from "../../../components/ui/reviews";
import { ApiError, apiBlob, errorMessage } from "../../../lib/api-client";
import { dealPath } from "../../../lib/deals-api";
import { sendConditionReport, useCommentReport, useConditionReports, useDealReviews, useReplyToReview, useWriteReview, afterKeys } from "../api/after-the-keys-api";
import { loadEvidence } from "../api/deals-api";
import { useQueryClient } from "@tanstack/react-query";
import { uploadDraftPhotos } from "./statement-fields";
import { ProblemDialog, type ProblemPrefill } from "./problem-dialog";

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/**
 * "Report a problem" from a damaged or missing room: the problem says which room, its condition and
 * note, and carries the room's photos (already cited by the report, so the server takes them; the
 * contract's `photos`), so staff's case reads it beside the report (docs/decisions/040).
 */
export function problemFromRoom(report: ConditionReport, room: ConditionRoom): ProblemPrefill {
  const note = room.note.trim() ? ` ${room.note.trim()}` : "";
  return {
    kind: "not_as_described",
    text: `From my ${phaseWords(report.phase)} report (received ${when(report.received_at)}): ${room.name} is ${CONDITION_LABELS[room.condition].toLowerCase()}.${note}`,
    photos: room.photos.map((p) => p.url),
    from: `${phaseWords(report.phase)} report: ${room.name}`,
  };
}

/** The deal's reviews and condition reports (docs/decisions/040), for a party; shown once money was paid. */
export function AfterTheKeys({ deal, role, onDone }: { deal: Deal; role: "renter" | "lister"; onDone: () => void }) {
  const paidStates = ["paid", "moved_in", "disputed", "released"];
  // "Report a problem" from a damaged or missing room: prefilled from it; staff's case shows the reports beside it.
  const [problem, setProblem] = useState<ProblemPrefill | null>(null);
  return (
    <>
      {paidStates.includes(deal.status) && <ConditionReportsSection deal={deal} role={role} onReportProblem={setProblem} />}
      {deal.status === "released" && <ReviewsSection deal={deal} role={role} />}
      {problem && <ProblemDialog deal={deal} prefill={problem} onClose={() => setProblem(null)} onDone={onDone} />}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Reviews.

function ReviewView({ review, title }: { review: Review; title: string }) {
  return (
    <article className="stack-sm review">
      <h3>{title}</h3>
      <p>
        <Stars rating={review.rating} /> <span className="muted">{when(review.created_at)}</span>
      </p>
      <p className="review-text">{review.text}</p>
      {review.reply && (
        <p className="review-reply">
          <strong>Reply: </strong>
          {review.reply.text}
        </p>
      )}
    </article>
  );
}

function ReviewsSection({ deal, role }: { deal: Deal; role: "renter" | "lister" }) {
  const reviews = useDealReviews(deal.id);
  const write = useWriteReview(deal.id);
  const reply = useReplyToReview(deal.id);
  const [rating, setRating] = useState(0);
  const [text, setText] = useState("");
  const [replyText, setReplyText] = useState("");
  const [checked, setChecked] = useState(false);
  const other = role === "renter" ? deal.lister : deal.renter;
  const canWrite = deal.actions.includes("review");
  const canReply = deal.actions.includes("review_reply");
  const ratingError = checked && !rating ? "Please choose a rating from 1 to 5." : null;
  const textError = checked && !text.trim() ? "Please write a few words." : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (!rating || !text.trim() || write.isPending) return;
    write.mutate({ rating, text: text.trim() });
  };

  const data = reviews.data;
  return (
    <section className="panel stack-sm" aria-labelledby="deal-reviews-heading">
      <h2 id="deal-reviews-heading">Reviews</h2>
      {reviews.isPending && <p className="muted">Loading reviews…</p>}
      {reviews.isError && <p role="alert">{errorMessage(reviews.error, "Could not load the reviews.")}</p>}
      {data && (
        <>
          {!data.revealed_at && (
            <p className="muted">
              Both reviews are shown together once both of you have written or {REVIEW_WORDS.windowDays} days after the release
              {data.window_ends_at ? ` (${when(data.window_ends_at)})` : ""}. {data.theirs_written ? `${other.first_name} has written theirs.` : ""}
            </p>
          )}
          {data.mine && <ReviewView review={data.mine} title="Your review" />}
          {data.theirs && <ReviewView review={data.theirs} title={`${other.first_name}'s review of you`} />}
          {canWrite && !data.mine && (
            <form className="stack-sm" onSubmit={submit} noValidate>
              <fieldset className="field">
                <legend className="field-label">Your rating of {other.first_name}</legend>
                <div className="row rating-row">
                  {[1, 2, 3, 4, 5].map((n) => (
                    <label key={n} className="check-row rating-choice">
                      <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} />
                      <span>
                        {n} {n === 1 ? "star" : "stars"}
                      </span>
                    </label>
                  ))}
                </div>
                {ratingError && (
                  <p className="field-error" role="alert">
                    {ratingError}
                  </p>
                )}
              </fieldset>
              <TextAreaField label={`Your review of ${other.first_name}`} value={text} onChange={(e) => setText(e.target.value)} limit={REVIEW_TEXT_MAX} error={textError} rows={4} />
              <FormError message={write.isError ? errorMessage(write.error, "Could not send the review. Please try again.") : null} />
              <button type="submit" className="button button-primary" disabled={write.isPending}>
                {write.isPending ? "Sending…" : "Send review"}
              </button>
            </form>
          )}
          {canReply && data.theirs && !data.theirs.reply && (
            <form
              className="stack-sm"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                if (replyText.trim() && !reply.isPending) reply.mutate({ reviewId: data.theirs!.id, text: replyText.trim() });
              }}
            >
              <TextAreaField label="Your reply (once)" value={replyText} onChange={(e) => setReplyText(e.target.value)} limit={REVIEW_REPLY_MAX} rows={3} />
              <FormError message={reply.isError ? errorMessage(reply.error, "Could not send the reply. Please try again.") : null} />
              <button type="submit" className="button" disabled={reply.isPending || !replyText.trim()}>
                Reply
              </button>
            </form>
          )}
        </>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Condition reports: drafts kept on the device until the server has them.

interface RoomDraft {
  name: string;
  condition: RoomCondition;
  note: string;
  /** Evidence urls already uploaded (each received by the server when taken). */
  photos: string[];
}
interface ReportDraft {
  phase: ConditionPhase;
  rooms: RoomDraft[];
  /** Waiting to be sent when the device is back online. */
  queued: boolean;
}

const draftKey = (dealId: string, phase: ConditionPhase) => `condition-report:${dealId}:${phase}`;
export function loadDraft(dealId: string, phase: ConditionPhase): ReportDraft {
  try {
    const stored = localStorage.getItem(draftKey(dealId, phase));
    if (stored) return JSON.parse(stored) as ReportDraft;
  } catch {
    // A broken or unavailable store starts a fresh draft.
  }
  return { phase, rooms: [{ name: "", condition: "good", note: "", photos: [] }], queued: false };
}
const saveDraft = (dealId: string, draft: ReportDraft) => {
  try {
    localStorage.setItem(draftKey(dealId, draft.phase), JSON.stringify(draft));
  } catch {
    // Full or unavailable: the draft lives in memory only.
  }
};
const dropDraft = (dealId: string, phase: ConditionPhase) => {
  try {
    localStorage.removeItem(draftKey(dealId, phase));
  } catch {
    // Nothing to drop.
  }
};

function ConditionReportsSection({ deal, role, onReportProblem }: { deal: Deal; role: "renter" | "lister"; onReportProblem: (prefill: ProblemPrefill) => void }) {
  const reports = useConditionReports(deal.id);
  const [printing, setPrinting] = useState(false);
  // The page's moment: which window is open (the server's receipt time decides in the end).
  const [now] = useState(() => Date.now());
  const sent = reports.data?.data ?? [];
  const open = reports.data
    ? (["move_in", "move_out"] as const).filter((phase) => {
        const w = reports.data.windows[phase];
        return !sent.some((r) => r.phase === phase) && now >= Date.parse(w.opens) && now <= Date.parse(w.closes);
      })
    : [];
  const pending = (["move_in", "move_out"] as const).filter((phase) => !sent.some((r) => r.phase === phase) && loadDraft(deal.id, phase).queued);
  const downloadPdf = async () => {
    setPrinting(true);
    try {
      const blob = await apiBlob(dealPath(deal.id, "/condition-reports.pdf"));
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = `condition-reports-${deal.id}.pdf`;
      a.click();
      URL.revokeObjectURL(url);
    } finally {
      setPrinting(false);
    }
  };

  return (
    <section className="panel stack-sm condition-reports" aria-labelledby="condition-reports-heading">
      <h2 id="condition-reports-heading">Condition reports</h2>
      {reports.isPending && <p className="muted">Loading the reports…</p>}
      {reports.isError && <p role="alert">{errorMessage(reports.error, "Could not load the condition reports.")}</p>}
      {reports.data && (
        <>
          <p className="muted">
            Move-in: from the move-in date for {REVIEW_WORDS.moveInHours} hours. Move-out: in the last {REVIEW_WORDS.moveOutDays} days of the stay and up to {REVIEW_WORDS.moveOutHours} hours after.
            The time that counts is when CampusNest receives the report.
          </p>
          {sent.length > 0 && (
            <div className={`report-compare${sent.length > 1 ? " report-compare-two" : ""}`}>
              {sent.map((r) => (
                <SentReport key={r.phase} report={r} role={role} dealId={deal.id} canComment={deal.actions.includes("condition_report_comment")} onReportProblem={r.phase === "move_in" && role === "renter" && deal.actions.includes("problem") ? onReportProblem : undefined} />
              ))}
            </div>
          )}
          {sent.length > 0 && (
            <div className="row no-print">
              <button type="button" className="button" onClick={() => window.print()}>
                Print
              </button>
              <button type="button" className="button" onClick={() => void downloadPdf()} disabled={printing}>
                {printing ? "Preparing PDF…" : "Download PDF"}
              </button>
            </div>
          )}
          {role === "renter" && [...new Set([...open, ...pending])].map((phase) => <ReportForm key={phase} dealId={deal.id} phase={phase} />)}
          {sent.length === 0 && open.length === 0 && pending.length === 0 && <p>No report yet.</p>}
        </>
      )}
    </section>
  );
}

function SentReport({ report, role, dealId, canComment, onReportProblem }: { report: ConditionReport; role: "renter" | "lister"; dealId: string; canComment: boolean; onReportProblem?: (prefill: ProblemPrefill) => void }) {
  const comment = useCommentReport(dealId);
  const [text, setText] = useState("");
  return (
    <article className="stack-sm condition-report" aria-label={`${phaseWords(report.phase)} report`}>
      <h3>
        {reportTitle(report)} <span className="muted">received {when(report.received_at)}</span>
      </h3>
      <ConditionRooms
        report={report}
        load={loadEvidence}
        roomAction={(room) =>
          onReportProblem &&
          PROBLEM_CONDITIONS.includes(room.condition) && (
            <p className="no-print">
              <button type="button" className="button button-danger" onClick={() => onReportProblem(problemFromRoom(report, room))}>
                Report a problem<span className="visually-hidden">: {room.name}</span>
              </button>
            </p>
          )
        }
      />
      {report.comment ? (
        <p>
          <strong>Lister's comment: </strong>
          {report.comment.text}
        </p>
      ) : role === "lister" && canComment ? (
        <form
          className="stack-sm no-print"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim() && !comment.isPending) comment.mutate({ phase: report.phase, text: text.trim() });
          }}
        >
          <TextAreaField label="Your comment (once)" value={text} onChange={(e) => setText(e.target.value)} limit={REVIEW_REPLY_MAX} rows={3} />
          <FormError message={comment.isError ? errorMessage(comment.error, "Could not send the comment.") : null} />
          <button type="submit" className="button" disabled={!text.trim() || comment.isPending}>
            Send comment
          </button>
        </form>
      ) : null}
    </article>
  );
}

/** The renter's report: room by room, photos from the camera, kept on the device until the server has it. */
function ReportForm({ dealId, phase }: { dealId: string; phase: ConditionPhase }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ReportDraft>(() => loadDraft(dealId, phase));
  const [uploading, setUploading] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(draft.queued ? "Saved on this device: it is sent when you are back online." : null);
  const [sending, setSending] = useState(false);
  const update = (next: ReportDraft) => {
    setDraft(next);
    saveDraft(dealId, next);
  };
  const setRoom = (i: number, room: Partial<RoomDraft>) => update({ ...draft, rooms: draft.rooms.map((r, j) => (j === i ? { ...r, ...room } : r)) });

  const send = async (d: ReportDraft) => {
    if (sending) return;
    setSending(true);
    setError(null);
    try {
      await sendConditionReport(dealId, { phase, rooms: d.rooms.map((r) => ({ name: r.name.trim(), condition: r.condition, note: r.note.trim(), photos: r.photos })) });
      dropDraft(dealId, phase);
      setStatus("Report sent.");
      await queryClient.invalidateQueries({ queryKey: afterKeys.reports(dealId) });
    } catch (err) {
      if (err instanceof ApiError && err.isNetworkError) {
        update({ ...d, queued: true });
        setStatus("You are offline: the report is saved on this device and sent when you are back online.");
      } else {
        // Refused (after its window, say): the server's words, and the draft stays on the device.
        update({ ...d, queued: false });
        setError(errorMessage(err, "Could not send the report."));
      }
    } finally {
      setSending(false);
    }
  };

  useEffect(() => {
    const retry = () => {
      const stored = loadDraft(dealId, phase);
      if (stored.queued) void send(stored);
    };
    window.addEventListener("online", retry);
    if (draft.queued && navigator.onLine) retry();
    return () => window.removeEventListener("online", retry);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dealId, phase]);

  const addPhotos = async (i: number, files: FileList | null) => {
    if (!files?.length) return;
    setError(null);
    setUploading(0);
    try {
      // Uploaded as they are taken: the server's receipt time of each photo is its proof.
      const urls = await uploadDraftPhotos([...files], setUploading);
      setRoom(i, { photos: [...draft.rooms[i]!.photos, ...urls] });
    } catch (err) {
      setError(err instanceof Error ? err.message : "The photos could not be uploaded.");
    } finally {
      setUploading(null);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (draft.rooms.some((r) => !r.name.trim())) return setError("Each room needs a name.");
    if (!navigator.onLine) {
      update({ ...draft, queued: true });
      setStatus("You are offline: the report is saved on this device and sent when you are back online.");
      return;
    }
    void send(draft);
  };

  const title = phase === "move_in" ? "Move-in report" : "Move-out report";
  return (
    <form className="stack-sm report-form" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      {draft.rooms.map((room, i) => (
        <fieldset key={i} className="stack-sm room-fields">
          <legend>Room {i + 1}</legend>
          <TextField label="Room name" value={room.name} onChange={(e) => setRoom(i, { name: e.target.value })} placeholder="Kitchen" />
          <fieldset className="field">
            <legend className="field-label">Condition</legend>
            <div className="row condition-choices">
              {ROOM_CONDITIONS.map((c) => (
                <label key={c} className="check-row">
                  <input type="radio" name={`condition-${phase}-${i}`} value={c} checked={room.condition === c} onChange={() => setRoom(i, { condition: c })} />
                  <span>{CONDITION_LABELS[c]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <TextAreaField label="Note" value={room.note} onChange={(e) => setRoom(i, { note: e.target.value })} limit={ROOM_NOTE_MAX} rows={2} />
          <label className="button button-ghost photo-capture">
            Take photos{room.photos.length ? ` (${room.photos.length})` : ""}
            <input type="file" accept="image/*" capture="environment" multiple className="visually-hidden" onChange={(e) => void addPhotos(i, e.target.files)} />
          </label>
          {PROBLEM_CONDITIONS.includes(room.condition) && <p className="muted">A damaged or missing room can be reported as a problem once the report is sent.</p>}
          {draft.rooms.length > 1 && (
            <button type="button" className="button button-ghost" onClick={() => update({ ...draft, rooms: draft.rooms.filter((_, j) => j !== i) })}>
              Remove room {i + 1}
            </button>
          )}
        </fieldset>
      ))}
      <button type="button" className="button" onClick={() => update({ ...draft, rooms: [...draft.rooms, { name: "", condition: "good", note: "", photos: [] }] })}>
        Add a room
      </button>
      {uploading !== null && <ProgressBar value={uploading} label="Uploading photos" />}
      {status && <p role="status">{status}</p>}
      <FormError message={error} />
      <button type="submit" className="button button-primary" disabled={sending || uploading !== null}>
        {sending ? "Sending…" : "Send report (read-only once sent)"}
      </button>
    </form>
  );
}

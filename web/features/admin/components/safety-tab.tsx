import type { SafetyQueueItem } from "@contract/safety";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useReviewSafety, useSafetyQueue } from "../api/safety-api";
import { PagedList } from "./paged-list";

/** Under a line the scored model flagged and no rule matched (docs/decisions/015): a weaker signal, worth a read. */
export const SCORED_NOTE = "Found by the scored model; no rule matched. Read it in context before acting.";
import { formatStaffTime } from "../lib/format";

/** How the queue names a participant whose account is gone (contract/safety.ts): no card to open. */
const DELETED_USER = "Deleted user";

/**
 * The Safety tab (scam shield; docs/decisions/015): conversations where a message matched a fraud pattern, newest
 * flag first, with the reasons, the recipients' "This is fine" feedback (docs/decisions/015) and the flagged lines;
 * Mark reviewed takes one out of the queue (feedback alone never does: staff decide). Each participant's
 * name opens their user card (onShowUser: the Users tab, searched by their id).
 */
export function SafetyTab({ onShowUser }: { onShowUser: (userId: string) => void }) {
  const query = useSafetyQueue();
  const review = useReviewSafety();
  const toast = useToast();
  const markReviewed = (item: SafetyQueueItem) =>
    review.mutate(item.conversation_id, {
      onSuccess: () => toast.show("Marked reviewed.", { kind: "success" }),
      onError: (err) => toast.show(errorMessage(err, "Could not mark the conversation reviewed."), { kind: "error", durationMs: 4000 }),
    });

  return (
    <PagedList query={query} label="the safety queue" empty="No flagged conversations to review.">
      {(items) => (
        <ul className="admin-cards">
          {items.map((item) => {
            const names = new Map(item.participants.map((p) => [p.id, p.name]));
            const busy = review.isPending && review.variables === item.conversation_id;
            const title = `${item.participants[0].name} and ${item.participants[1].name}`;
            return (
              <li key={item.conversation_id} className="panel admin-safety-item" aria-label={`Flagged conversation: ${title}`}>
                <div className="section-head">
                  <strong>{title}</strong>
                  <span className="muted">
                    Flagged <time dateTime={item.flagged_at}>{formatStaffTime(item.flagged_at)}</time>
                  </span>
                </div>
                <ul className="admin-safety-reasons" aria-label="Reasons">
                  {item.reason_labels.map((label) => (
                    <li key={label}>{label}</li>
                  ))}
                </ul>
                {item.feedback.length > 0 && (
                  <ul className="admin-safety-feedback" aria-label="Recipients' feedback">
                    {item.feedback.map((f) => (
                      <li key={`${f.user_id}:${f.kind}`}>
                        {f.name} said &ldquo;This is fine&rdquo; about the notice for: {f.kind_label} · <time dateTime={f.created_at}>{formatStaffTime(f.created_at)}</time>
                      </li>
                    ))}
                  </ul>
                )}
                <ul className="admin-safety-lines" aria-label="Flagged messages">
                  {item.messages.map((m) => (
                    <li key={m.id}>
                      <p className="muted">
                        {names.get(m.sender_id) ?? "Deleted user"} · <time dateTime={m.timestamp}>{formatStaffTime(m.timestamp)}</time>
                      </p>
                      <p className="prewrap">{m.text}</p>
                      {m.scored && <p className="muted admin-safety-scored">{SCORED_NOTE}</p>}
                    </li>
                  ))}
                </ul>
                <div className="admin-safety-people">
                  <span className="admin-safety-people-label">Participants:</span>
                  <ul className="admin-safety-people-list" aria-label="Participants">
                    {item.participants.map((p) => (
                      <li key={p.id}>
                        {p.name === DELETED_USER ? (
                          <span className="muted">{DELETED_USER}</span>
                        ) : (
                          <button type="button" className="button button-ghost admin-safety-person" aria-label={`${p.name}: open their user card`} onClick={() => onShowUser(p.id)}>
                            {p.name}
                          </button>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
                <p className="muted admin-safety-ids">
                  Participant ids: {item.participants[0].id}, {item.participants[1].id} · Conversation {item.conversation_id}
                </p>
                <div className="row">
                  <button type="button" className="button button-primary" disabled={busy} onClick={() => markReviewed(item)}>
                    {busy ? "Marking…" : "Mark reviewed"}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </PagedList>
  );
}

import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useArchiveFeedback } from "../api/admin-mutations";
import { useAdminFeedback, useAdminStats } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";
import { counted, PagedList } from "./paged-list";

/** Feedback newest first, a page at a time; the active list's count from admin/stats. */
export function FeedbackTab({ archived }: { archived: boolean }) {
  const feedback = useAdminFeedback(archived);
  const open = useAdminStats().data?.open_feedback;
  const archive = useArchiveFeedback();
  const toast = useToast();
  return (
    <div className="stack">
      {!archived && open !== undefined && (
        <p className="muted" aria-live="polite">
          {counted(open, "message to read", "messages to read")}
        </p>
      )}
      <PagedList query={feedback} label={archived ? "archived feedback" : "feedback"}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{archived ? "No archived feedback found." : "No feedback submissions have been received yet."}</p>
          ) : (
            <ul className="admin-cards">
              {list.map((f) => (
                <li key={f.id} className="panel stack-sm">
                  <div className="section-head">
                    <strong>{f.email}</strong>
                    <time className="muted" dateTime={f.timestamp}>
                      {formatStaffTime(f.timestamp)}
                    </time>
                  </div>
                  <p className="prewrap">{f.message}</p>
                  <p className="muted">
                    {f.page ? (
                      <>
                        Sent from <span className="mono">{f.page}</span>
                      </>
                    ) : (
                      "Page not recorded"
                    )}
                  </p>
                  {!archived && (
                    <button
                      type="button"
                      className="button button-ghost"
                      onClick={() =>
                        archive.mutate(f.id, { onError: (err) => toast.show(`Failed to archive feedback: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 }) })
                      }
                    >
                      Archive
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </PagedList>
    </div>
  );
}

import type { DeadLetter } from "@contract/dead-letters";
import { useDeadLetters } from "../api/dead-letters-api";
import { formatStaffTime } from "../lib/format";
import { PagedList } from "./paged-list";

/** What each kind of background work is, for someone who did not write it. */
const KIND_LABELS: Record<string, string> = {
  "photo-check": "Photo check",
  email: "Email",
  push: "Push notification",
  "saved-search-alerts": "Saved-search alerts",
  job: "Scheduled job",
};

/**
 * The Failed jobs tab (docs/decisions/037): background work (a photo check, an email, a push, alerts, a
 * scheduled job) that failed every retry and was set aside, newest first, with what it was about and
 * its last error, so staff can tell a mail outage from one bad photo. Nothing here is retried by itself.
 */
export function FailedJobsTab() {
  const query = useDeadLetters();
  return (
    <PagedList query={query} label="the failed jobs" empty="No failed jobs: every background job went through.">
      {(items) => (
        <div className="stack">
          <p className="muted">Background work that failed every retry. Fix the cause (a mail provider down, a damaged photo), then ask a developer to send it again.</p>
          <ul className="admin-cards">
            {items.map((item) => (
              <FailedJob key={item.id} item={item} />
            ))}
          </ul>
        </div>
      )}
    </PagedList>
  );
}

function FailedJob({ item }: { item: DeadLetter }) {
  const label = KIND_LABELS[item.kind] ?? item.kind;
  return (
    <li className="panel stack-sm" aria-label={`Failed ${label.toLowerCase()}${item.subject ? `: ${item.subject}` : ""}`}>
      <div className="section-head">
        <strong>
          {label}
          {item.subject ? ` · ${item.subject}` : ""}
        </strong>
        <span className="muted">
          Set aside <time dateTime={item.dead_at}>{formatStaffTime(item.dead_at)}</time>
        </span>
      </div>
      <p>{item.error ? <>Last error: <span className="mono">{item.error}</span></> : "No error was recorded (the worker stopped during the attempt)."}</p>
      <p className="muted">
        {item.attempts ? `${item.attempts} attempt${item.attempts === 1 ? "" : "s"}` : "Attempts not recorded"} · first sent <time dateTime={item.sent_at}>{formatStaffTime(item.sent_at)}</time> · message {item.id}
      </p>
      <details>
        <summary>The job as sent</summary>
        <pre className="mono prewrap">{item.body}</pre>
      </details>
    </li>
  );
}

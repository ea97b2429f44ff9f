import { useState } from "react";
import { REPORT_TEXTS, type AdminReport, type ReportAction } from "@contract/reports";
import { Dialog } from "../../../components/ui/dialog";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useAdminReports, useResolveReport, type ReportQueue } from "../api/reports-api";
import { formatStaffTime } from "../lib/format";
import { PagedList } from "./paged-list";

const DONE: Record<ReportAction, string> = {
  hide_listing: "Listing hidden.",
  suspend_user: "User suspended.",
  dismiss: "Report dismissed.",
};
const RESOLUTION_LABEL: Record<ReportAction, string> = { hide_listing: "Listing hidden", suspend_user: "User suspended", dismiss: "Dismissed" };

/** The Reports tab (docs/decisions/015): open reports with their actions, or resolved ones with what was done. */
export function ReportsTab({ status }: { status: ReportQueue }) {
  const query = useAdminReports(status);
  const resolve = useResolveReport();
  const toast = useToast();
  const [suspending, setSuspending] = useState<AdminReport | null>(null);

  const act = (report: AdminReport, action: ReportAction) =>
    resolve.mutate(
      { id: report.id, action },
      {
        onSuccess: () => toast.show(DONE[action], { kind: "success" }),
        onError: (err) => toast.show(errorMessage(err, "Could not resolve the report."), { kind: "error", durationMs: 4000 }),
      },
    );

  return (
    <div className="stack">
      <PagedList query={query} label="reports" empty={status === "open" ? "No open reports." : "No resolved reports yet."}>
        {(reports) => (
          <ul className="admin-cards">
            {reports.map((r) => {
              const busy = resolve.isPending && resolve.variables?.id === r.id;
              return (
                <li key={r.id} className="panel admin-report" aria-label={`Report: ${r.reason_label}`}>
                  <div className="admin-report-text">
                    <p>
                      <span className="badge badge-pending badge-plain">{r.reason_label}</span>{" "}
                      <strong>{r.kind === "listing" ? `Listing: ${r.listing_title ?? "deleted listing"}` : `User: ${r.reported_user?.name ?? "Deleted user"}`}</strong>
                    </p>
                    {r.details && <p className="admin-report-details">“{r.details}”</p>}
                    <p className="muted">
                      Reported user: {r.reported_user ? r.reported_user.name : "Deleted user"}
                      {r.reported_user?.suspended && <span className="badge badge-rejected">Suspended</span>} · By {r.reporter.name} ·{" "}
                      <time dateTime={r.created_at}>{formatStaffTime(r.created_at)}</time>
                    </p>
                    {r.open_reports_on_target > 1 && <p className="muted">{r.open_reports_on_target} open reports about this {r.kind === "listing" ? "listing" : "user"}</p>}
                    {r.status === "resolved" && r.resolution && (
                      <p className="muted">
                        {RESOLUTION_LABEL[r.resolution]}
                        {r.resolved_at && (
                          <>
                            {" "}
                            · <time dateTime={r.resolved_at}>{formatStaffTime(r.resolved_at)}</time>
                          </>
                        )}
                      </p>
                    )}
                  </div>
                  {r.status === "open" && (
                    <div className="row">
                      {r.kind === "listing" && r.listing_id && (
                        <button type="button" className="button button-ghost" disabled={busy} onClick={() => act(r, "hide_listing")}>
                          Hide listing
                        </button>
                      )}
                      {r.reported_user && !r.reported_user.suspended && (
                        <button type="button" className="button button-danger" disabled={busy} onClick={() => setSuspending(r)}>
                          Suspend user
                        </button>
                      )}
                      <button type="button" className="button button-ghost" disabled={busy} onClick={() => act(r, "dismiss")}>
                        Dismiss
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </PagedList>
      <Dialog
        open={suspending !== null}
        alert
        size="sm"
        onClose={() => setSuspending(null)}
        title={`Suspend ${suspending?.reported_user?.name ?? "this user"}?`}
        description={`They are signed out everywhere and see "${REPORT_TEXTS.suspended}" when they try to sign in. Their listings leave browse until you lift the suspension from the Users tab.`}
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setSuspending(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                const r = suspending!;
                setSuspending(null);
                act(r, "suspend_user");
              }}
            >
              Suspend
            </button>
          </>
        }
      />
    </div>
  );
}

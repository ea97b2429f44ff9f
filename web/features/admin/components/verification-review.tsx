import { useEffect, useMemo, useState } from "react";
import { Dialog } from "../../../components/ui/dialog";
import { ReasonDialog } from "../../../components/ui/reason-dialog";
import { PageLoadingInline } from "../../../components/ui/spinner";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import type { ReviewDecision, ReviewItem, VerificationQueue } from "../api/admin-api";
import { useReviewVerification } from "../api/admin-mutations";
import { useIdentityDocument, useVerificationQueue } from "../api/admin-queries";
import { formatStaffTime } from "../lib/format";
import { PagedList } from "./paged-list";

/** Identity review: the pending requests (view, approve, reject) or the users who never sent one. */
export function VerificationReview({ status }: { status: VerificationQueue }) {
  const items = useVerificationQueue(status);
  const reviewVerification = useReviewVerification();
  const toast = useToast();
  const [rejecting, setRejecting] = useState<ReviewItem | null>(null);
  const [viewing, setViewing] = useState<ReviewItem | null>(null);
  function review(item: ReviewItem, decision: ReviewDecision, reason?: string) {
    reviewVerification.mutate(
      { id: item.id, decision, reason },
      {
        onSuccess: () => toast.show(decision === "approved" ? "Verification approved" : "Verification rejected", { kind: "success" }),
        onError: (err) =>
          toast.show(`${decision === "approved" ? "Failed to approve verification" : "Failed to reject verification"}: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 }),
      },
    );
  }
  return (
    <>
      <PagedList query={items} label={status === "pending" ? "pending verifications" : "unverified users"}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{status === "pending" ? "No pending verification requests." : "Every user has submitted a document."}</p>
          ) : (
            <ul className="admin-cards">
              {list.map((item) => {
                // The unverified list also holds users who never sent a request (no id).
                const request = item.id !== null ? item : null;
                return (
                  <li key={item.id ?? item.user_id} className="panel admin-user">
                    <div className="admin-user-text">
                      <strong>{item.user_name || "Unknown User"}</strong>
                      <span className="muted">{item.user_email || "No email"}</span>
                      {request && (
                        <span className="muted">
                          {request.document_type.replace("_", " ")} · submitted <time dateTime={request.submitted_at}>{formatStaffTime(request.submitted_at)}</time>
                        </span>
                      )}
                      {request?.notes && <span>“{request.notes}”</span>}
                    </div>
                    {status === "pending" && request && (
                      <div className="row row-start">
                        <button type="button" className="button button-ghost" onClick={() => setViewing(request)}>
                          View document
                        </button>
                        <button type="button" className="button button-primary" onClick={() => review(request, "approved")}>
                          Approve
                        </button>
                        <button type="button" className="button button-ghost danger-text" onClick={() => setRejecting(request)}>
                          Reject
                        </button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )
        }
      </PagedList>
      <ReasonDialog
        title="Reject verification"
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
        onSubmit={(reason) => {
          if (rejecting) review(rejecting, "rejected", reason);
          setRejecting(null);
        }}
      />
      <Dialog open={viewing !== null} onClose={() => setViewing(null)} size="lg" title="Identity document">
        {viewing && <DocumentView request={viewing} />}
      </Dialog>
    </>
  );
}

/**
 * A private identity document: fetched with the admin's bearer header (never a token in a URL),
 * shown from a blob: URL when it is an image, offered as a download when it is a PDF.
 */
function DocumentView({ request }: { request: ReviewItem }) {
  const file = useIdentityDocument(request.id);
  const url = useMemo(() => (file.data ? URL.createObjectURL(file.data) : null), [file.data]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  if (file.isPending) return <PageLoadingInline label="Loading document" />;
  if (file.isError || !url) return <p role="alert">{errorMessage(file.error, "Failed to load the document")}</p>;
  const isImage = file.data.type.startsWith("image/");
  return (
    <div className="stack">
      {isImage ? <img className="document-view" src={url} alt={`${request.document_type} of ${request.user_name}`} /> : <p>This document is a PDF. Download it to review it.</p>}
      <a href={url} download={`identity-document-${request.id}`} className="button button-ghost">
        Download the document
      </a>
    </div>
  );
}

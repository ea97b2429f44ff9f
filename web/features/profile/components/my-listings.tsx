import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { Listing } from "@contract/listings";
import { Dialog } from "../../../components/ui/dialog";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { ApiError, apiRequest, errorMessage } from "../../../lib/api-client";
import { formatRent } from "../../../lib/listings-api";
import { useSession } from "../../../lib/session";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";

const myListingsKey = ["my-listings"] as const;

interface MyListingsProps {
  /** The create-listing modal, supplied by the app layer (features do not import each other). */
  renderCreate: (props: { open: boolean; onClose: () => void; onCreated: () => void }) => ReactNode;
}

/** Own listings in every state: '(Pending)', a clickable 'Rejected', mark taken/available, edit, delete. */
export function MyListings({ renderCreate }: MyListingsProps) {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const listings = useQuery({
    queryKey: myListingsKey,
    queryFn: () => apiRequest<{ data: Listing[] }>("users/listings", { query: { include_unavailable: true } }).then((r) => r.data),
  });
  const [reason, setReason] = useState<Listing | null>(null);
  const [deleting, setDeleting] = useState<Listing | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: myListingsKey });

  async function setStatus(listing: Listing, status: "available" | "taken") {
    try {
      await apiRequest(`subleases/${listing.id}`, { method: "PATCH", body: { status } });
      toast.show(status === "taken" ? "Marked as taken" : "Marked as available", { kind: "success" });
      void refresh();
    } catch (err) {
      toast.show(errorMessage(err, "Failed to update listing. Please try again."), { kind: "error", durationMs: 3000 });
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteError(null);
    try {
      await apiRequest(`subleases/${deleting.id}`, { method: "DELETE" });
      setDeleting(null);
      toast.show("Listing deleted", { kind: "success" });
      void refresh();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        signOut();
        navigate(paths.home);
        return;
      }
      if (err instanceof ApiError && err.status === 404) {
        setDeleteError("Listing not found. It may have already been deleted.");
        void refresh();
        return;
      }
      if (err instanceof ApiError && err.status === 403) return setDeleteError("You are not authorized to delete this listing.");
      setDeleteError(err instanceof ApiError && err.isNetworkError ? "Network error occurred while deleting listing." : errorMessage(err));
    }
  }

  const canCreate = session?.user.id_verification_status === "verified";
  return (
    <section className="panel stack full-row" aria-labelledby="my-listings-heading">
      <div className="section-head">
        <h2 id="my-listings-heading">My listings</h2>
        {canCreate ? (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New listing
          </button>
        ) : (
          <Link to={paths.verification} className="button button-ghost">
            Verify to post
          </Link>
        )}
      </div>
      {listings.isPending ? (
        <p className="muted">Loading your listings…</p>
      ) : listings.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(listings.error, "Failed to load your listings")}{" "}
          <button type="button" className="link-button" onClick={() => listings.refetch()}>
            Try again
          </button>
        </p>
      ) : listings.data.length === 0 ? (
        <p className="muted">You have no listings yet.</p>
      ) : (
        <ul className="my-listings">
          {listings.data.map((l) => (
            <li key={l.id}>
              <img src={l.thumbnails[0] ?? PLACEHOLDER_IMAGE} alt="" />
              <div className="my-listing-text">
                <Link to={paths.listing(l.id, paths.profile)}>
                  {l.title}
                  {l.verification_status === "pending" && <span className="muted"> (Pending)</span>}
                  {l.moderation_status === "hidden" && <span className="muted"> (Hidden by staff)</span>}
                </Link>
                <span className="muted">
                  {formatRent(l.monthly_rent)}/month · {l.status === "available" ? "Available" : l.status === "taken" ? "Taken" : "Hidden"}
                </span>
                {l.verification_status === "rejected" && (
                  <button type="button" className="badge badge-rejected badge-button" onClick={() => setReason(l)}>
                    Rejected
                  </button>
                )}
              </div>
              <div className="my-listing-actions">
                <Link to={paths.edit(l.id)} className="button button-ghost">
                  Edit
                </Link>
                <button type="button" className="button button-ghost" onClick={() => setStatus(l, l.status === "taken" ? "available" : "taken")}>
                  {l.status === "taken" ? "Mark available" : "Mark taken"}
                </button>
                <button type="button" className="button button-ghost danger-text" onClick={() => setDeleting(l)}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Dialog open={reason !== null} onClose={() => setReason(null)} size="sm" title="Why this listing was rejected">
        <p className="prewrap">{reason?.rejection_reason || "No reason was given."}</p>
        <p className="muted">Edit the listing to fix it; it goes back to review when you save.</p>
      </Dialog>
      <Dialog
        open={deleting !== null}
        alert
        onClose={() => {
          setDeleting(null);
          setDeleteError(null);
        }}
        size="sm"
        title="Delete this listing?"
        description={deleting ? `"${deleting.title}" and its photos will be removed for good.` : undefined}
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setDeleting(null)}>
              Cancel
            </button>
            <button type="button" className="button button-danger" onClick={confirmDelete}>
              Delete
            </button>
          </>
        }
      >
        {deleteError && (
          <p className="field-error" role="alert">
            {deleteError}
          </p>
        )}
      </Dialog>
      {renderCreate({ open: creating, onClose: () => setCreating(false), onCreated: () => void refresh() })}
    </section>
  );
}

import { useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { OwnerListing } from "@contract/listings";
import { canCreateListing } from "@contract/policies";
import { reviewReasonNotice } from "@contract/waits";
import { canPromoteListing, ownerListingState, renewalStopNotice, type OwnerListingState } from "@contract/owner-rules";
import { Dialog } from "../../../components/ui/dialog";
import { useToast } from "../../../components/ui/toast";
import { paths } from "../../../config/paths";
import { ApiError, errorMessage } from "../../../lib/api-client";
import { formatRent } from "../../../lib/listings-api";
import { useConfirmAvailability, useDeleteListing, useOwnListings, useUpdateListing } from "../../../lib/own-listings-api";
import { useSession } from "../../../lib/session";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";

interface MyListingsProps {
  /** The create-listing modal, supplied by the app layer (features do not import each other). */
  renderCreate: (props: { open: boolean; onClose: () => void }) => ReactNode;
}

/** The product's wording for a failed delete, by cause (docs/product-rules.md "Wording"). */
function deleteErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return "Listing not found. It may have already been deleted.";
  if (err instanceof ApiError && err.status === 403) return "You are not authorized to delete this listing.";
  if (err instanceof ApiError && err.isNetworkError) return "Network error occurred while deleting listing.";
  return errorMessage(err);
}

/** The promotion's part of a confirmation, after a space (empty when nothing renews). */
const stopNotice = (listing: OwnerListing, action: "taken" | "delete") => {
  const notice = renewalStopNotice(listing, action);
  return notice ? ` ${notice}` : "";
};

/** Each state's name on the card ("rejected" is a button that opens the reason). */
const STATE_LABELS: Record<OwnerListingState, string> = {
  pending: "Pending review",
  rejected: "Rejected - see why",
  hidden_by_staff: "Hidden by staff",
  taken: "Taken",
  paused: "Paused",
  unconfirmed: "Paused: confirm it's still available",
  live: "Live",
};

/** The owner's status a state can switch to: only a live listing is taken, only a taken or paused one comes back. */
const STATUS_ACTIONS: Partial<Record<OwnerListingState, { status: "available" | "taken"; label: string }>> = {
  live: { status: "taken", label: "Mark taken" },
  taken: { status: "available", label: "Mark available" },
  paused: { status: "available", label: "Mark available" },
};

/** Own listings in every state, each named once (ownerListingState) with only the actions valid in it. */
export function MyListings({ renderCreate }: MyListingsProps) {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  const listings = useOwnListings();
  const update = useUpdateListing();
  const remove = useDeleteListing();
  const confirmAvailable = useConfirmAvailability();
  const [reason, setReason] = useState<OwnerListing | null>(null);
  const [deleting, setDeleting] = useState<OwnerListing | null>(null);
  /** A promoted listing about to be marked taken: its renewal stops, so the owner confirms first. */
  const [takingPromoted, setTakingPromoted] = useState<OwnerListing | null>(null);
  const [creating, setCreating] = useState(false);

  function setStatus(listing: OwnerListing, status: "available" | "taken") {
    update.mutate(
      { id: listing.id, patch: { status } },
      {
        onSuccess: () => toast.show(status === "taken" ? "Marked as taken" : "Marked as available", { kind: "success" }),
        onError: (err) => toast.show(errorMessage(err, "Failed to update listing. Please try again."), { kind: "error", durationMs: 3000 }),
      },
    );
  }

  function confirmAvailability(listing: OwnerListing) {
    confirmAvailable.mutate(listing.id, {
      onSuccess: () => toast.show("Thanks! Your listing is back in search results.", { kind: "success" }),
      onError: (err) => toast.show(errorMessage(err, "Failed to update listing. Please try again."), { kind: "error", durationMs: 3000 }),
    });
  }

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        toast.show("Listing deleted", { kind: "success" });
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 401) {
          signOut();
          navigate(paths.home);
        }
        // Already gone: the list drops it too.
        if (err instanceof ApiError && err.status === 404) void listings.refetch();
      },
    });
  }
  const deleteError = remove.error && !(remove.error instanceof ApiError && remove.error.status === 401) ? deleteErrorMessage(remove.error) : null;

  return (
    <section className="panel stack full-row" aria-labelledby="my-listings-heading">
      <div className="section-head">
        <h2 id="my-listings-heading">My listings</h2>
        {canCreateListing(session?.user) ? (
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
          {listings.data.map((l) => {
            const state = ownerListingState(l);
            const statusAction = STATUS_ACTIONS[state];
            return (
              <li key={l.id}>
                <img src={l.thumbnails[0] ?? PLACEHOLDER_IMAGE} alt="" />
                <div className="my-listing-text">
                  <Link id={`my-listing-${l.id}`} to={paths.listing(l.id, paths.profile)}>
                    {l.title}
                  </Link>
                  <span className="muted">{formatRent(l.monthly_rent)}/month</span>
                  <span className="my-listing-state">
                    {state === "rejected" ? (
                      <button type="button" className="badge badge-rejected badge-button" onClick={() => setReason(l)}>
                        {STATE_LABELS[state]}
                      </button>
                    ) : (
                      <span className={`badge badge-state-${state}`}>{STATE_LABELS[state]}</span>
                    )}
                    {l.promoted && <span className="badge badge-promotion-promoted">Promoted</span>}
                  </span>
                  {/* Why it went back to review before staff decide (the photo check, decision 028). */}
                  {state === "pending" && l.review_reason && <span className="my-listing-review-reason muted">{reviewReasonNotice(l.review_reason)}</span>}
                </div>
                <div className="my-listing-actions">
                  {/* The listing in the name too, so a list of links or buttons says which one each acts on. */}
                  <Link to={paths.edit(l.id)} className="button button-ghost" aria-describedby={`my-listing-${l.id}`}>
                    Edit <span className="visually-hidden">{l.title}</span>
                  </Link>
                  {l.promoted || l.stripe_subscription_id ? (
                    <Link to={paths.billingFor(l.id)} className="button button-ghost" aria-describedby={`my-listing-${l.id}`}>
                      Billing
                    </Link>
                  ) : (
                    state === "live" &&
                    canPromoteListing(session?.user, l) && (
                      <Link to={paths.promote(l.id)} className="button button-ghost" aria-describedby={`my-listing-${l.id}`}>
                        Promote
                      </Link>
                    )
                  )}
                  {state === "unconfirmed" && (
                    <button
                      type="button"
                      className="button button-primary"
                      aria-describedby={`my-listing-${l.id}`}
                      disabled={confirmAvailable.isPending && confirmAvailable.variables === l.id}
                      onClick={() => confirmAvailability(l)}
                    >
                      Confirm availability
                    </button>
                  )}
                  {statusAction && (
                    <button
                      type="button"
                      className="button button-ghost"
                      aria-describedby={`my-listing-${l.id}`}
                      onClick={() => (statusAction.status === "taken" && renewalStopNotice(l, "taken") ? setTakingPromoted(l) : setStatus(l, statusAction.status))}
                    >
                      {statusAction.label}
                    </button>
                  )}
                  <button type="button" className="button button-ghost danger-text" aria-describedby={`my-listing-${l.id}`} onClick={() => setDeleting(l)}>
                    Delete <span className="visually-hidden">{l.title}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Dialog open={reason !== null} onClose={() => setReason(null)} size="sm" title="Why this listing was rejected">
        <p className="prewrap">{reason?.rejection_reason || "No reason was given."}</p>
        <p className="muted">Edit the listing to fix it; it goes back to review when you save.</p>
      </Dialog>
      <Dialog
        open={takingPromoted !== null}
        onClose={() => setTakingPromoted(null)}
        size="sm"
        title="Mark this listing taken?"
        description={takingPromoted ? `"${takingPromoted.title}" leaves search results.${stopNotice(takingPromoted, "taken")}` : undefined}
        footer={
          <>
            <button type="button" className="button button-ghost" onClick={() => setTakingPromoted(null)} data-autofocus>
              Keep it available
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                if (takingPromoted) setStatus(takingPromoted, "taken");
                setTakingPromoted(null);
              }}
            >
              Mark taken
            </button>
          </>
        }
      />
      <Dialog
        open={deleting !== null}
        alert
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        size="sm"
        title="Delete this listing?"
        description={deleting ? `"${deleting.title}" and its photos will be removed for good.${stopNotice(deleting, "delete")}` : undefined}
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
      {renderCreate({ open: creating, onClose: () => setCreating(false) })}
    </section>
  );
}

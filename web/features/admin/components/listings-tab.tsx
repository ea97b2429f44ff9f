import { useState } from "react";
import { STAFF_PROMOTION_DAYS } from "@contract/constants";
import { canStaffPromoteListing } from "@contract/owner-rules";
import { isPublicListing } from "@contract/policies";
import { ReasonDialog } from "../../../components/ui/reason-dialog";
import { useToast } from "../../../components/ui/toast";
import { Tooltip } from "../../../components/ui/tooltip";
import { paths } from "../../../config/paths";
import { errorMessage } from "../../../lib/api-client";
import type { AdminListing } from "@contract/admin";
import type { AdminListingsView } from "../api/admin-api";
import {
  useCleanupPromotions,
  useDeleteListing,
  useEditListing,
  usePromoteListing,
  useReviewListing,
  useUnpromoteListing,
  useVerifyAllListings,
} from "../api/admin-mutations";
import { useAdminListings, useAdminStats } from "../api/admin-queries";
import { useDebounced } from "../lib/use-debounced";
import { counted, PagedList, SearchBox } from "./paged-list";
import { DeleteListingDialog } from "./delete-listing-dialog";
import { EditListingDialog } from "./edit-listing-dialog";
import { ListingDetailsDialog } from "./listing-details-dialog";
import { ListingTile } from "./listing-tile";
import { VerifyAllDialog } from "./verify-all-dialog";

/** Staff promote only approved listings (docs/product-rules.md "States"). */

/** The toasts of a staff action: its success text, or '{failure}: {server detail}'. */
function useActionToasts() {
  const toast = useToast();
  return (success: string, failure: string) => ({
    onSuccess: () => toast.show(success, { kind: "success" }),
    onError: (err: unknown) => toast.show(`${failure}: ${errorMessage(err)}`, { kind: "error", durationMs: 4000 }),
  });
}

/** Each tab's count, from admin/stats (the panel never holds the whole table: docs/decisions/038). */
const TAB_COUNT = { all: "listings", pending: "pending_listings", promoted: "promoted_listings" } as const;

export function ListingsTab({ which, onShowUser }: { which: AdminListingsView; onShowUser: (userId: string) => void }) {
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim());
  const listings = useAdminListings(which, q);
  const stats = useAdminStats().data;
  const total = stats?.[TAB_COUNT[which]];
  const toast = useToast();
  const toasts = useActionToasts();
  const review = useReviewListing();
  const edit = useEditListing();
  const verifyAll = useVerifyAllListings();
  const promote = usePromoteListing();
  const unpromote = useUnpromoteListing();
  const cleanup = useCleanupPromotions();
  const remove = useDeleteListing();
  const [details, setDetails] = useState<AdminListing | null>(null);
  const [rejecting, setRejecting] = useState<AdminListing | null>(null);
  const [deleting, setDeleting] = useState<AdminListing | null>(null);
  const [editing, setEditing] = useState<AdminListing | null>(null);
  const [confirmingAll, setConfirmingAll] = useState(false);
  // Every pending listing, loaded or not (verify-all approves them all on the server).
  const pendingCount = which === "pending" ? (stats?.pending_listings ?? 0) : 0;
  const approve = (l: AdminListing) => review.mutate({ id: l.id, revision: l.revision, decision: "approved" }, toasts("Listing approved successfully!", "Failed to approve listing"));
  const found = listings.items?.length;
  return (
    <div className="stack">
      <div className="admin-toolbar">
        <span className="muted" aria-live="polite">
          {q ? (found === undefined ? "" : `${found}${listings.hasNextPage ? "+" : ""} found`) : total !== undefined ? counted(total, "listing", "listings") : ""}
        </span>
        <SearchBox label="Search listings" placeholder="Search by title words, listing or owner ID, or owner email..." value={search} onChange={setSearch} />
      </div>
      {which === "pending" && (
        <div className="admin-toolbar">
          {/* A bulk approval is a secondary action behind a typed count. */}
          <button type="button" className="button button-ghost" disabled={!pendingCount || verifyAll.isPending} onClick={() => setConfirmingAll(true)}>
            {pendingCount ? `Approve all ${pendingCount} pending ${pendingCount === 1 ? "listing" : "listings"}` : "Approve all pending listings"}
          </button>
        </div>
      )}
      {which === "promoted" && (
        <div className="admin-toolbar">
          <button
            type="button"
            className="button button-ghost"
            onClick={() =>
              cleanup.mutate(undefined, {
                ...toasts("Done", "Failed to cleanup expired promotions"),
                onSuccess: (r) => {
                  toast.show(`Cleanup completed! ${r.expired_count} expired admin promotions removed.`, { kind: "success" });
                  toast.show("Done", { kind: "success" });
                },
              })
            }
          >
            Cleanup Expired Promotions
          </button>
        </div>
      )}
      <PagedList query={listings} label={which === "all" ? "listings" : `${which} listings`}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{q ? "No listings match your search." : "No listings here."}</p>
          ) : (
            <ul className="admin-tiles">
              {list.map((l) => (
                <ListingTile key={l.id} listing={l} onOpen={setDetails}>
                  {which === "all" && (
                    <>
                      {/* The public page refuses a listing the public cannot see (pending, rejected, paused or hidden):
                          View opens its details here instead. */}
                      {isPublicListing(l) ? (
                        <a className="button button-ghost" href={paths.listing(l.id)} target="_blank" rel="noopener noreferrer" aria-label="View (opens in a new tab)">
                          View
                        </a>
                      ) : (
                        <button type="button" className="button button-ghost" aria-haspopup="dialog" onClick={() => setDetails(l)}>
                          View
                        </button>
                      )}
                      {l.verification_status === "pending" && (
                        <>
                          <button type="button" className="button button-primary" onClick={() => approve(l)}>
                            Approve
                          </button>
                          <button type="button" className="button button-ghost danger-text" onClick={() => setRejecting(l)}>
                            Reject
                          </button>
                        </>
                      )}
                      <button type="button" className="button button-ghost" onClick={() => setEditing(l)}>
                        Edit
                      </button>
                      {!l.promoted && (
                        <Tooltip content={canStaffPromoteListing(l) ? `Promote this listing for ${STAFF_PROMOTION_DAYS} days` : "Only approved listings can be promoted"}>
                          <button
                            type="button"
                            className="button button-ghost"
                            disabled={!canStaffPromoteListing(l)}
                            onClick={() => promote.mutate(l.id, toasts(`Listing promoted for ${STAFF_PROMOTION_DAYS} days`, "Failed to promote listing"))}
                          >
                            Promote
                          </button>
                        </Tooltip>
                      )}
                      <button type="button" className="button button-ghost danger-text" onClick={() => setDeleting(l)}>
                        Delete
                      </button>
                    </>
                  )}
                  {which === "pending" && (
                    <>
                      <button type="button" className="button button-primary" onClick={() => approve(l)}>
                        Approve
                      </button>
                      <button type="button" className="button button-ghost danger-text" onClick={() => setRejecting(l)}>
                        Reject
                      </button>
                      <button type="button" className="button button-ghost" onClick={() => setDetails(l)}>
                        View Details
                      </button>
                    </>
                  )}
                  {which === "promoted" && (
                    <button type="button" className="button button-ghost" onClick={() => unpromote.mutate(l.id, toasts("Listing unpromoted", "Failed to unpromote listing"))}>
                      Unpromote
                    </button>
                  )}
                </ListingTile>
              ))}
            </ul>
          )
        }
      </PagedList>
      <ListingDetailsDialog
        listing={details}
        onClose={() => setDetails(null)}
        onShowUser={onShowUser}
        onApprove={(l) => {
          approve(l);
          setDetails(null);
        }}
        onReject={(l) => {
          setRejecting(l);
          setDetails(null);
        }}
      />
      {editing && (
        <EditListingDialog
          listing={editing}
          onClose={() => setEditing(null)}
          onSave={(changes) => {
            const l = editing;
            setEditing(null);
            edit.mutate({ id: l.id, edit: changes }, toasts("Listing updated", "Failed to update listing"));
          }}
        />
      )}
      <ReasonDialog
        title="Reject Listing"
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
        onSubmit={(reason) => {
          const l = rejecting;
          setRejecting(null);
          if (l) review.mutate({ id: l.id, revision: l.revision, decision: "rejected", reason }, toasts("Listing rejected successfully!", "Failed to reject listing"));
        }}
      />
      <VerifyAllDialog
        count={pendingCount}
        open={confirmingAll}
        onClose={() => setConfirmingAll(false)}
        onConfirm={() =>
          verifyAll.mutate(undefined, {
            ...toasts("Done", "Failed to verify all listings"),
            onSuccess: (r) => {
              toast.show(`Successfully verified ${r.verified_count} out of ${r.total_listings} listings!`, { kind: "success" });
              toast.show("Done", { kind: "success" });
            },
          })
        }
      />
      <DeleteListingDialog
        listing={deleting}
        onClose={() => setDeleting(null)}
        onDelete={(l) => remove.mutate(l.id, toasts("Item deleted successfully", "Failed to delete item"))}
      />
    </div>
  );
}

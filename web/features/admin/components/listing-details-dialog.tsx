import { Dialog } from "../../../components/ui/dialog";
import { formatRent } from "../../../lib/listings-api";
import type { AdminListing } from "@contract/admin";
import { NY_TIME } from "../lib/format";

/** A pending listing in full, with Approve, Reject and Close. */
export function ListingDetailsDialog({
  listing,
  onApprove,
  onReject,
  onClose,
}: {
  listing: AdminListing | null;
  onApprove: (listing: AdminListing) => void;
  onReject: (listing: AdminListing) => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={listing !== null}
      onClose={onClose}
      size="lg"
      title={listing?.title ?? ""}
      footer={
        listing && (
          <>
            <button type="button" className="button button-primary" onClick={() => onApprove(listing)}>
              Approve
            </button>
            <button type="button" className="button button-ghost danger-text" onClick={() => onReject(listing)}>
              Reject
            </button>
            <button type="button" className="button button-ghost" onClick={onClose}>
              Close
            </button>
          </>
        )
      }
    >
      {listing && (
        <dl className="details">
          {[
            ["Price", `${formatRent(listing.price)}/month`],
            ["Address", listing.address],
            ["Unit type", listing.unit_type],
            ["Lease term", listing.lease_term],
            ["Status", `${listing.verification_status} · ${listing.status}`],
            ["User ID", listing.user_id],
            ["Created", NY_TIME.format(new Date(listing.created_at))],
          ].map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
          <div className="full-row">
            <dt>Description</dt>
            <dd className="prewrap">{listing.description}</dd>
          </div>
          <div className="full-row admin-images">
            {listing.pictures.map((p) => (
              <img key={p} src={p} alt="" />
            ))}
          </div>
        </dl>
      )}
    </Dialog>
  );
}

import type { ReactNode } from "react";
import { Dialog } from "../../../components/ui/dialog";
import { formatRent, termLabel, unitLabel } from "../../../lib/listings-api";
import type { AdminListing } from "@contract/admin";
import { distanceText, formatStaffTime, LISTING_STATUS_LABELS, REVIEW_STATUS_LABELS } from "../lib/format";
import { PriceCheck } from "./price-check";
import { PhotoCheck } from "./photo-check";
import { isPublicListing } from "@contract/policies";
import { paths } from "../../../config/paths";
import { deferred } from "../../../components/ui/deferred";

/** The map (docs/decisions/024): its own chunk, loaded when a placed listing's details open. */
const LazyListingMap = deferred(() => import("../../../components/map/listing-map").then((m) => m.ListingMap));

/** Said to staff for a listing without coordinates: the only ways a listing ends up without them. */
export const NO_LOCATION_REASON =
  "The address was typed, not picked from the address suggestions, or the map service could not place the picked one. The listing has no distance to campus, and distance searches leave it out.";

/** The review state, the owner's state and staff's own hiding, in words. */
function statusText(listing: AdminListing) {
  const parts = [REVIEW_STATUS_LABELS[listing.verification_status], LISTING_STATUS_LABELS[listing.status]];
  if (listing.moderation_status === "hidden") parts.push("Hidden by staff");
  if (listing.moderation_status === "suspended") parts.push("Owner suspended");
  return parts.join(" · ");
}

/** Every photo as a thumbnail of at least 160 px in a wrapping grid, each opening the full image in a new tab. */
function Photos({ listing }: { listing: AdminListing }) {
  const count = listing.pictures.length;
  return (
    <section className="admin-photos" aria-labelledby={`admin-photos-${listing.id}`}>
      <h3 id={`admin-photos-${listing.id}`} className="admin-photos-title">
        Photos ({count})
      </h3>
      {count === 0 ? (
        <p className="muted">No photos.</p>
      ) : (
        <ul className="admin-photo-grid">
          {listing.pictures.map((p, i) => (
            <li key={`${i}:${p}`}>
              <a href={p} target="_blank" rel="noopener noreferrer" aria-label={`Photo ${i + 1} of ${count}, opens in a new tab`}>
                <img src={listing.thumbnails[i] ?? p} alt="" loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A listing in full (any listing: the public page refuses one the public cannot see), with Approve and
 * Reject while it waits for review, its public page once the public can see it, and Close; the lister's
 * name opens their user card.
 */
export function ListingDetailsDialog({
  listing,
  onApprove,
  onReject,
  onClose,
  onShowUser,
}: {
  listing: AdminListing | null;
  onApprove: (listing: AdminListing) => void;
  onReject: (listing: AdminListing) => void;
  onClose: () => void;
  onShowUser: (userId: string) => void;
}) {
  const listerName = listing && (`${listing.user_first_name} ${listing.user_last_name}`.trim() || "Unknown User");
  const rows: [string, ReactNode][] = listing
    ? [
        ["Price", `${formatRent(listing.price)}/month`],
        ["Address", listing.address],
        ["Distance to campus", distanceText(listing)],
        // Why a listing is off the map (only an address picked from the suggestions, and placed, has coordinates).
        ...(typeof listing.latitude === "number"
          ? []
          : ([["Why no location", NO_LOCATION_REASON]] as [string, ReactNode][])),
        ["Unit type", unitLabel(listing.unit_type)],
        ["Lease term", termLabel(listing.lease_term)],
        ["Status", statusText(listing)],
        [
          "Lister",
          <button type="button" className="link-button" aria-label={`${listerName}: open their user card`} onClick={() => onShowUser(listing.user_id)}>
            {listerName}
          </button>,
        ],
        ["Created", <time dateTime={listing.created_at}>{formatStaffTime(listing.created_at)}</time>],
      ]
    : [];
  return (
    <Dialog
      open={listing !== null}
      onClose={onClose}
      size="lg"
      title={listing?.title ?? ""}
      footer={
        listing && (
          <>
            {listing.verification_status === "pending" && (
              <>
                <button type="button" className="button button-primary" onClick={() => onApprove(listing)}>
                  Approve
                </button>
                <button type="button" className="button button-ghost danger-text" onClick={() => onReject(listing)}>
                  Reject
                </button>
              </>
            )}
            {isPublicListing(listing) && (
              <a className="button button-ghost" href={paths.listing(listing.id)} target="_blank" rel="noopener noreferrer" aria-label="Public page (opens in a new tab)">
                Public page
              </a>
            )}
            <button type="button" className="button button-ghost" onClick={onClose}>
              Close
            </button>
          </>
        )
      }
    >
      {listing && <PriceCheck listing={listing} asNotice />}
      {listing && <PhotoCheck listing={listing} asNotice />}
      {listing && (
        <dl className="details">
          {rows.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
          <div className="full-row">
            <dt>Description</dt>
            <dd className="prewrap">{listing.description}</dd>
          </div>
        </dl>
      )}
      {listing && <Photos listing={listing} />}
      {/* Staff see the exact point, as the owner does; the public sees an area of about 200 m. */}
      {listing && typeof listing.latitude === "number" && typeof listing.longitude === "number" && (
        <div className="admin-listing-map">
          <LazyListingMap
            load
            title={listing.title}
            universityId={listing.university_id}
            exact={[listing.latitude, listing.longitude]}
            approx={null}
            fallback={<div className="map-canvas map-loading" />}
          />
          <p className="muted map-caption">The exact point. The public sees an area of about 200 m around it.</p>
        </div>
      )}
    </Dialog>
  );
}

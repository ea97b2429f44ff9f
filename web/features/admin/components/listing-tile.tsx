import type { ReactNode } from "react";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";
import { formatRent } from "../../../lib/listings-api";
import type { AdminListing } from "@contract/admin";
import { distanceText, formatStaffTime, REVIEW_STATUS_LABELS } from "../lib/format";
import { PriceCheck } from "./price-check";
import { PhotoCheck } from "./photo-check";

/** A listing's card in the staff lists; its title opens the listing's details (onOpen). */
export function ListingTile({ listing, onOpen, children }: { listing: AdminListing; onOpen: (listing: AdminListing) => void; children: ReactNode }) {
  return (
    <li className="panel admin-tile">
      <img src={listing.thumbnails[0] ?? PLACEHOLDER_IMAGE} alt="" />
      <div className="admin-tile-text">
        <span className={`badge badge-${listing.verification_status} badge-plain`}>{REVIEW_STATUS_LABELS[listing.verification_status]}</span>
        <strong className="admin-tile-title">
          <button type="button" className="link-button" aria-haspopup="dialog" onClick={() => onOpen(listing)}>
            {listing.title}
          </button>
        </strong>
        <span>{formatRent(listing.price)}/month</span>
        <span className="muted">
          {listing.location} · {listing.university_abbreviation}
        </span>
        {/* Judged against the address (decision 019): coordinates follow the picked suggestion. */}
        <span className="muted">{distanceText(listing)}</span>
        <PriceCheck listing={listing} />
        <PhotoCheck listing={listing} />
        {listing.promotion_end && <span className="muted">
            Promoted until <time dateTime={listing.promotion_end}>{formatStaffTime(listing.promotion_end)}</time>
          </span>}
      </div>
      <div className="row row-start">{children}</div>
    </li>
  );
}

import type { ReactNode } from "react";
import { PLACEHOLDER_IMAGE } from "../../../components/ui/carousel";
import { formatRent } from "../../../lib/listings-api";
import type { AdminListing } from "@contract/admin";
import { distanceText, formatStaffTime, REVIEW_STATUS_LABELS } from "../lib/format";
import { PriceCheck } from "./price-check";

export function ListingTile({ listing, children }: { listing: AdminListing; children: ReactNode }) {
  return (
    <li className="panel admin-tile">
      <img src={listing.thumbnails[0] ?? PLACEHOLDER_IMAGE} alt="" />
      <div className="admin-tile-text">
        <span className={`badge badge-${listing.verification_status} badge-plain`}>{REVIEW_STATUS_LABELS[listing.verification_status]}</span>
        <strong>{listing.title}</strong>
        <span>{formatRent(listing.price)}/month</span>
        <span className="muted">
          {listing.location} · {listing.university_abbreviation}
        </span>
        {/* Judged against the address (decision 019): coordinates follow the picked suggestion. */}
        <span className="muted">{distanceText(listing)}</span>
        <PriceCheck listing={listing} />
        {listing.promotion_end && <span className="muted">
            Promoted until <time dateTime={listing.promotion_end}>{formatStaffTime(listing.promotion_end)}</time>
          </span>}
      </div>
      <div className="row row-start">{children}</div>
    </li>
  );
}

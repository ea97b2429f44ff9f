import type { AdminListing } from "@contract/admin";
import { PRICE_CHECK } from "@contract/owner-rules";
import { formatRent } from "../../../lib/listings-api";

/**
 * The price check on every review (docs/decisions/015): the rent against the median of similar approved
 * listings (same university and unit type), flagged when far below it, and the rent staff last
 * approved when the owner has cut it since.
 */
export function PriceCheck({ listing, asNotice = false }: { listing: AdminListing; asNotice?: boolean }) {
  const check = listing.price_check ?? (listing.rent_check_median != null ? { comparables: PRICE_CHECK.minComparables, median: listing.rent_check_median, far_below: true, approved_rent: null } : null);
  if (!check) return null;
  const cut = check.approved_rent !== null && listing.price < check.approved_rent ? check.approved_rent : null;
  const against =
    check.median === null
      ? "No similar approved listings to compare with"
      : `Median of ${check.comparables} similar: ${formatRent(check.median)}${check.comparables < PRICE_CHECK.minComparables ? " (too few to judge)" : ""}`;
  const text = [check.far_below ? `Rent far below similar listings: median ${formatRent(check.median!)}` : `Price check: ${against}`, cut !== null ? `was ${formatRent(cut)} when approved` : null]
    .filter(Boolean)
    .join(" · ");
  const flagged = check.far_below || cut !== null;
  if (asNotice) {
    return (
      <p className={`panel notice ${flagged ? "notice-rejected rent-check-flag" : ""}`} role="note">
        {text}
      </p>
    );
  }
  return <span className={flagged ? "rent-check-flag" : "muted"}>{text}</span>;
}

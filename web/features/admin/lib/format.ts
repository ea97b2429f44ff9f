import type { AdminListing } from "@contract/admin";
import { formatDistance } from "@contract/constants";

/**
 * Every staff-panel timestamp (joined, created, submitted, promoted until, feedback, audit) in one
 * format: New York time, 12-hour, with the zone named so staff elsewhere are not misled (spec).
 */
const STAFF_TIME = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
  timeZoneName: "short",
});

/** An ISO timestamp as staff read it, e.g. "Jan 1, 2026, 7:00 PM EST". */
export const formatStaffTime = (iso: string) => STAFF_TIME.format(new Date(iso));

/** A listing's review state in words. */
export const REVIEW_STATUS_LABELS: Record<AdminListing["verification_status"], string> = {
  pending: "Pending review",
  approved: "Approved",
  rejected: "Rejected",
};

/** The owner's own state in words. */
export const LISTING_STATUS_LABELS: Record<AdminListing["status"], string> = { available: "Available", taken: "Taken", hidden: "Hidden by owner", paused: "Paused: availability not confirmed" };

/**
 * The stored distance to campus, for staff to judge against the address (decision 019): "1.2 mi to
 * UF", "No location" without coordinates, or why a placed listing has none.
 */
export function distanceText(listing: Pick<AdminListing, "distance_miles" | "university_abbreviation" | "latitude">): string {
  const distance = formatDistance(listing.distance_miles, listing.university_abbreviation);
  if (distance) return distance;
  return typeof listing.latitude !== "number" ? "No location" : `No distance: ${listing.university_abbreviation}'s campus has no coordinates`;
}

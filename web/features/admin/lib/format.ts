import type { AdminListing } from "@contract/admin";

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

import type { AdminListing } from "@contract/admin";
import { formatDistance } from "@contract/constants";

/** The viewer's own time zone (IANA name, e.g. "Europe/Paris"), as the rest of the site shows times. */
export const viewerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

const formats = new Map<string, Intl.DateTimeFormat>();
function staffFormat(timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", hour12: true, timeZoneName: "short" });
    formats.set(timeZone, format);
  }
  return format;
}

/**
 * Every staff-panel timestamp (joined, created, submitted, promoted until, feedback, audit) in one
 * format: the viewer's time zone (like the rest of the site), 12-hour, with the zone named, e.g.
 * "Jan 1, 2026, 7:00 PM EST" (the panel also says which zone it uses).
 */
export const formatStaffTime = (iso: string, timeZone = viewerTimeZone()) => staffFormat(timeZone).format(new Date(iso));

/** The line that says which zone the panel's times are in: "Times in your time zone (Europe/Paris)". */
export const staffTimeZoneNote = (timeZone = viewerTimeZone()) => `Times in your time zone (${timeZone})`;

/**
 * The y-axis of a count chart: a round top at or above the largest value (at least 1) and its
 * ticks from 0, e.g. 1 → [0, 1], 3 → [0, 1, 2, 3], 7 → [0, 2, 4, 6, 8], 180 → [0, 50, 100, 150, 200].
 */
export function countAxis(largest: number): { max: number; ticks: number[] } {
  const top = Math.max(1, Math.ceil(largest));
  const raw = top / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw && Number.isInteger(s)) ?? 10 * magnitude);
  const max = Math.ceil(top / step) * step;
  return { max, ticks: Array.from({ length: max / step + 1 }, (_, i) => i * step) };
}

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

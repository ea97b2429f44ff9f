/**
 * Business constants (docs/product-rules.md "Timings and sizes"), in one place for the worker and
 * the SPA. The SPA may import anything in worker/contract/; nothing else of the worker. What people
 * type and upload is limited in limits.ts, the lease terms' usual dates are in forms.ts, what the lazy
 * pages tell people about waiting in waits.ts, the rooms' names in parties.ts: the home page loads
 * this module whole, and none of those is on it (docs/decisions/023).
 */
export const API_PREFIX = "/api/v1";

export const PAGE_SIZES = {
  browseServer: 40,
  browseServerMax: 100,
  browseDisplay: 12,
  browseDisplayMobile: 8,
  favorites: 20,
  /** GET favorites pages (the SPA walks them for the hearts' state). */
  favoritesServerMax: 100,
  conversations: 20,
  messages: 50,
} as const;

export const TIMINGS = {
  emailCodeTtlMs: 15 * 60 * 1000,
  emailCodeResendMs: 60 * 1000,
  /** Wrong tries from one client address at the live codes of one email and purpose. */
  emailCodeMaxTries: 5,
  /** Codes of any purpose mailed to one email at the request of one client address in 24 hours. */
  emailCodesPerDayPerAddress: 5,
  /** Codes of any purpose mailed to one email in 24 hours, whoever asks (the inbox-flood ceiling). */
  emailCodesPerDay: 30,
  profileRetryMs: 1000,
  verificationPopupMs: 3000,
  toastDefaultMs: 2000,
  feedbackToastMs: 3000,
  emailValidityPollMs: 2000,
  unreadPollMs: 30_000,
  idleMs: 300_000,
  d1BookmarkMs: 120_000, // the SPA sends its last write's D1 bookmark this long (> edge cache 30 s + 60 s; decisions/016)
} as const;

/**
 * Geocoding spends a paid API (decision 019): only ID-verified users call it, within these caps per
 * UTC day (429 past them; the address stays free text). Sizes and prices: decisions 019 and 032.
 */
export const GEOCODING = {
  /** Suggestion and place calls of one user a day: about six addresses typed from scratch. */
  callsPerUserPerDay: 100,
  /**
   * Suggestion and place calls of one university's accounts together a day (a fifth of everyone's): about
   * 50 addresses typed at one campus, so a campus (or accounts claiming it) cannot spend the others'.
   */
  callsPerUniversityPerDay: 1_000,
  /** Suggestion and place calls of everyone together a day: the worst day's bill stays near $25. */
  callsPerDay: 5_000,
  /** How long a place id handed out with a suggestion may be resolved (one address-typing session). */
  placeIdTtlMs: 30 * 60 * 1000,
  /** Google's terms let coordinates be cached at most 30 days. */
  placeCacheMs: 30 * 86_400_000,
} as const;

/**
 * Agreement drafts (GET deals/{id}/agreement.pdf before both signed) are rendered on every request, a few
 * hundred ms of CPU each: a party may download this many an hour (429 past it; decision 032). The signed
 * PDF is made once and stored, so it is not counted, nor are staff.
 */
export const AGREEMENT_DRAFTS = { perUserPerHour: 10 } as const;

/**
 * The longest byte range of the basemap archive one request gets (decision 024): a longer one is
 * answered with its first MAP_RANGE_MAX_BYTES (206, Content-Range says which). PMTiles readers ask for
 * the 16 KB header, then directories and tiles, each well under it; an archive whose tiles or leaf
 * directories are bigger needs a bigger value. It bounds what one request streams and caches.
 */
export const MAP_RANGE_MAX_BYTES = 1_048_576;

/** A promotion started by staff (no payment) runs this many days. */
export const STAFF_PROMOTION_DAYS = 7;

export const MOBILE_BREAKPOINT_PX = 768;
export const DEV_CONSOLE_LINES = 50;
export const UNREAD_BADGE_CAP = 99;

export const UNIT_TYPES = [
  "studio",
  "1x1",
  "1x2",
  "2x1",
  "2x2",
  "3x1",
  "3x2",
  "3x3",
  "4x2",
  "4x3",
  "4x4",
  "other",
] as const;
export const LEASE_TERMS = ["fall", "spring", "summer"] as const;
export const GENDER_PREFERENCES = ["no_preference", "male_preferred", "female_preferred"] as const;
export const LISTING_STATUSES = ["available", "taken", "hidden"] as const;
/** Every status a listing may have: the owner's own, plus "paused", which only the freshness check sets. */
export type ListingStatus = (typeof LISTING_STATUSES)[number] | "paused";
/** What the listings table may hold in `status` (db/schema types the column with it). */
export const STORED_LISTING_STATUSES = [...LISTING_STATUSES, "paused"] as const satisfies readonly ListingStatus[];
export const LISTING_REVIEW_STATUSES = ["pending", "approved", "rejected"] as const;
/** Staff's own switch on a listing, which the owner's status cannot undo ("suspended": its owner is). */
export const MODERATION_STATUSES = ["visible", "hidden", "suspended"] as const;
export const ID_VERIFICATION_STATUSES = ["unverified", "pending", "approved", "verified", "rejected"] as const;
export const EMAIL_VERIFICATION_STATUSES = ["unverified", "verified"] as const;
/** An identity document's review. */
export const VERIFICATION_REQUEST_STATUSES = ["pending", "approved", "rejected"] as const;

export type UnitType = (typeof UNIT_TYPES)[number];
export type LeaseTerm = (typeof LEASE_TERMS)[number];
export type GenderPreference = (typeof GENDER_PREFERENCES)[number];
export type IdVerificationStatus = (typeof ID_VERIFICATION_STATUSES)[number];

/**
 * "Availability confirmed today / 1 day ago / N days ago" (whole days since the confirmation), or null.
 * Here, not in contract/freshness.ts, because the home page's cards use it and this module is zod-free.
 */
export function availabilityConfirmedText(confirmedAt: string | null | undefined, now: number = Date.now()): string | null {
  if (!confirmedAt) return null;
  const at = Date.parse(confirmedAt);
  if (Number.isNaN(at)) return null;
  const days = Math.max(0, Math.floor((now - at) / 86_400_000));
  if (days === 0) return "Availability confirmed today";
  return days === 1 ? "Availability confirmed 1 day ago" : `Availability confirmed ${days} days ago`;
}

/** A calendar date as the API stores it: `YYYY-MM-DD`. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written `YYYY-MM-DD` (not 2026-02-30). */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * Distance to campus (docs/decisions/019): the "within N miles" filter's range and the browse page's choices.
 * Distances are stored rounded to 0.1 mile, so "within 2" includes a listing 2.0 miles away.
 */
export const DISTANCE = {
  withinMinMiles: 0.5,
  withinMaxMiles: 50,
  withinOptions: [1, 2, 5, 10],
} as const;

/** The within filter's value from a URL (`within=2`): a number in range, or null (anything else filters nothing). */
export function withinMilesOf(value: string | null | undefined): number | null {
  if (!value || !/^\d+(\.\d+)?$/.test(value)) return null;
  const miles = Number(value);
  return miles >= DISTANCE.withinMinMiles && miles <= DISTANCE.withinMaxMiles ? miles : null;
}

/**
 * A listing's distance for people: "1.2 mi to UF" (one decimal). Null when the distance is unknown
 * (no coordinates on either side): nothing is shown and nothing is guessed.
 */
export function formatDistance(miles: number | null | undefined, abbreviation: string): string | null {
  if (miles === null || miles === undefined || !Number.isFinite(miles)) return null;
  return `${miles.toFixed(1)} mi to ${abbreviation}`;
}

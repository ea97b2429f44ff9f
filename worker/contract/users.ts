import type { ReviewSummary } from "./reviews";
import { visibleText, z } from "./zod";
import { type IdVerificationStatus } from "./constants";
import { type ResponseTime } from "./waits";
import { LIMITS } from "./limits";

/** One kind's channels (docs/decisions/027). */
export interface ChannelSettings {
  push: boolean;
  email: boolean;
}

/** "HH:MM" to "HH:MM" in an IANA time zone; pushes wait and one summary follows. */
export interface QuietHours {
  start: string;
  end: string;
  time_zone: string;
}

export const NOTIFICATION_KINDS = ["messages", "deals", "saved_searches", "reviews"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type NotificationSettings = { [K in NotificationKind]: ChannelSettings } & {
  quiet_hours: QuietHours | null;
  /** The older booleans: each is the `email` of its kind (both review flags are `reviews.email`). */
  email_on_message: boolean;
  email_on_listing_review: boolean;
  email_on_verification_review: boolean;
  /** Saved-search alerts (docs/decisions/020). */
  email_on_saved_search: boolean;
};

/** A user as its owner (and admins) see it. Never a password hash. */
export interface PrivateUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  university_id: number | null;
  university: string | null;
  avatar_url: string | null;
  created_at: string;
  is_verified: boolean;
  email_verification_status: "unverified" | "verified";
  id_verification_status: IdVerificationStatus;
  preferred_university_id: number | null;
  preferred_term: string | null;
  notification_settings: NotificationSettings;
  /** The confirmed school email's domain ("ufl.edu"), null when none or confirmed over a year ago (docs/decisions/028). */
  school_email_domain: string | null;
  /** The owner's own confirmed school address (never public), kept after the badge lapses so they can reconfirm it. */
  school_email: string | null;
  school_email_verified_at: string | null;
}

/** What anyone may see of a user (GET users/{id}): no email, no phone. */
export interface PublicUser {
  id: string;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
  university: string | null;
  created_at: string;
  id_verified: boolean;
  /** The confirmed school email's domain ("ufl.edu"); null when none or confirmed over a year ago. Never the address. */
  school_email_domain: string | null;
  /** How fast they usually answer a first message (last 30 days, at least 3 replied conversations), or null. */
  response_time: ResponseTime | null;
  /** Their visible reviews as a lister, and as a renter (docs/decisions/040); "New" on screens below 3. */
  review_summary: ReviewSummary;
  renter_review_summary: ReviewSummary;
}

// The buckets' words live with the zod-free constants (the listing page's first load imports them).
export { RESPONSE_TIME_TEXT, RESPONSE_TIME_WINDOW_DAYS, type ResponseTime } from "./waits";

/** Conversations the median needs (fewer: no verdict); the window they are taken from is in `waits.ts`. */
export const RESPONSE_TIME_MIN_CONVERSATIONS = 3;

/** The bucket of a median first-reply time: <= 1 h, <= 6 h, <= 24 h, else none. */
export function responseTimeBucket(medianMs: number | null): ResponseTime | null {
  if (medianMs === null || !Number.isFinite(medianMs) || medianMs < 0) return null;
  const HOUR = 3_600_000;
  if (medianMs <= HOUR) return "hour";
  if (medianMs <= 6 * HOUR) return "hours";
  if (medianMs <= 24 * HOUR) return "day";
  return null;
}

/** The median of some numbers (the mean of the two middle ones for an even count), or null for none. */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Preferences {
  preferred_university_id: number | null;
  preferred_term: string | null;
}

/** GET/PATCH users/profile. */
export interface ProfileResponse {
  data: PrivateUser;
}

/** GET users/{id}. */
export interface PublicUserResponse {
  data: PublicUser;
}

/** GET/PATCH users/preferences. */
export interface PreferencesResponse {
  data: Preferences;
}

/** GET/PATCH users/notifications. */
export interface NotificationSettingsResponse {
  data: NotificationSettings;
}

/** POST users/avatar-base64. */
export interface AvatarResponse {
  avatar_url: string | null;
}

/**
 * Something in a name that a mail client or chat would turn into a link: a scheme ("https://"),
 * "www.", or a dotted host name ("evil.example", "bit.ly", "a@b.co"). Full-width and ideographic
 * dots count as dots (IDNA treats them so). "J.R.", "St. John" and "Mary-Ann" are not addresses.
 */
export function containsWebAddress(text: string): boolean {
  const normalized = text.normalize("NFKC").replace(/[\u3002\uff61\uff0e]/g, ".");
  return /[a-z][a-z0-9+.-]*:\/\/|\bwww\./i.test(normalized) || /[\p{L}\p{N}-]{1,63}\.(?:[\p{L}\p{N}-]{1,63}\.)*[\p{L}]{2,63}(?![\p{L}\p{N}])/u.test(normalized);
}

export const NAME_MESSAGES = { noWebAddress: "Names can't contain links or web addresses" } as const;

/**
 * A first or last name as a person types it (sign-up, profile): visible text, at most `LIMITS.nameMax`,
 * and never a link: names are shown to other students and go into emails we send.
 */
export const personName = (label: string) =>
  visibleText()
    .min(1, `${label} is required`)
    .max(LIMITS.nameMax, `${label} must be at most ${LIMITS.nameMax} characters`)
    .refine((value) => !containsWebAddress(value), NAME_MESSAGES.noWebAddress);

/** A school email badge lasts a year from its code (alumni keep their addresses), then asks to be reconfirmed. */
export const SCHOOL_EMAIL_VALID_DAYS = 365;

/** The badge's domain while its confirmation is under a year old, else null. */
export function liveSchoolEmailDomain(domain: string | null, verifiedAt: string | null, now = Date.now()): string | null {
  if (!domain || !verifiedAt) return null;
  return now - Date.parse(verifiedAt) < SCHOOL_EMAIL_VALID_DAYS * 86_400_000 ? domain : null;
}

/** POST users/school-email. */
export const schoolEmailSchema = z.object({ email: z.string().trim().toLowerCase().max(254).pipe(z.email("Enter a valid email address")) });

/** POST users/school-email/verify. */
export const schoolEmailCodeSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code") });

export interface SchoolEmailVerifiedResponse {
  data: { domain: string; verified_at: string };
}

import { visibleText } from "./zod";
import { type IdVerificationStatus, type ResponseTime } from "./constants";
import { LIMITS } from "./limits";

export interface NotificationSettings {
  email_on_message: boolean;
  email_on_listing_review: boolean;
  email_on_verification_review: boolean;
  /** Saved-search alerts (docs/decisions/020). */
  email_on_saved_search: boolean;
}

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
  /** How fast they usually answer a first message (last 30 days, at least 3 replied conversations), or null. */
  response_time: ResponseTime | null;
}

// The buckets' words live with the zod-free constants (the listing page's first load imports them).
export { RESPONSE_TIME_TEXT, type ResponseTime } from "./constants";

/** Conversations the median needs (fewer: no verdict), and the window they are taken from. */
export const RESPONSE_TIME_MIN_CONVERSATIONS = 3;
export const RESPONSE_TIME_WINDOW_DAYS = 30;

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

/**
 * Saved searches with alerts (docs/decisions/020): a student's browse filters, stored as the browse URL's query
 * string, and how new matching listings are emailed. Not imported by the home page (the save dialog
 * is a chunk of its own), so zod is fine here.
 */
import { FILTER_KEYS } from "./browse-url";
import { visibleText, z } from "./zod";

export const SAVED_SEARCH = {
  /** Saved searches per student. */
  maxPerUser: 20,
  nameMaxLength: 60,
  /** At most one alert email per search in this long (a day). */
  alertEveryMs: 86_400_000,
  /** A daily search's digest goes out when its oldest waiting match is this old (docs/decisions/020). */
  digestAfterMs: 86_400_000,
  /** Listings spelled out in one email; more are counted ("and 3 more"). */
  listingsPerEmail: 10,
  /** How long an emailed unsubscribe link works. */
  unsubscribeTokenTtlDays: 365,
  /** The unsubscribe page's Undo resumes a pause made by the link for this long (an hour). */
  undoWithinMs: 3_600_000,
  /** A failed alert email is tried again after this long (an hour), not on the next cron run. */
  retryFailedAfterMs: 3_600_000,
} as const;

export const ALERT_FREQUENCIES = ["instant", "daily"] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];

/**
 * The canonical form of a browse query string: only browse filter keys (FILTER_KEYS, so new filters
 * come along by themselves), non-empty values, keys sorted. Two saves of the same filters compare equal.
 */
export function canonicalSavedQuery(query: string): string {
  const given = new URLSearchParams(query.trim().replace(/^\?/, ""));
  const keys = (FILTER_KEYS as readonly string[]).filter((k) => (given.get(k) ?? "").trim() !== "").sort();
  const out = new URLSearchParams();
  for (const key of keys) out.set(key, given.get(key)!.trim());
  return out.toString();
}

// Line breaks are kept (multiline) only so the regex can refuse them with its own words.
const name = visibleText({ multiline: true, error: "Name is required" })
  .min(1, "Name is required")
  .max(SAVED_SEARCH.nameMaxLength, `Name must be at most ${SAVED_SEARCH.nameMaxLength} characters`)
  // It becomes an email subject: one line.
  .regex(/^[^\p{Cc}]*$/u, "Name must be one line of text");
const frequency = z.enum(ALERT_FREQUENCIES, "alert_frequency must be instant or daily");

/** POST saved-searches. */
export const savedSearchCreateSchema = z.object({
  name,
  /** The browse URL's query string (`university=1&term=fall`, a leading `?` allowed). */
  query: z.string("query is required").max(1000, "query is too long"),
  alert_frequency: frequency.default("instant"),
});
export type SavedSearchCreate = z.infer<typeof savedSearchCreateSchema>;

/** PATCH saved-searches/{id}: rename, change how alerts go out, pause or resume them. */
export const savedSearchPatchSchema = z
  .object({ name: name.optional(), alert_frequency: frequency.optional(), paused: z.boolean("paused must be true or false").optional() })
  .refine((v) => v.name !== undefined || v.alert_frequency !== undefined || v.paused !== undefined, "Nothing to change");
export type SavedSearchPatch = z.infer<typeof savedSearchPatchSchema>;

/** POST saved-searches/unsubscribe and /resubscribe: the signed token of an alert email's link. */
export const savedSearchTokenSchema = z.object({ token: z.string("The link is missing its token").trim().min(1, "The link is missing its token").max(2000, "The link is not valid") });

/** The refusal of a tampered or expired unsubscribe link. */
export const UNSUBSCRIBE_LINK_INVALID = "This unsubscribe link is not valid. Sign in and pause the alerts from your profile.";
export const SAVED_SEARCH_GONE = "This saved search no longer exists, so it sends no alerts.";
/** Undo refused: the alerts were paused in the profile (the link can only undo its own pause). */
export const UNDO_NOT_LINK_PAUSE = "These alerts were paused in your profile; resume them there.";
/** Undo refused: the link paused them more than an hour ago. */
export const UNDO_TOO_LATE = "Undo works for an hour after stopping the alerts. Sign in and resume them from your profile.";

/** A saved search as its owner sees it. */
export interface SavedSearch {
  id: string;
  name: string;
  /** Canonical browse query string: the search opens at `/?{query}`. */
  query: string;
  alert_frequency: AlertFrequency;
  paused: boolean;
  paused_at: string | null;
  last_alert_at: string | null;
  created_at: string;
  updated_at: string | null;
}

/** GET saved-searches (newest first). */
export interface SavedSearchesResponse {
  data: SavedSearch[];
}

/** POST saved-searches, PATCH saved-searches/{id}. */
export interface SavedSearchResponse {
  data: SavedSearch;
}

/** POST saved-searches/unsubscribe and /resubscribe (no sign-in): the search's name and its state now. */
export interface SavedSearchUnsubscribeResponse {
  name: string;
  paused: boolean;
}

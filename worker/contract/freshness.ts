/**
 * Fresh listings (docs/decisions/015): the emailed "Is {title} still available?" links, the owner's Confirm
 * availability (how a confirmation reads on cards is in constants.ts, which stays zod-free).
 */
import { z } from "./zod";
import type { ListingStatus } from "./constants";

/** What an emailed link says: the place is still available, or it is taken. */
export const AVAILABILITY_ACTIONS = ["available", "taken"] as const;
export type AvailabilityAction = (typeof AVAILABILITY_ACTIONS)[number];

/** POST availability/confirm and POST availability/check: the signed token of an emailed link (in the body, never a URL). */
export const availabilityTokenSchema = z.object({ token: z.string().trim().min(1, "The link is missing its token").max(2000, "The link is not valid") });

/** The refusal of an expired, tampered or outdated link (the page adds a link to sign in). */
export const AVAILABILITY_LINK_INVALID = "This link has expired or is not valid.";

/** What an emailed link is about: POST availability/check (changes nothing) and POST availability/confirm (applies it). */
export interface AvailabilityLinkResponse {
  action: AvailabilityAction;
  listing_id: string;
  title: string;
  /** The listing's status now (after the POST: after the action). */
  status: ListingStatus;
  /** True on the POST answer: the action was applied (or already had been). */
  applied: boolean;
}


/** POST dev/housekeeping (development only): what one run of the cron did. */
export interface DevHousekeepingResponse {
  emailCodes: number;
  refreshTokens: number;
  expiredPromotions: number;
  unsubmittedDocuments: number;
  /** Evidence photos no deal cited within a day of their upload, deleted (docs/decisions/032). */
  uncitedEvidence: number;
  availabilityAsked: number;
  listingsPaused: number;
  /** Saved-search alert emails sent (docs/decisions/020). */
  savedSearchAlerts: number;
  /** Listings whose public address the backfill stored (rows saved before it existed; decision 024). */
  publicAddresses: number;
}

/** POST dev/listings/{id}/age-availability (development only). */
export interface DevAgeAvailabilityResponse {
  availability_confirmed_at: string;
}

/**
 * Payouts (api-contract "Deals"; docs/decisions/030): a lister is paid through a Stripe Connect account.
 * The answers of `POST payouts/onboarding` and `GET payouts/status`, where onboarding comes back to, and
 * the words the profile's Payouts section shows.
 */
import { DEAL_WORDS, type PayoutStatus } from "./deals";

export interface PayoutStatusData {
  status: PayoutStatus;
  /** Stripe's `requirements.currently_due` of the account (what onboarding still asks for); empty when none. */
  requirements_due: string[];
}
export interface PayoutStatusResponse {
  data: PayoutStatusData;
}
export interface PayoutOnboardingResponse {
  data: { url: string };
}

/** Where Stripe's onboarding sends the lister back (return and refresh): the profile, which asks for a refreshed status. */
export const PAYOUTS_RETURN_PATH = "/profile?payouts=return#payouts";
/** Where the development onboarding page lands after "Complete onboarding". */
export const PAYOUTS_READY_PATH = "/profile?payouts=ready#payouts";
/** The profile section's id (the return URLs' fragment). */
export const PAYOUTS_SECTION_ID = "payouts";

export const PAYOUT_TEXTS = {
  heading: "Payouts",
  status: {
    none: "Payouts: set up",
    pending: "Payouts: in review",
    ready: "Payouts: ready",
  } satisfies Record<PayoutStatus, string>,
  why: `Listers are paid through CampusNest: you get the first month's rent ${DEAL_WORDS.releaseHours} hours after move-in, sent to this account by Stripe.`,
  pendingDetail: "Stripe is checking your details, or still needs some. Continue to see what is missing.",
  readyDetail: "Your account can receive the rent of your deals.",
  start: "Set up payouts",
  continue: "Continue setup",
  update: "Update payout details",
  loading: "Loading payouts…",
  error: "Could not load your payouts. Please try again.",
  retry: "Try again",
  startFailed: "Could not open Stripe's setup. Please try again.",
  opening: "Opening Stripe…",
} as const;

/**
 * Deals (api-contract "Deals"): a renter, a listing and one stay, from the request to the signed
 * sublease (and, later, the payment held until move-in). Types only: no zod, so the pages that read a
 * deal load nothing heavier than their own code.
 */
import { isIsoDate } from "./constants";
import type { Pagination } from "./listings";

export const DEAL_STATUSES = [
  "requested",
  "accepted",
  "signed",
  "paid",
  "moved_in",
  "released",
  "declined",
  "cancelled",
  "expired",
  "refunded",
  "disputed",
] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

/** The states a deal ends in: nothing more can happen to it. */
export const ENDED_DEAL_STATUSES = ["declined", "cancelled", "expired", "refunded", "released"] as const satisfies readonly DealStatus[];

export type LandlordConsentStatus = "none" | "not_needed" | "requested" | "granted" | "declined";
export type DealPaymentStatus = "none" | "pending" | "held" | "released" | "refunded" | "disputed" | "release_failed";

export interface DealParty {
  id: string;
  first_name: string;
  last_name: string;
}

export interface DealAgreementSummary {
  version: number;
  sha256: string;
  renter_signed_at: string | null;
  lister_signed_at: string | null;
}

export interface DealPayment {
  status: DealPaymentStatus;
  rent_cents: number;
  fee_cents: number;
  total_cents: number;
  currency: string;
  held_until: string | null;
  released_at: string | null;
  refunded_cents: number;
}

export interface Deal {
  id: string;
  listing_id: string;
  listing_title: string;
  renter: DealParty;
  lister: DealParty;
  /** `YYYY-MM-DD`, in the listing's university's time zone. */
  move_in: string;
  move_out: string;
  monthly_rent: number;
  /** The full address from `accepted` until the deal ends unpaid; the public form otherwise. */
  address: string;
  status: DealStatus;
  status_reason: string | null;
  created_at: string;
  updated_at: string;
  agreement: DealAgreementSummary | null;
  landlord_consent: { status: LandlordConsentStatus };
  payment: DealPayment;
}

/** POST deals. */
export interface CreateDealInput {
  listing_id: string;
  move_in: string;
  move_out: string;
}
/** POST deals (201 new, 200 the same renter's open deal), GET deals/{id}, every transition. */
export interface DealResponse {
  data: Deal;
}
/** GET deals, GET admin/deals: newest first. */
export interface DealsResponse {
  data: Deal[];
  pagination: Pagination;
}

export interface AgreementEvent {
  type: string;
  actor_id: string | null;
  at: string;
  /** Staff views carry where it came from (the parties never see each other's). */
  ip?: string | null;
  user_agent?: string | null;
  sha256?: string | null;
}
/** GET deals/{id}/agreement. */
export interface AgreementResponse {
  data: { version: number; text: string; sha256: string; events: AgreementEvent[] };
}

/** POST deals/{id}/sign. */
export interface SignDealInput {
  typed_name: string;
  intent: true;
  esign_consent: true;
  code: string;
}

/** POST deals/{id}/landlord-consent. */
export type LandlordConsentInput = { landlord_name: string; landlord_email: string } | { not_needed: true };

/** GET landlord-consent/{token}: what the landlord is asked to consent to (no account). */
export interface LandlordConsentRequest {
  status: "requested" | "granted" | "declined";
  /** The lister (the tenant on the lease) and the subtenant the lister proposes. */
  tenant_name: string;
  subtenant_name: string;
  /** The sublet unit (the full address). */
  address: string;
  move_in: string;
  move_out: string;
  monthly_rent: number;
  reason: string | null;
  /** Where the tenant can be reached during the sublease, when given. */
  tenant_address_during_sublease: string | null;
  expires_at: string;
}
export interface LandlordConsentResponse {
  data: LandlordConsentRequest;
}
/** POST landlord-consent/{token}. */
export interface LandlordDecisionInput {
  decision: "granted" | "declined";
  reason?: string;
}

/** A typed legal name is compared ignoring case and repeated spaces (the server's rule). */
export const sameLegalName = (a: string, b: string) => {
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  return norm(a) === norm(b);
};

/** The emailed signing code. */
export const SIGN_CODE_LENGTH = 6;
/** How long an unanswered request stays open. */
export const DEAL_REQUEST_TTL_HOURS = 72;

/** A listing without dates can be requested for at most this many months from the request. */
export const UNDATED_STAY_MAX_MONTHS = 12;

const addMonths = (date: string, months: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/**
 * What is wrong with a requested stay, in words, or null: both dates, in order, from `today` (the
 * listing's university's date) on, and within the listing's dates (or 12 months for a listing without
 * them). The server checks the same and has the last word.
 */
export function stayProblem(
  stay: { move_in: string; move_out: string },
  listing: { available_from: string | null; available_to: string | null },
  today: string,
): string | null {
  const { move_in: from, move_out: to } = stay;
  if (!from || !to) return "Please choose both dates of your stay.";
  if (!isIsoDate(from) || !isIsoDate(to)) return "Please choose real dates.";
  if (from >= to) return "“Move out” must be after “Move in”.";
  if (from < today) return "The stay cannot start in the past.";
  if (listing.available_from && from < listing.available_from) return "The stay must start on or after the listing's first day.";
  if (listing.available_to && to > listing.available_to) return "The stay must end on or before the listing's last day.";
  if (!listing.available_to && to > addMonths(today, UNDATED_STAY_MAX_MONTHS)) return `The stay must end within ${UNDATED_STAY_MAX_MONTHS} months.`;
  return null;
}


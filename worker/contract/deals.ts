/**
 * Deals (api-contract "Deals"; docs/decisions/026): a renter takes a listing for one stay. The states,
 * the inputs, the Deal object and the pure rules both sides read (dates in the university's time zone,
 * the first payment, the request's summary line, how a typed name is compared).
 */
import { z } from "./zod";
import { isIsoDate } from "./constants";
import { formatDate, formatStay } from "./dates";
import { staffPageFields } from "./staff-lists";
import { EVIDENCE_MESSAGES, EVIDENCE_URL } from "./evidence";

export const DEAL_STATUSES = ["requested", "accepted", "signed", "paid", "moved_in", "released", "declined", "cancelled", "expired", "refunded", "disputed"] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

// The named groups of states (open, reserving, taken, held...) are the process's: contract/deal-process.ts.

/**
 * What a caller may do to a deal now (the Deal's `actions`): a route's last segment with `-` written `_`
 * (`resolve` is staff's; `review_reply` is `reviews/{id}/reply`; docs/decisions/040 for the last four).
 */
export const DEAL_ACTIONS = ["accept", "decline", "cancel", "sign", "landlord_consent", "checkout", "moved_in", "problem", "statement", "cancellation_refund", "resolve", "review", "review_reply", "condition_report", "condition_report_comment"] as const;
export type DealAction = (typeof DEAL_ACTIONS)[number];

export const LANDLORD_CONSENT_STATUSES = ["none", "not_needed", "requested", "granted", "declined"] as const;
export type LandlordConsentStatus = (typeof LANDLORD_CONSENT_STATUSES)[number];
/** Signing (and, later, paying) waits for one of these. */
export const consentSettled = (status: string) => status === "granted" || status === "not_needed";

export const PAYMENT_STATUSES = ["none", "pending", "held", "released", "refunded", "disputed", "release_failed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A lister's payout account (`GET payouts/status`): none before onboarding, pending until Stripe can transfer to it. */
export const PAYOUT_STATUSES = ["none", "pending", "ready"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Why a deal ended, where the system or a rule ended it (status_reason); a person's own reason is free text. */
export const DEAL_REASONS = {
  requestExpired: "request_expired",
  notPaidByMoveIn: "not_paid_by_move_in",
  stayTaken: "stay_taken",
  listingDeleted: "listing_deleted",
  accountDeleted: "account_deleted",
  partySuspended: "party_suspended",
  partyBlocked: "party_blocked",
  landlordDeclined: "landlord_declined",
} as const;

export const DEAL_TIMING = {
  /** A request nobody answered expires after this. */
  requestTtlMs: 72 * 3_600_000,
  /** A listing without dates: a stay at most this many months from the request. */
  undatedMaxMonths: 12,
  signCodeGapMs: 60_000,
  signCodeTtlMs: 15 * 60_000,
  signCodeTries: 5,
  consentLinkTtlMs: 14 * 24 * 3_600_000,
  consentEmailsPerDay: 3,
  /** Landlord consent emails one lister may send a day, over all their deals. */
  consentEmailsPerListerPerDay: 10,
  /** A landlord who declined a sublease of a listing cannot be bypassed on it for this long. */
  landlordDeclineHoldsMs: 180 * 86_400_000,
  /** Open requests (`requested`) one renter may hold at once. */
  openRequestsPerRenter: 5,
  /** A lister is emailed at most one request per renter and listing this often; later ones wait for the daily summary. */
  requestEmailGapMs: 86_400_000,
  /** Held money is released this long after move-in's midnight, unless the renter taps "I have the keys" first. */
  releaseAfterMoveInMs: 48 * 3_600_000,
  /** Whatever the keys say, money is held at least this long after payment (a stolen card is not an instant payout). */
  minimumHoldMs: 24 * 3_600_000,
  /** A renter who cancels a paid deal at least this many days before move-in gets the rent back in full (the fee is kept). */
  renterFullRefundDays: 14,
  /** Later than that, the lister decides how much rent goes back within this long; silence refunds the rent in full. */
  listerDecisionMs: 72 * 3_600_000,
} as const;

/** What the screens say of those timings (one source: the SPA never retypes a number). */
export const DEAL_WORDS = {
  requestHours: DEAL_TIMING.requestTtlMs / 3_600_000,
  signCodeMinutes: DEAL_TIMING.signCodeTtlMs / 60_000,
  releaseHours: DEAL_TIMING.releaseAfterMoveInMs / 3_600_000,
  minimumHoldHours: DEAL_TIMING.minimumHoldMs / 3_600_000,
  renterFullRefundDays: DEAL_TIMING.renterFullRefundDays,
  listerDecisionHours: DEAL_TIMING.listerDecisionMs / 3_600_000,
} as const;

/**
 * The labels of an agreement's two hashes (docs/decisions/044), the same words in the PDF, the "signed"
 * email, the deal page and staff's deal: the text both signed, and the PDF file made from it.
 */
export const HASH_LABELS = { text: "Agreement text SHA-256", file: "PDF file SHA-256" } as const;

/** A decline, cancel or landlord's reason: at most this many characters. */
export const DEAL_REASON_MAX = 500;

export const DEAL_MESSAGES = {
  notFound: "Deal not found",
  listingNotFound: "Listing not found",
  ownListing: "You cannot request your own listing",
  listingUnavailable: "This listing is not taking requests right now",
  datesTaken: "Those dates are already taken",
  overlapAccepted: "You have already accepted another request for overlapping dates",
  wrongState: (status: string) => `This deal is ${status.replace("_", " ")}, so that is not possible now`,
  onlyLister: "Only the lister can do that",
  onlyRenter: "Only the renter can do that",
  partyUnavailable: "The other person cannot take part in a deal right now",
  blocked: "You cannot make a deal with this person",
  suspended: "Your account is suspended",
  notVerified: "Both of you must have a verified identity before signing",
  consentNotSettled: "Signing waits for the landlord's consent (granted, or not needed)",
  consentAfterSignature: "The landlord consent cannot change after the first signature",
  alreadySigned: "You have already signed",
  nameMismatch: "The name must be your legal name as verified with your ID",
  /** The refusal naming the name on file (the signer's own), so they know what to type. */
  nameExpected: (legal: string) => `The name must be your legal name as verified with your ID: type "${legal}"`,
  intent: "Please confirm that you intend to sign",
  esignConsent: "Please agree to sign and receive records electronically",
  codeWrong: "That code is not right",
  codeMissing: "Request a signing code first",
  codeExpired: "That code has expired. Request a new one",
  codeSpent: "Too many wrong tries. Request a new code",
  codeTooSoon: "A code was sent less than a minute ago",
  agreementMissing: "The agreement is made once the lister accepts",
  pdfMissing: "No agreement document yet",
  consentLinkUnknown: "This link is not valid",
  consentLinkUsed: "This link has already been used or has expired",
  /** A reopened link says what happened to it: answered (and how, when), replaced, expired, or the deal moved on. */
  consentLinkAnswered: (decision: "granted" | "declined", on: string) =>
    `You already answered this request on ${on}: you ${decision === "granted" ? "consented to" : "declined"} the sublease. Nothing more is needed.`,
  consentLinkReplaced: "The tenant sent a newer request that replaces this link; use the link in the newest email.",
  consentLinkExpired: "This link has expired. The tenant can send a new request.",
  consentLinkClosed: "This request can no longer be answered: the sublease was already signed or has ended.",
  consentEmailsLimit: `At most ${DEAL_TIMING.consentEmailsPerDay} consent emails per deal a day`,
  consentEmailsListerLimit: `At most ${DEAL_TIMING.consentEmailsPerListerPerDay} landlord consent emails a day. Please try again tomorrow.`,
  landlordDeclined: (date: string, email: string) =>
    `The landlord (${email}) declined a sublease of this place on ${date}. For ${DEAL_TIMING.landlordDeclineHoldsMs / 86_400_000} days after that, only their consent can be asked: attesting that none is needed is not possible.`,
  openRequestsLimit: `You have ${DEAL_TIMING.openRequestsPerRenter} open requests. Wait for an answer, or cancel one, before asking for another.`,
  agreementChanged: "The agreement changed since you read it. Read the new version, then sign it.",
  codeOtherVersion: "This code was sent for another version of the agreement. Request a new code.",
  notYours: "You cannot do that on this deal",
} as const;

const isoDate = (label: string) => z.string(`${label} must be a date`).refine(isIsoDate, `${label} must be a date written YYYY-MM-DD`);

export const createDealSchema = z
  .object({
    listing_id: z.string("listing_id is required").trim().min(1, "listing_id is required").max(64),
    move_in: isoDate("move_in"),
    move_out: isoDate("move_out"),
  })
  .refine((v) => v.move_in < v.move_out, { message: "move_out must be after move_in", path: ["move_out"] });
export type CreateDealInput = z.infer<typeof createDealSchema>;

const reasonText = z.string().trim().max(DEAL_REASON_MAX, `The reason must be at most ${DEAL_REASON_MAX} characters`);
export const dealReasonSchema = z.object({ reason: reasonText.optional().nullable() }).default({});

/** What the signer read: the agreement's version and its SHA-256 (a text that is no longer current signs nothing). */
const agreementRead = {
  agreement_version: z.number("agreement_version is required: the version of the agreement you read").int("agreement_version must be a whole number").min(1, "agreement_version must be 1 or more"),
  sha256: z.string("sha256 is required: the SHA-256 of the agreement you read").trim().regex(/^[0-9a-f]{64}$/i, "sha256 must be 64 hexadecimal characters").transform((v) => v.toLowerCase()),
};
export const signCodeSchema = z.object(agreementRead);
export type SignCodeInput = z.infer<typeof signCodeSchema>;
export const signDealSchema = z.object({
  typed_name: z.string("Please type your full legal name").trim().min(1, "Please type your full legal name").max(200),
  intent: z.boolean(DEAL_MESSAGES.intent),
  esign_consent: z.boolean(DEAL_MESSAGES.esignConsent),
  code: z.string("Please enter the 6-digit code").trim().regex(/^\d{6}$/, "The code is 6 digits"),
  ...agreementRead,
});
export type SignDealInput = z.infer<typeof signDealSchema>;

export const landlordConsentSchema = z.union([
  z.object({ not_needed: z.literal(true) }),
  z.object({
    landlord_name: z.string("landlord_name is required").trim().min(1, "landlord_name is required").max(200),
    landlord_email: z.email("landlord_email must be an email address").max(254),
    /** Shown on the landlord's page (the New York RPL 226-b list): why the tenant sublets, where they will be. */
    reason: reasonText.optional().nullable(),
    tenant_address: z.string().trim().max(300).optional().nullable(),
  }),
], { error: "Send {landlord_name, landlord_email} or {not_needed: true}" });
export type LandlordConsentInput = z.infer<typeof landlordConsentSchema>;

export const landlordDecisionSchema = z.object({
  decision: z.enum(["granted", "declined"], "decision must be granted or declined"),
  reason: reasonText.optional().nullable(),
});
export type LandlordDecisionInput = z.infer<typeof landlordDecisionSchema>;

/** Why a signed deal cannot be paid yet (payment.waiting_for). */
export const DEAL_WAITING_FOR = ["lister_payouts"] as const;
/** What a renter reports while the money is held (POST deals/{id}/problem `kind`). */
export const DEAL_PROBLEM_KINDS = ["cant_get_in", "not_as_described", "other"] as const;
export type DealProblemKind = (typeof DEAL_PROBLEM_KINDS)[number];
/** Why a deal is a staff case (`surplus`: the jobs found more paid out than was paid in, docs/decisions/035). */
export const DEAL_CASE_REASONS = ["problem", "card_dispute", "suspension", "release_failed", "surplus"] as const;
export type DealCaseReason = (typeof DEAL_CASE_REASONS)[number];
/** A problem report's or a statement's text: at most this many characters, and at most this many photos. */
export const DEAL_STATEMENT_MAX = 2000;
export const DEAL_STATEMENT_PHOTOS_MAX = 6;

export const dealPartySchema = z.object({ id: z.string(), first_name: z.string(), last_name: z.string() });
const statementSchema = z.object({ author_id: z.string(), text: z.string(), photos: z.array(z.string()), created_at: z.string() });

export const dealSchema = z.object({
  id: z.string(),
  listing_id: z.string().nullable(),
  listing_title: z.string(),
  renter: dealPartySchema,
  lister: dealPartySchema,
  move_in: z.string(),
  move_out: z.string(),
  monthly_rent: z.number(),
  address: z.string(),
  status: z.enum(DEAL_STATUSES),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  agreement: z
    .object({ version: z.number(), sha256: z.string(), renter_signed_at: z.string().nullable(), lister_signed_at: z.string().nullable() })
    .nullable(),
  landlord_consent: z.object({ status: z.enum(LANDLORD_CONSENT_STATUSES) }),
  payment: z.object({
    status: z.enum(PAYMENT_STATUSES),
    rent_cents: z.number(),
    fee_cents: z.number(),
    total_cents: z.number(),
    currency: z.string(),
    held_until: z.string().nullable(),
    released_at: z.string().nullable(),
    refunded_cents: z.number(),
    /** What the lister holds now: transferred to their payout account, less any reversal. */
    transferred_cents: z.number(),
    /** When the renter's payment was applied (ISO), null before. */
    paid_at: z.string().nullable(),
    /** The payment's reference at Stripe (its payment id, as the receipt email gives it), printed on the receipt; null before payment. */
    reference: z.string().nullable(),
    /** The fee percentage snapshot taken at acceptance (shown before paying, in the agreement and the receipt). */
    fee_percent: z.number(),
    /** The renter may pay now: `signed`, the landlord consent settled, the lister's payouts `ready`. */
    payable: z.boolean(),
    /** Why a signed deal is not payable yet: the lister's payout account is not ready. */
    waiting_for: z.enum(DEAL_WAITING_FOR).nullable(),
  }),
  /** What the caller may do now, by name (contract/deal-process.ts decides). */
  actions: z.array(z.enum(DEAL_ACTIONS)),
  /** Whose step the deal waits for, and what it is, in words. */
  waiting_for: z.object({ party: z.enum(["renter", "lister", "landlord", "staff"]).nullable(), step: z.string(), detail: z.string() }),
  /** A renter cancelled a paid deal late: the lister decides the rent's refund by `decide_by` (silence: all of it). */
  cancellation: z.object({ requested_at: z.string(), decide_by: z.string() }).nullable(),
  /** The renter's report that made the deal `disputed`, and each party's statement: read by both and staff. */
  problem: z.object({ kind: z.enum(DEAL_PROBLEM_KINDS), text: z.string(), photos: z.array(z.string()), created_at: z.string(), statements: z.array(statementSchema) }).nullable(),
  /** The original lease (or its relevant pages) the lister attached (a private evidence url): both parties and staff read it. */
  lease: z.object({ url: z.string(), attached_at: z.string() }).nullable(),
  /** Why the deal is a staff case, else null. */
  case_reason: z.enum(DEAL_CASE_REASONS).nullable(),
  /** When the renter tapped "I have the keys". */
  moved_in_at: z.string().nullable(),
  /** Who decided where the money went after a late cancellation or a case, with each side's amounts and the reason both read. */
  decision: z
    .object({ by: z.enum(["lister", "staff", "deadline"]), refund_cents: z.number(), transfer_cents: z.number(), reason: z.string().nullable(), at: z.string() })
    .nullable(),
});
export type Deal = z.infer<typeof dealSchema>;

export interface DealResponse {
  data: Deal;
}
export interface AgreementEvent {
  type: string;
  actor_id: string | null;
  at: string;
}
export interface AgreementResponse {
  data: { version: number; text: string; sha256: string; events: AgreementEvent[] };
}
/** A party's statement on a disputed deal (the renter's report is the first). POST deals/{id}/statement answers one. */
export interface DealStatement {
  party: "renter" | "lister";
  author_id: string;
  text: string;
  photos: string[];
  at: string;
}
/** Staff's view of one deal: every event with its whole address and user agent, and a case's evidence. */
export interface AdminDealResponse {
  data: Deal & {
    events: (AgreementEvent & { actor_role: string; ip: string | null; user_agent: string | null; agreement_version: number | null; document_sha256: string | null; details: unknown })[];
    pdf_sha256: string | null;
    /** Both sides' statements, oldest first. */
    statements: DealStatement[];
    /** The pair's conversation, newest 200, oldest first. */
    messages: { id: string; sender_id: string; content: string; created_at: string }[];
    stripe: { payment_intent: string | null; charge: string | null; transfer: string | null; dispute: string | null };
    /** The listing's landlord declined a sublease (docs/decisions/035): for 180 days only they can consent. */
    listing_flag: { landlord_declined_at: string; landlord_email: string } | null;
  };
}
export interface CheckoutResponse {
  data: { checkout_url: string; session_id: string };
}
/** GET admin/stats `stats.deals`: deals by status and the money's totals (cents). */
export interface AdminDealStats {
  by_status: Partial<Record<DealStatus, number>>;
  held_cents: number;
  released_cents: number;
  refunded_cents: number;
  open_cases: number;
}
/** GET landlord-consent/{token}: what the landlord's page shows. */
export interface LandlordConsentPage {
  status: "requested";
  landlord_name: string;
  /** The stay: the sublease's term. */
  term: { move_in: string; move_out: string };
  /** The original tenant (the lister) and the subtenant (the renter), by their verified legal names where known. */
  tenant_name: string;
  subtenant_name: string;
  reason: string | null;
  /** Where the tenant will live during the sublease, if they said. */
  tenant_address_during_sublease: string | null;
  listing_address: string;
  monthly_rent: number;
  /** Always true: the address and the landlord's email were given by the lister, not checked by CampusNest. */
  address_given_by_lister: true;
  address_note: string;
  expires_at: string;
}

// ---------------------------------------------------------------------------------------------
// Pure rules.

/**
 * IANA time zone of each US state (two-letter code as stored on universities.state); a state with
 * two zones has the one most of its campuses use. Dates of a stay begin at midnight there.
 */
const STATE_TIME_ZONES: Record<string, string> = {
  AL: "America/Chicago", AK: "America/Anchorage", AZ: "America/Phoenix", AR: "America/Chicago", CA: "America/Los_Angeles",
  CO: "America/Denver", CT: "America/New_York", DE: "America/New_York", DC: "America/New_York", FL: "America/New_York",
  GA: "America/New_York", HI: "Pacific/Honolulu", ID: "America/Boise", IL: "America/Chicago", IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago", KS: "America/Chicago", KY: "America/New_York", LA: "America/Chicago", ME: "America/New_York",
  MD: "America/New_York", MA: "America/New_York", MI: "America/Detroit", MN: "America/Chicago", MS: "America/Chicago",
  MO: "America/Chicago", MT: "America/Denver", NE: "America/Chicago", NV: "America/Los_Angeles", NH: "America/New_York",
  NJ: "America/New_York", NM: "America/Denver", NY: "America/New_York", NC: "America/New_York", ND: "America/Chicago",
  OH: "America/New_York", OK: "America/Chicago", OR: "America/Los_Angeles", PA: "America/New_York", RI: "America/New_York",
  SC: "America/New_York", SD: "America/Chicago", TN: "America/Chicago", TX: "America/Chicago", UT: "America/Denver",
  VT: "America/New_York", VA: "America/New_York", WA: "America/Los_Angeles", WV: "America/New_York", WI: "America/Chicago",
  WY: "America/Denver", PR: "America/Puerto_Rico",
};
export const DEFAULT_TIME_ZONE = "America/New_York";
export const timeZoneOfState = (state: string | null | undefined) => STATE_TIME_ZONES[(state ?? "").trim().toUpperCase()] ?? DEFAULT_TIME_ZONE;

/** The calendar date (YYYY-MM-DD) it is at `now` in `timeZone`. */
export function localDate(now: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date(now));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The instant (epoch ms) a calendar date begins in `timeZone`. */
export function startOfDate(date: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // The zone's offset at that moment, read back from the formatter (twice: a DST change near midnight).
  let guess = utcMidnight;
  for (let i = 0; i < 2; i++) {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new Date(guess));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
    guess = utcMidnight - (asUtc - guess);
  }
  return guess;
}

/** `date` plus `months` calendar months (the day clamped to the month's end). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** The calendar date after `date`. */
export const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The first payment: one month's rent, or the whole stay's by days when it is shorter than a month
 * (a year's rent over 365 days a day), plus the service fee (a percentage of that rent). Cents.
 */
export function firstPayment(monthlyRent: number, moveIn: string, moveOut: string, feePercent: number) {
  const monthly = Math.round(monthlyRent * 100);
  const shorter = moveOut < addMonths(moveIn, 1);
  const rent_cents = shorter ? Math.round((monthly * 12 * daysBetween(moveIn, moveOut)) / 365) : monthly;
  const fee_cents = Math.round((rent_cents * feePercent) / 100);
  return { rent_cents, fee_cents, total_cents: rent_cents + fee_cents, by_days: shorter };
}

/** "Jan 5, 2027": a date as agreements, receipts and emails print it, always with its year (contract/dates.ts). */
export const shortDate = (date: string) => formatDate(date, { year: "always" });
/** The request's message text: "Sublease request: Jan 5 - May 20, 2027" (an email or an old client reads it as it is). */
export const requestSummary = (moveIn: string, moveOut: string) => `Sublease request: ${formatStay(moveIn, moveOut, { year: "always" }) ?? `${moveIn} - ${moveOut}`}`;

/**
 * Names compared as a person would: case, surrounding and repeated spaces, and diacritics ignored
 * (`Novák` is `Novak`: many US IDs drop them).
 */
export const normalizeName = (name: string) =>
  name.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("en-US");
export const namesMatch = (typed: string, legal: string) => normalizeName(typed) === normalizeName(legal);

/** Two stays overlap when each starts before the other ends (move-out day is free for the next move-in). */
export const staysOverlap = (a: { move_in: string; move_out: string }, b: { move_in: string; move_out: string }) => a.move_in < b.move_out && b.move_in < a.move_out;

/** GET deals and GET admin/deals: a page (`limit` 1-50, default 20; `last_evaluated_key` from the previous page). */
export const dealsPageSchema = z.object({
  limit: z.coerce.number("limit must be a number").int("limit must be a whole number").min(1, "limit must be 1 to 50").max(50, "limit must be 1 to 50").default(20),
  last_evaluated_key: z.string().max(500).optional(),
});
/** Staff's deals list: a staff list's page (docs/decisions/038), and a status. */
export const adminDealsQuerySchema = z.object(staffPageFields).extend({
  // `cases`: the deals staff must decide (disputed, or a release that failed), oldest first.
  status: z
    .enum([...DEAL_STATUSES, "cases"], `status must be one of ${[...DEAL_STATUSES, "cases"].join(", ")}`)
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
export const dealCursorSchema = z.object({ created_at: z.string().max(40), id: z.string().max(40) });
export const devDealsTickSchema = z.object({ now: z.iso.datetime({ offset: true, error: "now must be an ISO 8601 time" }) });

/**
 * The cancellation policy for a paid deal (docs/decisions/026), in the words shown before paying, on the
 * deal page and in the agreement. One source: the SPA, the agreement and the emails all read these lines.
 */
export const DEAL_CANCELLATION_POLICY: readonly string[] = [
  "If the lister cancels after you pay, you get everything back, service fee included, at once.",
  `If you cancel at least ${DEAL_WORDS.renterFullRefundDays} days before move-in, you get the first month's rent back in full; the service fee is kept.`,
  `If you cancel later, the lister decides within ${DEAL_WORDS.listerDecisionHours} hours how much of the rent goes back; if they do not answer, the rent goes back in full. The service fee is kept.`,
  `The money is held by CampusNest until ${DEAL_WORDS.releaseHours} hours after move-in, or until you tap "I have the keys" (and at least ${DEAL_WORDS.minimumHoldHours} hours after you pay). Until then you can report a problem and nothing is released.`,
];

/** The same policy in the lister's words (the deal page shows each party their own): the same rules, line by line. */
export const DEAL_CANCELLATION_POLICY_FOR_LISTER: readonly string[] = [
  "If you cancel after the renter pays, they get everything back, service fee included, at once; nothing goes to you.",
  `If the renter cancels at least ${DEAL_WORDS.renterFullRefundDays} days before move-in, they get the first month's rent back in full; the service fee is kept, and nothing goes to you.`,
  `If the renter cancels later, you decide within ${DEAL_WORDS.listerDecisionHours} hours how much of the rent goes back; the rest is released to you. If you do not answer, the rent goes back in full. The service fee is kept.`,
  `The money is held by CampusNest until ${DEAL_WORDS.releaseHours} hours after move-in, or until the renter taps "I have the keys" (and at least ${DEAL_WORDS.minimumHoldHours} hours after they pay); then the rent is released to you. Until then the renter can report a problem and nothing is released.`,
];

// ---------------------------------------------------------------------------------------------
// Payments (docs/decisions/029).


/**
 * Private evidence photos (POST upload/evidence, contract/evidence): relative only, so no other host's
 * picture (a tracking pixel) reaches staff's case, and never a listing photo; the route also checks that
 * the author uploaded them (services/evidence `checkEvidence`).
 */
const statementFields = {
  text: z
    .string("text is required")
    .trim()
    .min(1, "Please describe what happened")
    .max(DEAL_STATEMENT_MAX, `The text must be at most ${DEAL_STATEMENT_MAX} characters`),
  photos: z
    .array(z.string().max(500).regex(EVIDENCE_URL, EVIDENCE_MESSAGES.notEvidence), "photos must be a list of picture URLs")
    .max(DEAL_STATEMENT_PHOTOS_MAX, `At most ${DEAL_STATEMENT_PHOTOS_MAX} photos`)
    .optional()
    .default([]),
};
export const dealProblemSchema = z.object({ kind: z.enum(DEAL_PROBLEM_KINDS, `kind must be one of ${DEAL_PROBLEM_KINDS.join(", ")}`), ...statementFields });
export const dealStatementSchema = z.object(statementFields);
/** POST deals/{id}/lease: the lister's original lease, uploaded as private evidence. */
export const dealLeaseSchema = z.object({ url: z.string("url is required").max(500).regex(EVIDENCE_URL, EVIDENCE_MESSAGES.notEvidence) });
const cents = (label: string) => z.number(`${label} must be a number of cents`).int(`${label} must be a whole number of cents`).min(0, `${label} cannot be negative`);
export const cancellationRefundSchema = z.object({ refund_cents: cents("refund_cents"), reason: reasonText.optional().nullable() });
export const resolveDealSchema = z.object({ refund_cents: cents("refund_cents"), reason: reasonText.optional().nullable() });

export const PAYMENT_MESSAGES = {
  waitingForConsent: "Paying waits for the landlord's consent (granted, or not needed)",
  waitingForPayouts: "Paying waits for the lister: they have not finished setting up payouts yet",
  paymentsUnavailable: "Payments are not available right now. Please try again later.",
  notYetMoveIn: (date: string) => `"I have the keys" is possible from the move-in date (${shortDate(date)})`,
  caseOpen: "Staff are looking at this deal; nothing is released until they decide",
  noCancellation: "No cancellation is waiting for your decision",
  refundTooHigh: (max: number) => `refund_cents must be at most ${max}`,
  notACase: "This deal has no open case",
  moneyHeld: "Money for a deal is held here; it can be deleted once the deal is settled",
  cancellationOpen: "A cancellation is already waiting for the lister's decision",
  notYetReleased: "The money is not due for release yet",
  alreadyStated: "You have already added your statement",
  lateCancellation: "Move-in is less than 14 days away: the lister decides how much of the rent goes back",
  earlyCancellation: "Move-in is 14 days or more away: the rent goes back in full",
  decisionLapsed: "The 72 hours to decide have passed: the rent goes back in full",
  bankDecides: "A card dispute is open: the bank decides this payment",
  notDue: "Not due yet",
  moneyMoving: "A payment step of this deal is being made right now. Please try again in a moment.",
  feeOnlyWithAll: (rent: number, total: number) =>
    `refund_cents between the rent (${rent}) and the total (${total}) would return part of the service fee: the fee goes back only with a full refund`,
  onboardingNeedsId: "Verify your identity before setting up payouts",
} as const;

/**
 * When held money is released (ISO): 48 hours after move-in's midnight in the deal's time zone, or at the
 * renter's "I have the keys" (`keysAt`, epoch ms), but never sooner than 24 hours after the payment.
 */
export function heldUntil(moveIn: string, timeZone: string, paidAt: string, keysAt?: number): string {
  const rule = keysAt ?? startOfDate(moveIn, timeZone) + DEAL_TIMING.releaseAfterMoveInMs;
  return new Date(Math.max(rule, Date.parse(paidAt) + DEAL_TIMING.minimumHoldMs)).toISOString();
}

/** A renter cancelling a paid deal gets the rent back in full at least this long before move-in's midnight. */
export const renterFullRefund = (moveIn: string, timeZone: string, nowMs: number) =>
  startOfDate(moveIn, timeZone) - nowMs >= DEAL_TIMING.renterFullRefundDays * 86_400_000;

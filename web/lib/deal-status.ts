/**
 * A deal in words, the same on the card in the thread, the deal page, the profile and the staff panel:
 * labels, amounts, times. What a viewer may do and whose step it is come from the server (the Deal's
 * `actions` and `waiting_for`, computed from the declared process: docs/decisions/035); nothing here
 * decides a rule.
 */
import { DEAL_WORDS, type Deal, type DealCaseReason, type DealProblemKind, type DealStatus, type LandlordConsentStatus, type PaymentStatus } from "@contract/deals";
import { formatStay, type DateOptions } from "@contract/dates";

export const DEAL_STATUS_LABELS: Record<DealStatus, string> = {
  requested: "Requested",
  accepted: "Accepted",
  signed: "Signed",
  paid: "Paid",
  moved_in: "Moved in",
  released: "Completed",
  declined: "Declined",
  cancelled: "Cancelled",
  expired: "Expired",
  refunded: "Refunded",
  disputed: "Problem reported",
};

/**
 * The deal's badge: its status in a word, and its class. A paid deal whose late cancellation awaits the
 * lister's decision says what it waits for, never "Paid".
 */
export function statusBadge(deal: Pick<Deal, "status" | "cancellation" | "lister">, me?: string): { label: string; className: string } {
  if (deal.status === "paid" && deal.cancellation)
    return { label: `Cancelling: waiting for ${deal.lister.id === me ? "your" : `${deal.lister.first_name}'s`} refund decision`, className: "badge deal-badge deal-badge-cancelling" };
  return { label: DEAL_STATUS_LABELS[deal.status], className: `badge deal-badge deal-badge-${deal.status}` };
}

export const CONSENT_LABELS: Record<LandlordConsentStatus, string> = {
  none: "Not settled yet",
  not_needed: "Not needed: the lease allows subletting",
  requested: "Asked; waiting for the landlord",
  granted: "Granted by the landlord",
  declined: "Declined by the landlord",
};

/** Reasons the server gives for an ended deal, in words (an unknown one is shown as sent). */
const REASON_TEXTS: Record<string, string> = {
  cancelled_by_renter: "The renter cancelled.",
  cancelled_by_lister: "The lister cancelled.",
  request_expired: `The request was not answered within ${DEAL_WORDS.requestHours} hours.`,
  not_paid_by_move_in: "The deal was not paid by the move-in date.",
  stay_taken: "These dates were taken by another request.",
  listing_deleted: "The listing was deleted.",
  account_deleted: "An account in this deal was deleted.",
  party_suspended: "A party to this deal was suspended.",
  party_blocked: "One party blocked the other.",
  landlord_declined: "The landlord declined to consent.",
};
/** The reason in words; a person's own reason (and the landlord's, after "landlord_declined: ") as written. */
export function reasonText(reason: string | null): string | null {
  if (!reason) return null;
  const landlord = /^landlord_declined:\s*(.+)$/s.exec(reason);
  if (landlord) return `The landlord declined to consent: ${landlord[1]}`;
  return REASON_TEXTS[reason] ?? reason;
}

export type DealRole = "renter" | "lister";
export const roleIn = (deal: Deal, me: string | undefined): DealRole | null => (deal.renter.id === me ? "renter" : deal.lister.id === me ? "lister" : null);

/** The renter has paid (whatever happened to the money since). */
export const wasPaid = (deal: Pick<Deal, "payment">) => deal.payment.paid_at !== null;

const money = new Map<string, Intl.NumberFormat>();
/** "$892.50": an amount in cents, in its currency. */
export function formatMoney(cents: number, currency = "usd"): string {
  const code = currency.toUpperCase();
  let format = money.get(code);
  if (!format) money.set(code, (format = new Intl.NumberFormat("en-US", { style: "currency", currency: code })));
  return format.format(cents / 100);
}

/**
 * Dollars and cents as typed ("425", "425.5", "$1,200.00") to cents, or a message saying what is
 * wrong: never below 0 nor above `maxCents`.
 */
export function parseDollars(typed: string, maxCents: number, currency = "usd"): { cents: number } | { error: string } {
  const clean = typed.trim().replace(/^\$/, "").replace(/,/g, "");
  if (!clean) return { error: "Please enter an amount, 0 or more." };
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return { error: "Please enter dollars and cents, like 425 or 425.50." };
  const [whole, fraction = ""] = clean.split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (cents > maxCents) return { error: `At most ${formatMoney(maxCents, currency)}.` };
  return { cents };
}

const times = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" });
/** "Jun 3, 2027, 12:00 AM EDT": a moment of the deal in the viewer's own time zone, named. */
export const dealTime = (iso: string) => times.format(new Date(iso));

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  none: "Not paid",
  pending: "Payment in progress",
  held: "Held by CampusNest",
  released: "Released to the lister",
  refunded: "Refunded",
  disputed: "Held: a problem is being looked into",
  release_failed: "Held: the transfer to the lister failed",
};

export const PROBLEM_LABELS: Record<DealProblemKind, string> = {
  cant_get_in: "I can't get in",
  not_as_described: "Not as described",
  other: "Something else",
};

export const CASE_REASON_LABELS: Record<DealCaseReason, string> = {
  problem: "The renter reported a problem",
  card_dispute: "Card dispute",
  suspension: "The lister was suspended",
  release_failed: "The transfer to the lister failed",
  surplus: "More paid out than paid in (a reversal, or staff to decide)",
};

export interface NextStep {
  text: string;
  /** Whose step it is: the viewer's own ("you"), the other party's, the landlord's or staff's, or nobody's. */
  whose: "you" | "other" | "landlord" | "none";
}

/**
 * The deal's next step as the viewer reads it: the server's `waiting_for` (whose step, in words, from the
 * declared process: docs/decisions/035), never re-derived here. An ended deal says why it ended.
 */
export function nextStep(deal: Deal, me: string | undefined): NextStep {
  const w = deal.waiting_for;
  const role = roleIn(deal, me);
  if (w.step === "ended") {
    const ended = reasonText(deal.status_reason) ?? `This deal was ${DEAL_STATUS_LABELS[deal.status].toLowerCase()}.`;
    const money = moneyLine(deal, me);
    return { text: money ? `${ended} ${money}` : ended, whose: "none" };
  }
  const whose = w.party === null ? "none" : w.party === role ? "you" : w.party === "landlord" ? "landlord" : w.party === "staff" ? "none" : role ? "other" : "none";
  return { text: w.detail, whose };
}

/** "May 20 - Aug 10", the year when not this one (`year: "always"` on a receipt); the deal's own dates, never the listing's. */
export const dealStay = (deal: Pick<Deal, "move_in" | "move_out">, options?: DateOptions) => formatStay(deal.move_in, deal.move_out, options) ?? `${deal.move_in} - ${deal.move_out}`;

/** A short id for staff and tables. */
export const personName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();

/** A party as a money line names them: "you" for the viewer, else the first name (`full`: the whole name, as receipts and staff print it). */
const partyWord = (party: Deal["renter"], me: string | undefined, full: boolean) => (party.id === me ? "you" : full ? personName(party) : party.first_name);

/**
 * Where a paid deal's money went, in cents: back to the renter, with the lister (payment.transferred_cents:
 * what reached them, less any reversal), still held by CampusNest, and the service fee, which goes back only
 * with a full refund (a partial refund comes out of the rent: docs/decisions/029). Null before payment.
 */
export function moneySplit(deal: Pick<Deal, "payment">) {
  const p = deal.payment;
  if (p.paid_at === null) return null;
  const feeBack = p.refunded_cents >= p.total_cents;
  const held = Math.max(0, p.total_cents - p.refunded_cents - p.transferred_cents - (feeBack ? 0 : p.fee_cents));
  return { refunded: p.refunded_cents, toLister: p.transferred_cents, held, fee: p.fee_cents, feeBack, settled: held === 0 };
}

/**
 * Every money line of a paid deal, in one place (the deal page and card, the receipt, billing, the profile,
 * staff): who got how much, the fee included. "$200.00 refunded to Maya, $650.00 to Jordan, CampusNest fee
 * $42.50 kept." Said to `me` as "you"; null before payment.
 */
export function moneyLine(deal: Pick<Deal, "payment" | "renter" | "lister" | "status" | "decision">, me?: string, { full = false } = {}): string | null {
  const split = moneySplit(deal);
  if (!split) return null;
  const m = (cents: number) => formatMoney(cents, deal.payment.currency);
  const renter = partyWord(deal.renter, me, full);
  const lister = partyWord(deal.lister, me, full);
  const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  if (split.feeBack) return capital(`${m(split.refunded)} refunded to ${renter}, CampusNest fee ${m(split.fee)} included; nothing to ${lister}.`);
  if (!split.settled && split.refunded === 0 && split.toLister === 0) return capital(`${m(deal.payment.total_cents)} held by CampusNest; nothing to ${lister} yet.`);
  const parts: string[] = [];
  // A completed stay with nothing refunded needs no "nothing refunded"; any other end says it.
  if (split.refunded > 0) parts.push(`${m(split.refunded)} refunded to ${renter}`);
  else if (split.settled && (deal.status !== "released" || deal.decision)) parts.push(`nothing refunded to ${renter}`);
  if (split.toLister > 0) parts.push(`${m(split.toLister)} to ${lister}`);
  else if (split.settled) parts.push(`nothing to ${lister}`);
  if (!split.settled) parts.push(`${m(split.held)} still held by CampusNest`);
  parts.push(`CampusNest fee ${m(split.fee)}${split.settled ? " kept" : ""}`);
  return `${capital(parts.join(", "))}.`;
}

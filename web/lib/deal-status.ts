/**
 * A deal in words, the same on the card in the thread, the deal page, the profile and the staff
 * panel: its status, and its next step with whose it is.
 */
import { DEAL_TIMING, DEAL_WORDS, type Deal, type DealCaseReason, type DealProblemKind, type DealStatus, type LandlordConsentStatus, type PaymentStatus } from "@contract/deals";
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

/**
 * Either party may cancel a deal until it is paid, and while the money is held (the policy says what
 * goes back: docs/decisions/026), unless the renter has already cancelled and the lister is deciding.
 */
export const canCancel = (deal: Pick<Deal, "status" | "payment" | "cancellation">) =>
  deal.status === "requested" || deal.status === "accepted" || deal.status === "signed" || (isHeld(deal) && !deal.cancellation);

/** The money is held by CampusNest: paid, not yet released, refunded or disputed. */
export const isHeld = (deal: Pick<Deal, "status" | "payment">) => deal.status === "paid" && deal.payment.status === "held";

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

/**
 * When move-in day begins in the deal's time zone (epoch ms): the release time less the hold after
 * move-in (both the server's), or, before a release time exists, midnight where the viewer is.
 */
export function moveInStarts(deal: Pick<Deal, "move_in" | "payment">): number {
  if (deal.payment.held_until) return Date.parse(deal.payment.held_until) - DEAL_TIMING.releaseAfterMoveInMs;
  const [y, m, d] = deal.move_in.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

/** "I have the keys" is offered from move-in day on (the server accepts it from then). */
export const keysOffered = (deal: Pick<Deal, "status" | "payment" | "move_in">, now: number) => isHeld(deal) && now >= moveInStarts(deal);

/**
 * What a renter's cancellation now would bring back under the policy (DEAL_CANCELLATION_POLICY): the
 * rent in full at least `renterFullRefundDays` before move-in, else the lister decides.
 */
export const renterRefundNow = (deal: Pick<Deal, "move_in" | "payment">, now: number): "rent" | "lister_decides" =>
  moveInStarts(deal) - now >= DEAL_TIMING.renterFullRefundDays * 86_400_000 ? "rent" : "lister_decides";

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
};

export interface NextStep {
  text: string;
  /** Whose step it is: the viewer's own ("you"), the other party's, the landlord's, or nobody's (ended). */
  whose: "you" | "other" | "landlord" | "none";
}

const firstName = (deal: Deal, role: DealRole) => (role === "renter" ? deal.renter.first_name : deal.lister.first_name);

/** The deal's next step as the viewer (`me`) reads it; staff (no role) read it by party. */
export function nextStep(deal: Deal, me: string | undefined): NextStep {
  const role = roleIn(deal, me);
  const mine = (who: DealRole) => role === who;
  const other = (who: DealRole) => firstName(deal, who);
  switch (deal.status) {
    case "requested":
      return mine("lister")
        ? { text: "Accept or decline this request.", whose: "you" }
        : { text: `Waiting for ${other("lister")} to accept or decline (a request is open for ${DEAL_WORDS.requestHours} hours).`, whose: "other" };
    case "accepted":
    case "signed":
      break;
    case "declined":
    case "cancelled":
    case "expired": {
      const ended = reasonText(deal.status_reason) ?? `This deal was ${DEAL_STATUS_LABELS[deal.status].toLowerCase()}.`;
      const back = deal.payment.refunded_cents > 0 ? ` ${formatMoney(deal.payment.refunded_cents, deal.payment.currency)} went back to ${role === "renter" ? "you" : deal.renter.first_name}.` : "";
      return { text: ended + back, whose: "none" };
    }
    default:
      return moneyStep(deal, role);
  }
  if (deal.status === "signed") return signedStep(deal, role);
  const consent = deal.landlord_consent.status;
  if (consent === "none")
    return mine("lister")
      ? { text: "Settle the landlord's consent: say your lease allows subletting, or ask your landlord.", whose: "you" }
      : { text: `Waiting for ${other("lister")} to settle the landlord's consent.`, whose: "other" };
  if (consent === "requested") return { text: "Waiting for the landlord to answer the consent request.", whose: "landlord" };
  if (consent === "declined") return { text: "The landlord declined to consent.", whose: "none" };
  const signedAt = { renter: deal.agreement?.renter_signed_at ?? null, lister: deal.agreement?.lister_signed_at ?? null };
  if (role && !signedAt[role]) return { text: "Read and sign the agreement.", whose: "you" };
  const waiting = (["renter", "lister"] as const).filter((r) => !signedAt[r] && r !== role);
  if (waiting.length === 0) return { text: "Both have signed.", whose: "none" };
  return { text: `Waiting for ${waiting.map((r) => other(r)).join(" and ")} to sign.`, whose: "other" };
}

/** A signed deal: the first payment's turn, or whose step holds it (the lister's payouts). */
function signedStep(deal: Deal, role: DealRole | null): NextStep {
  const lead = "Signed by both.";
  if (deal.payment.waiting_for === "lister_payouts")
    return role === "lister"
      ? { text: `${lead} Set up payouts so ${deal.renter.first_name} can pay.`, whose: "you" }
      : { text: `${lead} Waiting for ${deal.lister.first_name} to set up payouts.`, whose: role ? "other" : "none" };
  if (deal.payment.payable)
    return role === "renter"
      ? { text: `${lead} Pay the first month through CampusNest: it is held until you move in.`, whose: "you" }
      : { text: `${lead} Waiting for ${deal.renter.first_name} to pay the first month.`, whose: role ? "other" : "none" };
  return { text: `${lead} Next: the first month's payment through CampusNest.`, whose: "none" };
}

/** Paid and after: where the money is. */
function moneyStep(deal: Deal, role: DealRole | null): NextStep {
  const p = deal.payment;
  const refunded = p.refunded_cents > 0 ? ` ${formatMoney(p.refunded_cents, p.currency)} went back to ${role === "renter" ? "you" : deal.renter.first_name}.` : "";
  switch (deal.status) {
    case "paid":
      if (deal.cancellation) {
        const by = dealTime(deal.cancellation.decide_by);
        return role === "lister"
          ? { text: `${deal.renter.first_name} cancelled. Decide how much of the rent goes back by ${by}.`, whose: "you" }
          : { text: `${role === "renter" ? "You" : deal.renter.first_name} cancelled. ${deal.lister.first_name} decides how much of the rent goes back by ${by}; without an answer, all of it does.`, whose: role ? "other" : "none" };
      }
      if (p.status === "pending") return { text: "Payment received. Confirming it with the card company…", whose: "none" };
      return { text: p.held_until ? `Paid. Held by CampusNest until ${dealTime(p.held_until)}.` : "Paid. Held by CampusNest until move-in.", whose: "none" };
    case "moved_in":
      return { text: `Moved in. The money is on its way to ${role === "lister" ? "you" : deal.lister.first_name}.`, whose: "none" };
    case "released":
      return { text: `Completed. The money was released to ${role === "lister" ? "you" : deal.lister.first_name}${p.released_at ? ` on ${dealTime(p.released_at)}` : ""}.${refunded}`, whose: "none" };
    case "refunded":
      return { text: `Refunded.${refunded || ` ${deal.renter.first_name} got the money back.`}`, whose: "none" };
    case "disputed":
      return { text: "CampusNest is looking into it; nothing is released.", whose: "none" };
    default:
      return { text: DEAL_STATUS_LABELS[deal.status], whose: "none" };
  }
}

/** "May 20 - Aug 10", the year when not this one (`year: "always"` on a receipt); the deal's own dates, never the listing's. */
export const dealStay = (deal: Pick<Deal, "move_in" | "move_out">, options?: DateOptions) => formatStay(deal.move_in, deal.move_out, options) ?? `${deal.move_in} - ${deal.move_out}`;

/** A short id for staff and tables. */
export const personName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();

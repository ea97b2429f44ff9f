/**
 * The deal's notices (docs/decisions/035): one catalogue kind per notice the process declares on its
 * transitions (contract/deal-process.ts DEAL_NOTICES), each worded here from the deal's facts, never
 * composed at a call site. Money notices always go (transactional; which they are is read from the
 * process: contract/deal-process.ts MONEY_NOTICES); the others are the `deals` kind's
 * (with the deals email off they go by push, and by email still when no push was taken: decision 027).
 */
import type { Config } from "../../env";
import { DEAL_NOTICES, MONEY_NOTICES, type DealNotice } from "../../contract/deal-process";
import { DEAL_WORDS, type DealStatus } from "../../contract/deals";
import { REVIEW_WORDS } from "../../contract/reviews";
import { dealUpdateEmail } from "../email-templates";

/** What a deal notice says, read from the deal after its transition. */
export interface DealNoticeFacts {
  dealId: string;
  title: string;
  /** "Jan 5, 2027 to May 20, 2027" */
  stay: string;
  renter: string;
  lister: string;
  /** Who reads this copy. */
  to: "renter" | "lister";
  /** Who acted: a party, the landlord, staff or the system. */
  by: string;
  status: DealStatus;
  /** The reason given (a decline, a cancellation, a decision, staff's resolution, the landlord's answer), or a system reason. */
  reason: string | null;
  currency: string;
  rentCents: number;
  feeCents: number;
  refundCents: number;
  transferCents: number;
  heldUntil: string | null;
  decideBy: string | null;
  /** The landlord's answer (deal_landlord_answered). */
  consent?: "granted" | "declined";
  /** Who signed (deal_signature). */
  signedBy?: "renter" | "lister";
  /** Which condition report arrived (deal_condition_report). */
  phase?: "move_in" | "move_out";
  /** The parties whose identity is not verified yet, by role (signing waits for them). */
  unverified?: ("renter" | "lister")[];
  /** The lister can be paid (their payout account is ready). */
  listerReady?: boolean;
}

export type DealNoticeEvent = { [K in DealNotice]: { kind: K; deal: DealNoticeFacts } }[DealNotice];

const usd = (cents: number, currency: string) => (cents / 100).toLocaleString("en-US", { style: "currency", currency: currency.toUpperCase() });
const when = (iso: string) => new Date(iso).toUTCString().replace(/:\d\d GMT$/, " UTC");
const because = (reason: string | null) => (reason ? ` Reason: ${reason}` : "");

/** A system reason (status_reason) in words; a person's reason as written. */
const SYSTEM_REASONS: Record<string, string> = {
  stay_taken: "Someone else paid for a stay that overlaps your dates. Other dates may still be free.",
  request_expired: `The request was not answered within ${DEAL_WORDS.requestHours} hours, so it expired.`,
  not_paid_by_move_in: "The first payment was not made by the move-in date, so the deal expired.",
  listing_deleted: "The listing was deleted, so the deal was cancelled.",
  account_deleted: "An account of the deal was deleted, so the deal was cancelled.",
  party_suspended: "An account of the deal was suspended, so the deal was cancelled.",
  party_blocked: "One of you blocked the other, so the deal was cancelled.",
};

/** Subject and lines of each notice, for the party reading it. */
export function dealNoticeText(kind: DealNotice, f: DealNoticeFacts): { subject: string; lines: string[] } {
  const m = (cents: number) => usd(cents, f.currency);
  const you = (role: "renter" | "lister") => f.to === role;
  const t = `"${f.title}"`;
  const nameOf = (role: "renter" | "lister") => (role === "renter" ? f.renter : f.lister);
  // Signing waits for every unverified party: said by name, and to them how to verify (never "you can both sign").
  const verifyFirst = () =>
    (f.unverified ?? [])
      .map((role) => (you(role) ? "Verify your identity first (Profile, ID verification): signing needs a verified ID." : `${nameOf(role)} must verify their identity before either of you can sign.`))
      .join(" ");
  switch (kind) {
    case "deal_requested":
      return {
        subject: `Sublease request for ${t}`,
        lines: [`${f.renter} asks to sublease ${t} from ${f.stay}.`, `Accept or decline within ${DEAL_WORDS.requestHours} hours; after that the request expires.`, ...((f.unverified ?? []).length ? [verifyFirst()] : [])],
      };
    case "deal_accepted":
      return {
        subject: `Accepted: ${t}`,
        lines: [`${f.lister} accepted your request for ${f.stay}.`, "Read the agreement on the deal; both of you sign it there once the landlord's consent is settled.", ...((f.unverified ?? []).length ? [verifyFirst()] : [])],
      };
    case "deal_declined":
      return { subject: `Declined: ${t}`, lines: [`Your request for ${f.stay} was declined.${because(f.reason)}`] };
    case "deal_cancelled":
      return { subject: `Cancelled: ${t}`, lines: [`The deal for ${f.stay} was cancelled by the ${f.by}.${because(f.reason)}`] };
    case "deal_ended":
      return { subject: `Cancelled: ${t}`, lines: [SYSTEM_REASONS[f.reason ?? ""] ?? "The deal was cancelled."] };
    case "deal_expired":
      return { subject: `Expired: ${t}`, lines: [SYSTEM_REASONS[f.reason ?? ""] ?? "The deal expired."] };
    case "deal_stay_taken":
      return f.status === "cancelled" && f.refundCents > 0
        ? { subject: `Refunded: ${t}`, lines: [`Another renter's payment for overlapping dates arrived first, so this deal was cancelled and your payment (${m(f.refundCents)}) is refunded in full.`] }
        : { subject: `Not available: ${t}`, lines: [SYSTEM_REASONS.stay_taken!] };
    case "deal_landlord_answered":
      return f.consent === "granted"
        ? {
            subject: `Landlord consent granted: ${t}`,
            lines: [`The landlord consented to the sublease. ${(f.unverified ?? []).length ? verifyFirst() : "You can both sign the agreement now."}`],
          }
        : { subject: `Landlord consent declined: ${t}`, lines: [`The landlord declined the sublease, so the deal was cancelled.${because(f.reason)}`] };
    case "deal_signature": {
      const signer = nameOf(f.signedBy ?? (f.by === "lister" ? "lister" : "renter"));
      if (f.status !== "signed") return { subject: `Signed by ${signer}: ${t}`, lines: [`${signer} signed the agreement. It is your turn to sign.`] };
      // Both signed: the next step is paying, said to each.
      return {
        subject: `Signed by both: ${t}${you("renter") && f.listerReady ? ", now pay" : ""}`,
        lines: [
          you("renter")
            ? `${signer} signed too: the agreement is signed by both of you. ${f.listerReady ? "Now pay the first month on the deal; CampusNest holds it until you move in." : `You can pay the first month once ${f.lister} has set up payouts; we will tell you.`}`
            : `${signer} signed too: the agreement is signed by both of you. ${f.listerReady ? `${f.renter} pays the first month next; CampusNest holds it until the move-in.` : `Set up payouts on the deal so ${f.renter} can pay the first month.`}`,
        ],
      };
    }
    case "deal_paid":
      return {
        subject: `Paid: ${t}`,
        lines: [
          `${f.renter} paid the first month for ${f.stay}. CampusNest holds the rent (${m(f.rentCents)}) and releases it to your payout account ${DEAL_WORDS.releaseHours} hours after move-in, or when ${f.renter} confirms the keys (never sooner than ${DEAL_WORDS.minimumHoldHours} hours after paying).`,
        ],
      };
    case "deal_payment_refused":
      return { subject: `Refunded: ${t}`, lines: [`This deal had already ended when your payment arrived, so it is refunded in full (${m(f.refundCents)}).`] };
    case "deal_duplicate_refunded":
      return { subject: `Refunded: a second payment for ${t}`, lines: ["This deal was already paid, so your second payment is refunded in full."] };
    case "deal_released":
      return { subject: `Released: ${t}`, lines: [`The first month's rent (${m(f.transferCents)}) was released to ${you("lister") ? "you" : f.lister}.`] };
    case "deal_problem":
      return { subject: `Problem reported: ${t}`, lines: [`${you("renter") ? "You" : f.renter} reported a problem. Nothing is released while CampusNest staff look at it; both of you can add a statement on the deal.`] };
    case "deal_cancellation_asked":
      return {
        subject: `Cancellation: ${t}`,
        lines: [
          `${you("renter") ? "You" : f.renter} cancelled less than ${DEAL_WORDS.renterFullRefundDays} days before move-in.`,
          `${you("lister") ? "Decide" : `${f.lister} decides`} how much of the rent (up to ${m(f.rentCents)}) goes back by ${f.decideBy ? when(f.decideBy) : "the deadline"}; without an answer the rent goes back in full. The service fee is kept.`,
        ],
      };
    case "deal_cancelled_paid":
      return {
        subject: `Cancelled: ${t}`,
        lines: [`The deal was cancelled by the ${f.by}. ${m(f.refundCents)} goes back to ${you("renter") ? "your" : `${f.renter}'s`} card${f.by === "renter" ? "; the service fee is kept" : ", service fee included"}.${because(f.reason)}`],
      };
    case "deal_cancellation_decided":
      return {
        subject: `Cancellation decided: ${t}`,
        lines: [
          f.by === "system"
            ? `${f.lister} did not decide in time, so the rent (${m(f.refundCents)}) goes back to ${you("renter") ? "you" : f.renter} in full.`
            : `${f.lister} decided: ${m(f.refundCents)} of the rent goes back to ${you("renter") ? "you" : f.renter}, and ${m(f.transferCents)} goes to ${you("lister") ? "you" : f.lister}.${because(f.reason)}`,
          "The service fee is kept.",
        ],
      };
    case "deal_resolved":
      return {
        subject: `Decided: ${t}`,
        lines: [`CampusNest staff decided: ${m(f.refundCents)} back to ${you("renter") ? "you" : f.renter}, ${m(f.transferCents)} to ${you("lister") ? "you" : f.lister}.${because(f.reason)}`],
      };
    case "deal_frozen":
      return { subject: `On hold: ${t}`, lines: ["The lister's account was suspended. Your payment stays held while CampusNest staff decide; you will hear from us."] };
    case "deal_card_dispute":
      return { subject: `Card dispute: ${t}`, lines: ["A card dispute was opened for this payment. Nothing is released while the bank decides."] };
    case "deal_payable":
      return { subject: `Ready to pay: ${t}`, lines: [`${f.lister} has set up payouts, so you can pay the first month now on the deal. CampusNest holds it until you move in.`] };
    case "deal_refunded":
      return { subject: `Refunded: ${t}`, lines: [`${m(f.refundCents)} went back to ${you("renter") ? "your" : `${f.renter}'s`} card.`] };
    // After the keys (docs/decisions/040).
    case "deal_review_invite":
      return {
        subject: `Leave a review: ${t}`,
        lines: [
          `How was ${you("renter") ? `subleasing from ${f.lister}` : `subleasing to ${f.renter}`}? You have ${REVIEW_WORDS.windowDays} days to review ${you("renter") ? f.lister : f.renter}.`,
          "Both reviews are shown together, once both of you have written or the time is up, so neither of you sees the other's first.",
        ],
      };
    case "deal_review_reminder":
      return { subject: `${REVIEW_WORDS.reminderDays} days left to review: ${t}`, lines: [`Your review of ${you("renter") ? f.lister : f.renter} can be written for ${REVIEW_WORDS.reminderDays} more days.`] };
    case "deal_reviews_visible":
      return { subject: `Reviews are visible: ${t}`, lines: ["The reviews of this stay are now visible on your profiles. You can reply once to the review of you."] };
    case "deal_condition_report":
      return {
        subject: `Condition report received: ${t}`,
        lines: [`${f.renter} sent the ${f.phase === "move_out" ? "move-out" : "move-in"} condition report, room by room with photos. Read it on the deal; you can add one comment.`],
      };
  }
}

const dealUrl = (config: Config, dealId: string) => `${config.publicBaseUrl}/deals/${encodeURIComponent(dealId)}`;

/**
 * A deal notice's rule, in the shape of events.ts's EventRule, which types it there: this module imports
 * nothing of events.ts, since events.ts's catalogue and its union of events import this one.
 */
export interface DealNoticeRule {
  group: "deals";
  push: (e: { deal: DealNoticeFacts }) => { title: string; body: string; url: string; urgency: "high" };
  transactional: boolean;
  preference?: "emailOnDeal";
  emailUnlessPushed?: true;
  email: (to: { email: string; firstName: string }, e: { deal: DealNoticeFacts }, config: Config) => ReturnType<typeof dealUpdateEmail>;
}

function rule(kind: DealNotice): DealNoticeRule {
  const push: DealNoticeRule["push"] = (e) => {
    const { subject, lines } = dealNoticeText(kind, e.deal);
    return { title: subject, body: lines[0] ?? "Open the deal for details.", url: `/deals/${encodeURIComponent(e.deal.dealId)}`, urgency: "high" };
  };
  const email: DealNoticeRule["email"] = (to, e, config) => {
    const { subject, lines } = dealNoticeText(kind, e.deal);
    return dealUpdateEmail(to.email, to.firstName, subject, lines, dealUrl(config, e.deal.dealId));
  };
  return MONEY_NOTICES.has(kind)
    ? { group: "deals", push, transactional: true, email }
    : { group: "deals", push, transactional: false, preference: "emailOnDeal", emailUnlessPushed: true, email };
}

/** Every deal notice's rule, for services/notify/events.ts EVENTS. */
export const DEAL_NOTICE_RULES = Object.fromEntries(DEAL_NOTICES.map((kind) => [kind, rule(kind)])) as Record<DealNotice, DealNoticeRule>;

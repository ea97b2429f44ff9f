/**
 * The deal's process, declared (docs/decisions/035; architecture convention 22, after Sharetribe's
 * transaction process): every state, every transition with who may make it, what it does with money,
 * the notice it sends and when it is allowed; the named groups of states (and the SQL lists the queries
 * use, never retyped); the timers the deal jobs run. Everything else reads this: the engine
 * (services/deals/process.ts) refuses what is not declared before any plan runs, the Deal object's
 * `actions` and `waiting_for` are computed from it per caller, the state diagram in the decision record
 * is generated from it (scripts/deal-diagram.mjs), and a test walks it whole.
 *
 * Adding a transition: an entry here (and its plan where it is made); a timer: an entry in DEAL_TIMERS.
 */
import { CONDITION_PHASES, REVIEW_MESSAGES as R, REVIEW_TIMING, inConditionWindow, type ConditionPhase } from "./reviews";
import {
  DEAL_MESSAGES as M,
  DEAL_STATUSES,
  DEAL_TIMING,
  PAYMENT_MESSAGES as P,
  consentSettled,
  localDate,
  renterFullRefund,
  type DealAction,
  type DealStatus,
  type LandlordConsentStatus,
  type PaymentStatus,
} from "./deals";

export { DEAL_STATUSES };

/** Who makes a transition: a party, the landlord (by the emailed link), staff, the deal jobs, or Stripe (its events). */
export const DEAL_ACTORS = ["renter", "lister", "landlord", "staff", "system", "stripe"] as const;
export type Actor = (typeof DEAL_ACTORS)[number];

// ---------------------------------------------------------------------------------------------
// Groups of states.

export const DEAL_GROUPS = {
  /** Open and unpaid: what expiry watches, and what a deletion, a suspension or a block ends. */
  openUnpaid: ["requested", "accepted", "signed"],
  /** Hold the stay's dates against another accept. */
  reserving: ["accepted", "signed", "paid", "moved_in", "disputed", "released"],
  /** Hold the stay against any new request: the first month was paid and not given back. */
  taken: ["paid", "moved_in", "disputed", "released"],
  /** The money is with CampusNest, not yet released or given back. */
  held: ["paid", "moved_in"],
  /** The renter reads the full address. */
  fullAddress: ["accepted", "signed", "paid", "moved_in", "released", "disputed", "refunded"],
  /** Money is held for the deal: neither its listing nor a party's account can be deleted. */
  moneyHeld: ["paid", "moved_in", "disputed"],
  /** A payment may exist: Stripe's events about money apply here. */
  withPayment: ["paid", "moved_in", "disputed", "released", "refunded", "cancelled", "expired", "declined"],
  /** Nothing more happens (save a late event from Stripe). */
  ended: ["declined", "cancelled", "expired", "refunded", "released"],
} as const satisfies Record<string, readonly DealStatus[]>;
export type DealGroup = keyof typeof DEAL_GROUPS;

export const inGroup = (group: DealGroup, status: string) => (DEAL_GROUPS[group] as readonly string[]).includes(status);

/** `'a', 'b'`: a list of states for `status IN (...)`; the states are this module's constants, never input. */
export const sqlList = (states: readonly DealStatus[]) => states.map((s) => `'${s}'`).join(", ");

/** Each group as the SQL list the queries use (db/queries/deals.ts): never retyped. */
export const DEAL_GROUP_SQL = Object.fromEntries(Object.entries(DEAL_GROUPS).map(([name, states]) => [name, sqlList(states)])) as Record<DealGroup, string>;

// ---------------------------------------------------------------------------------------------
// What the rules read of a deal.

/** The deal's facts every guard and `waiting_for` read (the worker's DealRow has them all). */
export interface DealFacts {
  status: DealStatus;
  payment_status: PaymentStatus;
  landlord_consent: LandlordConsentStatus;
  renter_signed_at: string | null;
  lister_signed_at: string | null;
  expires_at: string | null;
  move_in: string;
  time_zone: string;
  paid_at: string | null;
  held_until: string | null;
  cancel_decide_by: string | null;
  dispute_status: string | null;
  case_reason: string | null;
  /** The money move in flight (its attempt's id), null when none: every other money call waits. */
  claim_id: string | null;
  /** The lister's payout account: pending | ready, null before onboarding. */
  lister_payout_status: string | null;
  renter_verified: number;
  lister_verified: number;
  /** Whether each party has written their one statement of a case (0/1). */
  renter_stated: number;
  lister_stated: number;
  /** The listing's landlord declined a sublease within the last 180 days: when (null: no such decline). */
  landlord_declined_at: string | null;
  renter_first_name: string | null;
  lister_first_name: string | null;
  // After the keys (docs/decisions/040): the review window, each party's review and reply, the condition reports.
  move_out: string;
  /** When the parties' review window ends (set when the deal is first released), null before. */
  review_window_ends_at: string | null;
  /** When both reviews became visible (both written, or the window ended), null before. */
  reviews_revealed_at: string | null;
  renter_reviewed_at: string | null;
  lister_reviewed_at: string | null;
  /** Each party's one reply to the review of them. */
  renter_replied_at: string | null;
  lister_replied_at: string | null;
  /** The timers' columns: "leave a review", its reminder, the reveal at the window's end (null once done). */
  review_invite_due_at: string | null;
  review_reminder_due_at: string | null;
  review_reveal_due_at: string | null;
  /** When each condition report arrived, and the lister's one comment on it. */
  move_in_report_at: string | null;
  move_out_report_at: string | null;
  move_in_comment_at: string | null;
  move_out_comment_at: string | null;
}

export interface GuardContext {
  now: number;
  /** Who asks. */
  as: Actor;
}
/** Why the transition cannot be made now (the 409's detail), or null when it can. */
export type Guard = (d: DealFacts, ctx: GuardContext) => string | null;

// ---------------------------------------------------------------------------------------------
// Notices: catalogue kinds of services/notify, each named on the transitions that send it.

export const DEAL_NOTICES = [
  "deal_requested",
  "deal_accepted",
  "deal_declined",
  "deal_cancelled",
  "deal_ended",
  "deal_expired",
  "deal_stay_taken",
  "deal_landlord_answered",
  "deal_signature",
  "deal_paid",
  "deal_payment_refused",
  "deal_duplicate_refunded",
  "deal_released",
  "deal_problem",
  "deal_cancellation_asked",
  "deal_cancelled_paid",
  "deal_cancellation_decided",
  "deal_resolved",
  "deal_frozen",
  "deal_card_dispute",
  "deal_refunded",
  "deal_review_invite",
  "deal_review_reminder",
  "deal_reviews_visible",
  "deal_condition_report",
  "deal_payable",
] as const;
export type DealNotice = (typeof DEAL_NOTICES)[number];
/** Who reads a notice: a party, both, or the other party than the one who acted. */
export type NoticeAudience = "renter" | "lister" | "both" | "other";

/**
 * What a transition does with money at Stripe (the platform's moves claim the deal first; docs/decisions/035);
 * `hold`: it moves nothing but stops the release (a problem, a late cancellation, a suspension), so the held
 * money waits for a decision.
 */
export const MONEY_EFFECTS = ["none", "charge", "refund", "transfer", "refund_and_transfer", "reverse", "hold"] as const;
export type MoneyEffect = (typeof MONEY_EFFECTS)[number];
/** A money move we make (not Stripe's charge, which arrives as an event, nor a hold): one per deal at a time. */
export const movesMoney = (m: MoneyEffect) => m !== "none" && m !== "charge" && m !== "hold";

// ---------------------------------------------------------------------------------------------
// Guards.

const held = (d: DealFacts) => d.payment_status === "held";
const cancellationOpen = (d: DealFacts) => d.cancel_decide_by !== null;
const roleSigned = (d: DealFacts, as: Actor) => (as === "renter" ? d.renter_signed_at : as === "lister" ? d.lister_signed_at : null);

const notExpired: Guard = (d, { now }) => (d.expires_at && Date.parse(d.expires_at) <= now ? M.wrongState("expired") : null);
const beforeSignatures: Guard = (d) => (d.renter_signed_at || d.lister_signed_at ? M.consentAfterSignature : null);
const signable: Guard = (d, { as }) =>
  roleSigned(d, as) ? M.alreadySigned : !consentSettled(d.landlord_consent) ? M.consentNotSettled : !d.renter_verified || !d.lister_verified ? M.notVerified : null;
const payable: Guard = (d) => (!consentSettled(d.landlord_consent) ? P.waitingForConsent : d.lister_payout_status !== "ready" ? P.waitingForPayouts : null);
const heldNoCancellation: Guard = (d) => (!held(d) ? M.wrongState(d.payment_status) : cancellationOpen(d) ? P.cancellationOpen : null);
const keysOpen: Guard = (d, ctx) => heldNoCancellation(d, ctx) ?? (localDate(ctx.now, d.time_zone) < d.move_in ? P.notYetMoveIn(d.move_in) : null);
const releaseDue: Guard = (d, ctx) => heldNoCancellation(d, ctx) ?? (!d.held_until || Date.parse(d.held_until) > ctx.now ? P.notYetReleased : null);
const reportable: Guard = (d) => (d.payment_status === "held" || d.payment_status === "release_failed" ? null : M.wrongState(d.payment_status));
const notStated: Guard = (d, { as }) => ((as === "renter" ? d.renter_stated : d.lister_stated) ? P.alreadyStated : null);
const renterEarly: Guard = (d, ctx) => heldNoCancellation(d, ctx) ?? (renterFullRefund(d.move_in, d.time_zone, ctx.now) ? null : P.lateCancellation);
const renterLate: Guard = (d, ctx) => heldNoCancellation(d, ctx) ?? (renterFullRefund(d.move_in, d.time_zone, ctx.now) ? P.earlyCancellation : null);
const listerCancellable: Guard = (d) => (held(d) ? null : M.wrongState(d.payment_status));
const decisionOpen: Guard = (d, { now }) => (!cancellationOpen(d) ? P.noCancellation : Date.parse(d.cancel_decide_by!) <= now ? P.decisionLapsed : null);
const decisionLapsed: Guard = (d, { now }) => (!cancellationOpen(d) || Date.parse(d.cancel_decide_by!) > now ? P.noCancellation : null);
const caseOpen: Guard = (d) => (d.status !== "disputed" && d.payment_status !== "release_failed" && !d.case_reason ? P.notACase : d.dispute_status === "open" ? P.bankDecides : null);
const freezable: Guard = (d) => (d.payment_status === "held" || d.payment_status === "release_failed" ? null : M.wrongState(d.payment_status));
const expiryDue: Guard = (d, { now }) => (d.expires_at && Date.parse(d.expires_at) <= now ? null : P.notDue);
// After the keys (docs/decisions/040).
const due = (at: string | null, now: number) => (at && Date.parse(at) <= now ? null : P.notDue);
/** The fact of the party `as` (a renter's or a lister's column), null for anyone else. */
const mine = (d: DealFacts, as: Actor, renter: keyof DealFacts, lister: keyof DealFacts) => (as === "renter" ? d[renter] : as === "lister" ? d[lister] : null);
const reviewable: Guard = (d, { now, as }) =>
  mine(d, as, "renter_reviewed_at", "lister_reviewed_at") ? R.alreadyReviewed : !d.review_window_ends_at || Date.parse(d.review_window_ends_at) < now || d.reviews_revealed_at ? R.windowClosed : null;
const repliable: Guard = (d, { as }) =>
  !d.reviews_revealed_at || !mine(d, as, "lister_reviewed_at", "renter_reviewed_at") ? R.notRevealedYet : mine(d, as, "renter_replied_at", "lister_replied_at") ? R.alreadyReplied : null;
const reportOpen = (d: DealFacts, phase: ConditionPhase, now: number) => !(phase === "move_in" ? d.move_in_report_at : d.move_out_report_at) && inConditionWindow(phase, d, now);
const conditionReportable: Guard = (d, { now }) => (CONDITION_PHASES.some((phase) => reportOpen(d, phase, now)) ? null : R.noReportWindow);
const commentable: Guard = (d) => ((d.move_in_report_at && !d.move_in_comment_at) || (d.move_out_report_at && !d.move_out_comment_at) ? null : R.noCommentable);

// ---------------------------------------------------------------------------------------------
// Transitions.

export interface TransitionDef {
  name: string;
  from: readonly DealStatus[];
  /** The states it may move the deal to (it may also leave it where it is, changing other facts). */
  to: readonly DealStatus[];
  actors: readonly Actor[];
  /** The route a party (or staff) calls for it: the name the Deal's `actions` lists. */
  action?: DealAction;
  money: MoneyEffect;
  /** The notices it may send (the plan picks one when there are several), and to whom. */
  notice: { kinds: readonly DealNotice[]; to: NoticeAudience } | null;
  guard?: Guard;
  /** Allowed while a money move holds the deal (it neither moves money nor decides where it goes). */
  duringClaim?: true;
  /** A sentence for the diagram and the decision record. */
  says: string;
}

const open = DEAL_GROUPS.openUnpaid;
const any = DEAL_GROUPS.withPayment;

export const DEAL_TRANSITIONS = [
  // The request and the lister's answer.
  { name: "accept", from: ["requested"], to: ["accepted"], actors: ["lister"], action: "accept", money: "none", notice: { kinds: ["deal_accepted"], to: "renter" }, guard: notExpired, says: "the lister accepts: the snapshot and the first agreement" },
  { name: "decline", from: ["requested"], to: ["declined"], actors: ["lister"], action: "decline", money: "none", notice: { kinds: ["deal_declined"], to: "renter" }, says: "the lister declines" },
  { name: "withdraw", from: ["requested"], to: ["cancelled"], actors: ["renter"], action: "cancel", money: "none", notice: { kinds: ["deal_cancelled"], to: "lister" }, says: "the renter withdraws the request" },
  { name: "cancel", from: ["accepted", "signed"], to: ["cancelled"], actors: ["renter", "lister"], action: "cancel", money: "none", notice: { kinds: ["deal_cancelled"], to: "other" }, says: "either party cancels before paying" },
  // The landlord's consent and the signatures.
  { name: "landlord_consent", from: ["accepted"], to: [], actors: ["lister"], action: "landlord_consent", money: "none", notice: null, guard: beforeSignatures, says: "the lister attests no consent is needed, or asks the landlord (not past a landlord's decline)" },
  { name: "landlord_grant", from: ["accepted"], to: [], actors: ["landlord"], money: "none", notice: { kinds: ["deal_landlord_answered"], to: "both" }, guard: beforeSignatures, says: "the landlord consents (a new agreement version)" },
  { name: "landlord_decline", from: ["accepted"], to: ["cancelled"], actors: ["landlord"], money: "none", notice: { kinds: ["deal_landlord_answered"], to: "both" }, guard: beforeSignatures, says: "the landlord declines: the listing is flagged for 180 days" },
  { name: "agreement_update", from: ["accepted"], to: [], actors: ["renter", "lister"], money: "none", notice: null, guard: beforeSignatures, says: "a party verified since acceptance: the text names them (a new version)" },
  { name: "sign", from: ["accepted"], to: ["signed"], actors: ["renter", "lister"], action: "sign", money: "none", notice: { kinds: ["deal_signature"], to: "other" }, guard: signable, says: "a party signs the version they read; both: signed" },
  // Not an `action` (the Deal's `actions` lists only the contract's names): the lease route makes it by name.
  { name: "lease", from: ["accepted", "signed", "paid", "moved_in", "disputed", "released"], to: [], actors: ["lister"], money: "none", notice: null, duringClaim: true, says: "the lister attaches the original lease, privately (both parties and staff read it)" },
  { name: "pdf_made", from: ["signed", "paid", "moved_in", "disputed", "released", "refunded", "cancelled", "expired"], to: [], actors: ["system"], money: "none", notice: null, duringClaim: true, says: "the signed PDF is stored" },
  // Paying.
  { name: "checkout", from: ["signed"], to: [], actors: ["renter"], action: "checkout", money: "none", notice: null, guard: payable, says: "the renter opens the payment page" },
  { name: "payouts_ready", from: ["signed"], to: [], actors: ["system"], money: "none", notice: { kinds: ["deal_payable"], to: "renter" }, says: "the lister's payouts became ready: the renter is told they can pay" },
  { name: "pay", from: ["signed"], to: ["paid"], actors: ["stripe"], money: "charge", notice: { kinds: ["deal_paid"], to: "lister" }, says: "Stripe: the first month is paid and held" },
  { name: "pay_lost_overlap", from: ["signed"], to: ["cancelled"], actors: ["stripe"], money: "none", notice: { kinds: ["deal_stay_taken"], to: "renter" }, says: "Stripe: paid, but an overlapping stay was paid first (its refund is due)" },
  { name: "pay_after_end", from: ["cancelled", "expired", "declined"], to: [], actors: ["stripe"], money: "none", notice: { kinds: ["deal_payment_refused"], to: "renter" }, says: "Stripe: paid after the deal ended (its refund is due)" },
  { name: "pay_duplicate", from: any, to: [], actors: ["stripe"], money: "none", notice: { kinds: ["deal_duplicate_refunded"], to: "renter" }, says: "Stripe: a second payment, refunded whole before it is recorded" },
  // While the money is held.
  { name: "moved_in", from: ["paid"], to: ["moved_in"], actors: ["renter"], action: "moved_in", money: "none", notice: null, guard: keysOpen, says: "\"I have the keys\": released at the later of the tap and 24 h after payment" },
  { name: "release", from: ["paid", "moved_in"], to: ["released"], actors: ["system"], money: "transfer", notice: { kinds: ["deal_released"], to: "both" }, guard: releaseDue, says: "the rent is transferred to the lister (refused: release_failed, a staff case)" },
  { name: "problem", from: ["paid", "moved_in"], to: ["disputed"], actors: ["renter"], action: "problem", money: "hold", notice: { kinds: ["deal_problem"], to: "both" }, guard: reportable, says: "the renter reports a problem: a staff case" },
  { name: "statement", from: ["disputed"], to: [], actors: ["renter", "lister"], action: "statement", money: "none", notice: null, guard: notStated, duringClaim: true, says: "each party's one statement" },
  { name: "freeze", from: ["paid", "moved_in"], to: ["disputed"], actors: ["system"], money: "hold", notice: { kinds: ["deal_frozen"], to: "renter" }, guard: freezable, says: "the lister is suspended: a staff case" },
  // Cancelling after payment (DEAL_CANCELLATION_POLICY).
  { name: "lister_cancel", from: ["paid"], to: ["cancelled"], actors: ["lister"], action: "cancel", money: "refund", notice: { kinds: ["deal_cancelled_paid"], to: "both" }, guard: listerCancellable, says: "the lister cancels: everything back, fee included" },
  { name: "renter_cancel", from: ["paid"], to: ["cancelled"], actors: ["renter"], action: "cancel", money: "refund", notice: { kinds: ["deal_cancelled_paid"], to: "both" }, guard: renterEarly, says: "the renter cancels 14 days or more before move-in: the rent back" },
  { name: "renter_cancel_late", from: ["paid"], to: [], actors: ["renter"], action: "cancel", money: "hold", notice: { kinds: ["deal_cancellation_asked"], to: "both" }, guard: renterLate, says: "the renter cancels later: the lister decides within 72 h" },
  { name: "cancellation_refund", from: ["paid"], to: ["cancelled"], actors: ["lister"], action: "cancellation_refund", money: "refund_and_transfer", notice: { kinds: ["deal_cancellation_decided"], to: "both" }, guard: decisionOpen, says: "the lister decides: that much rent back, the rest to them" },
  { name: "cancellation_lapse", from: ["paid"], to: ["cancelled"], actors: ["system"], money: "refund", notice: { kinds: ["deal_cancellation_decided"], to: "both" }, guard: decisionLapsed, says: "no decision in 72 h: the rent back in full" },
  // Staff.
  { name: "resolve", from: ["paid", "moved_in", "disputed", "released", "cancelled", "refunded"], to: ["released", "refunded"], actors: ["staff"], action: "resolve", money: "refund_and_transfer", notice: { kinds: ["deal_resolved"], to: "both" }, guard: caseOpen, says: "staff decide a case: that much back, the rest of the rent to the lister" },
  // Stripe's events about the payment.
  { name: "refund_recorded", from: any, to: [], actors: ["stripe"], money: "none", notice: null, says: "Stripe: a refund (ours, or part of one from its dashboard) is recorded" },
  { name: "refunded_in_full", from: ["paid", "moved_in", "disputed", "released"], to: ["refunded"], actors: ["stripe"], money: "none", notice: { kinds: ["deal_refunded"], to: "both" }, says: "Stripe: all of it refunded from its dashboard" },
  { name: "dispute_opened", from: ["paid", "moved_in", "disputed", "released"], to: ["disputed"], actors: ["stripe"], money: "hold", notice: { kinds: ["deal_card_dispute"], to: "both" }, says: "Stripe: a card dispute opens a staff case (after release, the transfer is reversed)" },
  { name: "dispute_won", from: ["disputed"], to: ["paid", "moved_in", "released"], actors: ["stripe"], money: "none", notice: null, says: "Stripe: won, the money is back where it was" },
  { name: "dispute_lost", from: ["paid", "moved_in", "disputed", "released"], to: ["refunded"], actors: ["stripe"], money: "none", notice: { kinds: ["deal_refunded"], to: "both" }, says: "Stripe: lost, the bank returned the money" },
  { name: "dispute_recorded", from: any, to: [], actors: ["stripe"], money: "none", notice: null, says: "Stripe: a dispute of a deal no longer holding money, recorded" },
  { name: "transfer_recorded", from: any, to: [], actors: ["stripe"], money: "none", notice: null, says: "Stripe: a transfer or its reversal is recorded" },
  // The deal jobs' money: what a decision left owed, and a surplus found against Stripe.
  { name: "settle_due", from: any, to: [], actors: ["system"], money: "refund_and_transfer", notice: null, says: "the jobs make a refund or transfer decided earlier (or reverse one a dispute took back)" },
  { name: "reconcile", from: any, to: [], actors: ["system"], money: "reverse", notice: null, says: "the jobs compare with Stripe: a surplus is reversed where Stripe allows, and a staff case either way" },
  // Ends no party chose.
  { name: "expire", from: open, to: ["expired"], actors: ["system"], money: "none", notice: { kinds: ["deal_expired"], to: "both" }, guard: expiryDue, says: "not answered in 72 h, or not paid by move-in" },
  { name: "end", from: open, to: ["cancelled"], actors: ["system"], money: "none", notice: { kinds: ["deal_ended"], to: "both" }, says: "the listing or an account deleted, a party suspended or blocked" },
  { name: "stay_taken", from: open, to: ["declined", "cancelled"], actors: ["system"], money: "none", notice: { kinds: ["deal_stay_taken"], to: "renter" }, says: "another stay of overlapping dates was paid" },
  // After the keys (docs/decisions/040): reviews of a released deal, revealed together; condition reports with proof.
  { name: "review_invite", from: ["released"], to: [], actors: ["system"], money: "none", notice: { kinds: ["deal_review_invite"], to: "both" }, guard: (d, { now }) => due(d.review_invite_due_at, now), duringClaim: true, says: "the jobs invite both parties to review each other (once)" },
  { name: "review", from: ["released"], to: [], actors: ["renter", "lister"], action: "review", money: "none", notice: { kinds: ["deal_reviews_visible"], to: "both" }, guard: reviewable, duringClaim: true, says: "a party reviews the other, once, within 14 days of release; the second review reveals both" },
  { name: "review_remind", from: ["released"], to: [], actors: ["system"], money: "none", notice: { kinds: ["deal_review_reminder"], to: "both" }, guard: (d, { now }) => due(d.review_reminder_due_at, now), duringClaim: true, says: "the jobs remind a party who has not reviewed, 2 days before the window closes" },
  { name: "reviews_reveal", from: ["released"], to: [], actors: ["system"], money: "none", notice: { kinds: ["deal_reviews_visible"], to: "both" }, guard: (d, { now }) => due(d.review_reveal_due_at, now), duringClaim: true, says: "the window ended: whatever was written is revealed" },
  { name: "review_reply", from: ["released"], to: [], actors: ["renter", "lister"], action: "review_reply", money: "none", notice: null, guard: repliable, duringClaim: true, says: "the reviewed party replies once to a visible review" },
  { name: "condition_report", from: ["paid", "moved_in", "disputed", "released"], to: [], actors: ["renter"], action: "condition_report", money: "none", notice: { kinds: ["deal_condition_report"], to: "lister" }, guard: conditionReportable, duringClaim: true, says: "the renter sends the move-in or move-out report within its window (read-only once sent)" },
  { name: "condition_report_comment", from: ["paid", "moved_in", "disputed", "released"], to: [], actors: ["lister"], action: "condition_report_comment", money: "none", notice: null, guard: commentable, duringClaim: true, says: "the lister comments once on a report" },
] as const satisfies readonly TransitionDef[];

export type TransitionName = (typeof DEAL_TRANSITIONS)[number]["name"];
export const TRANSITION = Object.fromEntries(DEAL_TRANSITIONS.map((t) => [t.name, t])) as unknown as Record<TransitionName, TransitionDef>;

/**
 * The notices about money (always sent, whatever a user's settings: services/notify/deal-notices.ts): a
 * kind every transition sending it has a money effect, or is Stripe's (an event about the payment).
 */
export const MONEY_NOTICES: ReadonlySet<DealNotice> = new Set(
  DEAL_NOTICES.filter((kind) => {
    const senders = (DEAL_TRANSITIONS as readonly TransitionDef[]).filter((t) => t.notice?.kinds.includes(kind));
    return senders.length > 0 && senders.every((t) => t.money !== "none" || t.actors.includes("stripe"));
  }),
);

/** Why `as` cannot make `name` now (the state, the actor, the claim, then the guard), or null when it can. */
export function refusal(name: TransitionName, d: DealFacts, ctx: GuardContext): { status: 403 | 409; detail: string } | null {
  const t = TRANSITION[name];
  if (!t.from.includes(d.status)) return { status: 409, detail: M.wrongState(d.status) };
  if (!t.actors.includes(ctx.as)) return { status: 403, detail: t.actors.includes("lister") ? M.onlyLister : t.actors.includes("renter") ? M.onlyRenter : M.notYours };
  if (d.claim_id && !t.duringClaim) return { status: 409, detail: P.moneyMoving };
  const why = t.guard?.(d, ctx) ?? null;
  return why ? { status: 409, detail: why } : null;
}

/**
 * The transition a route's `action` makes for `as` now (`cancel` is a withdrawal, a cancellation before
 * paying, or one of the policy's after it): the first declared one open to them; when none is, the
 * refusal of the one that fits the state and the actor best (so the 409 or 403 says why).
 */
export function chooseTransition(action: DealAction, d: DealFacts, ctx: GuardContext): { name: TransitionName } | { refused: { status: 403 | 409; detail: string } } {
  const candidates = (DEAL_TRANSITIONS as readonly TransitionDef[]).filter((t) => t.action === action).map((t) => t.name as TransitionName);
  let best: { status: 403 | 409; detail: string } | null = null;
  let bestRank = -1;
  for (const name of candidates) {
    const no = refusal(name, d, ctx);
    if (!no) return { name };
    const t = TRANSITION[name];
    // A guard's refusal (state and actor fit) says most; then a wrong actor in the right state; then the state.
    const rank = t.from.includes(d.status) ? (t.actors.includes(ctx.as) ? 2 : 1) : 0;
    if (rank > bestRank) [best, bestRank] = [no, rank];
  }
  return { refused: best ?? { status: 409, detail: M.wrongState(d.status) } };
}

/** The actions `as` may take now (the Deal's `actions`): every declared transition with a route that is open to them. */
export function actionsFor(d: DealFacts, as: Actor, now: number): DealAction[] {
  const out = new Set<DealAction>();
  for (const t of DEAL_TRANSITIONS as readonly TransitionDef[]) if (t.action && !refusal(t.name as TransitionName, d, { now, as })) out.add(t.action);
  return [...out];
}

// ---------------------------------------------------------------------------------------------
// Timers: the deal jobs run each due transition (the cron, and POST dev/deals/tick as of a time).

export interface TimerDef {
  name: string;
  /** The states it watches. */
  on: readonly DealStatus[];
  /** The deal's column holding when it is due. */
  at: "expires_at" | "held_until" | "cancel_decide_by" | "review_invite_due_at" | "review_reminder_due_at" | "review_reveal_due_at";
  /** Equalities a due row also meets (so the timer's partial index serves the query). */
  where?: Partial<Record<"payment_status", string>>;
  transition: TransitionName;
}

export const DEAL_TIMERS = [
  { name: "expiry", on: open, at: "expires_at", transition: "expire" },
  { name: "release", on: DEAL_GROUPS.held, at: "held_until", where: { payment_status: "held" }, transition: "release" },
  { name: "lister_decision", on: ["paid"], at: "cancel_decide_by", transition: "cancellation_lapse" },
  // After the keys (docs/decisions/040): "leave a review", its reminder, and the reveal when the window ends.
  { name: "review_invite", on: ["released"], at: "review_invite_due_at", transition: "review_invite" },
  { name: "review_reminder", on: ["released"], at: "review_reminder_due_at", transition: "review_remind" },
  { name: "review_window", on: ["released"], at: "review_reveal_due_at", transition: "reviews_reveal" },
] as const satisfies readonly TimerDef[];

/**
 * Entering `released` the first time opens the review window (docs/decisions/040): the engine adds these
 * facts to the transition that releases (a release, staff's resolution, a won dispute), so the three
 * review timers above start from the release, whoever made it.
 */
export function reviewWindowOpening(nowMs: number) {
  const iso = (ms: number) => new Date(ms).toISOString();
  const ends = nowMs + REVIEW_TIMING.windowMs;
  return {
    review_window_ends_at: iso(ends),
    review_invite_due_at: iso(nowMs),
    review_reminder_due_at: iso(ends - REVIEW_TIMING.reminderBeforeEndMs),
    review_reveal_due_at: iso(ends),
  };
}

// ---------------------------------------------------------------------------------------------
// Whose step it is.

export interface WaitingFor {
  party: "renter" | "lister" | "landlord" | "staff" | null;
  step: string;
  detail: string;
}

const dayText = (iso: string) => new Date(iso).toISOString().slice(0, 10);
/** "Jun 3, 2027, 12:00 AM EDT": a moment of the deal in its own time zone, named (the same for every reader). */
export const dealMoment = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone, month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(new Date(iso));

/**
 * Whose step the deal waits for, as `as` reads it (a party, or staff): computed from the same facts and
 * guards the engine enforces, so no client re-derives the rules. A party whose identity is not verified
 * reads it from the request on (`id_verification`), not first at signing.
 */
export function waitingFor(d: DealFacts, as: Actor, now: number): WaitingFor {
  const renter = d.renter_first_name ?? "The renter";
  const lister = d.lister_first_name ?? "The lister";
  const you = (role: "renter" | "lister") => as === role;
  const unverified = (["renter", "lister"] as const).filter((r) => !(r === "renter" ? d.renter_verified : d.lister_verified));
  const idStep = (who: "renter" | "lister"): WaitingFor => ({
    party: who,
    step: "id_verification",
    detail: you(who)
      ? "Verify your identity (Profile, ID verification): both of you need a verified ID before the agreement can be signed."
      : `Waiting for ${who === "renter" ? renter : lister}'s ID review: both of you need a verified ID before the agreement can be signed.`,
  });
  if (d.claim_id) return { party: null, step: "money_moving", detail: "A payment step is being made right now. This takes a moment." };
  switch (d.status) {
    case "requested": {
      const mine = as === "renter" || as === "lister" ? (as as "renter" | "lister") : null;
      if (mine && unverified.includes(mine)) return idStep(mine);
      const also = unverified.length ? ` ${unverified.map((r) => (r === "renter" ? renter : lister)).join(" and ")} must also verify their identity before signing.` : "";
      return { party: "lister", step: "accept", detail: `${you("lister") ? "Accept or decline this request" : `Waiting for ${lister} to accept or decline`} (a request is open for ${DEAL_TIMING.requestTtlMs / 3_600_000} hours).${also}` };
    }
    case "accepted": {
      const first = unverified.find((r) => you(r)) ?? unverified[0];
      if (first) return idStep(first);
      if (d.landlord_consent === "none" || d.landlord_consent === "declined") {
        const flagged = d.landlord_declined_at
          ? ` The landlord of this place declined a sublease on ${dayText(d.landlord_declined_at)}: until ${DEAL_TIMING.landlordDeclineHoldsMs / 86_400_000} days after that, only that landlord's consent opens signing.`
          : "";
        return { party: "lister", step: "landlord_consent", detail: `${you("lister") ? "Settle the landlord's consent: say your lease allows subletting, or ask your landlord." : `Waiting for ${lister} to settle the landlord's consent.`}${flagged}` };
      }
      if (d.landlord_consent === "requested") return { party: "landlord", step: "landlord_consent", detail: "Waiting for the landlord to answer the consent request." };
      const unsigned = (["renter", "lister"] as const).filter((r) => !(r === "renter" ? d.renter_signed_at : d.lister_signed_at));
      const next = unsigned.find((r) => you(r)) ?? unsigned[0] ?? "renter";
      return { party: next, step: "sign", detail: you(next) ? "Read and sign the agreement." : `Waiting for ${next === "renter" ? renter : lister} to sign.` };
    }
    case "signed":
      if (d.lister_payout_status !== "ready") return { party: "lister", step: "payouts", detail: you("lister") ? `Set up payouts so ${renter} can pay.` : `Waiting for ${lister} to set up payouts.` };
      return { party: "renter", step: "payment", detail: you("renter") ? "Pay the first month through CampusNest: it is held until you move in." : `Waiting for ${renter} to pay the first month.` };
    case "paid":
    case "moved_in": {
      if (d.cancel_decide_by) {
        return {
          party: "lister",
          step: "cancellation_refund",
          detail: `${you("renter") ? "You" : renter} cancelled. ${you("lister") ? "Decide" : `${lister} decides`} how much of the rent goes back by ${dealMoment(d.cancel_decide_by, d.time_zone)}; without an answer, all of it does.`,
        };
      }
      if (d.payment_status === "release_failed") return { party: "staff", step: "release_failed", detail: `The transfer to ${lister} did not go through. CampusNest staff are looking into it; the money is safe with us.` };
      const at = d.held_until ? ` until ${dealMoment(d.held_until, d.time_zone)}` : "";
      if (d.status === "paid" && localDate(now, d.time_zone) >= d.move_in) {
        return { party: "renter", step: "moved_in", detail: `Held by CampusNest${at}. ${you("renter") ? "Tap “I have the keys” once you are in" : `${renter} taps “I have the keys” once in`}, or report a problem.` };
      }
      return { party: null, step: "hold", detail: `Held by CampusNest${at}.` };
    }
    case "disputed":
      if (d.dispute_status === "open") return { party: null, step: "card_dispute", detail: "A card dispute is open: the bank decides where this payment goes." };
      return { party: "staff", step: "case", detail: "CampusNest staff are looking into it; nothing is released until they decide. Both of you can add a statement." };
    default:
      if (d.case_reason) return { party: "staff", step: "case", detail: "CampusNest staff are checking this deal's money." };
      return { party: null, step: "ended", detail: `This deal is ${d.status.replace("_", " ")}.` };
  }
}

// ---------------------------------------------------------------------------------------------
// What the deal's record says happened (deal_events, append-only): one typed union.

export interface DealEventDetails {
  requested: undefined;
  accepted: undefined;
  declined: { reason?: string | null };
  cancelled: { reason?: string | null; refund_cents?: number; refunded_cents?: number };
  expired: { reason: string };
  viewed: undefined;
  esign_consent: undefined;
  signed: { typed_name: string };
  completed: undefined;
  pdf_made: undefined;
  landlord_consent_requested: { landlord_name: string };
  landlord_consent_not_needed: undefined;
  landlord_consent_granted: { landlord_name: string; reason?: string };
  landlord_consent_declined: { landlord_name: string; reason?: string };
  checkout_started: { session: string };
  paid: { payment_intent: string; cents: number };
  payment_refused: { reason: string };
  duplicate_payment_refunded: { payment_intent: string };
  moved_in: { held_until: string };
  released: { transfer_id: string | null; cents: number };
  release_failed: { reason: string };
  problem_reported: { kind: string };
  lease_attached: { url: string };
  statement_added: undefined;
  frozen: { reason: "suspension" };
  cancellation_requested: { reason?: string | null };
  cancellation_decided: { refund_cents: number; transfer_cents: number; lapsed: boolean; reason?: string | null };
  resolved: { refund_cents: number; transfer_cents: number; staff: string; reason?: string | null };
  refunded: { cents: number; by: "stripe" | "bank" };
  card_dispute: { dispute: string; cents?: number; after_release?: boolean; late?: boolean };
  card_dispute_won: { dispute: string; cents: number };
  card_dispute_lost: { dispute: string; cents: number };
  money_settled: { op: string; refunded_cents: number; transferred_cents: number };
  surplus_found: { surplus_cents: number; refunded_cents: number; transferred_cents: number; paid_cents: number };
  reviewed: { review_id: string; rating: number };
  review_replied: { review_id: string };
  reviews_revealed: { reviews: number; by: "both_written" | "window_end" };
  condition_report: { phase: ConditionPhase; rooms: number; problem_rooms: number };
  condition_report_comment: { phase: ConditionPhase };
}
export type DealEventType = keyof DealEventDetails;
/** One event: its type and, for the types that carry them, its details. */
export type DealEvent = { [K in DealEventType]: DealEventDetails[K] extends undefined ? { type: K; details?: undefined } : { type: K; details: DealEventDetails[K] } }[DealEventType];

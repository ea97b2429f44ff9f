/**
 * A deal's money (docs/decisions/029): Stripe's platform events applied once, in any order, as one
 * compare-and-set on deals.version each (decision 013's pattern through deals' `transition()`), and the
 * money we move ourselves: refunds and the transfer that releases the rent to the lister.
 *
 * Crash safety: a refund is decided first (the deal's `refund_due_cents`, under the version), then made
 * at Stripe (asking first what Stripe already refunded), then confirmed; the cron retries any gap. A
 * release asks Stripe for the deal's transfer group's transfers first and sends only what is owed, then
 * writes; a crash between Stripe's answer and our write is repaired by the rerun (or by `transfer.created`).
 *
 * Without Stripe keys (development only) refunds and transfers are simulated: their events are signed with
 * the development webhook secret and applied through the webhook's own entry, as Stripe would send them.
 */
import { DEAL_REASONS, PAYMENT_MESSAGES, TAKEN, firstPayment, releaseTime, shortDate } from "../../contract/deals";
import type { Config } from "../../env";
import { primaryOf, type Db } from "../../db/client";
import { NO_OVERLAP, eventStatement, findDeal, type DealRow, type DealSet, type GuardedStatement } from "../../db/queries/deals";
import { completeDealCheckoutSessionStatement, dealIdOfPayment, dealStripeEventStatement, releaseListingStatement, takeListingStatement } from "../../db/queries/deal-payments";
import { apiError, badRequest, conflict, isUniqueViolation } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { notify } from "../notify";
import type { DealMoneyStep } from "../notify/events";
import { payoutAccountOf } from "../payouts";
import { stripeConfigured } from "../stripe/client";
import { acknowledgeEvent, eventAlreadyApplied } from "../stripe/once";
import { MalformedEventError, signWebhookPayload, verifiedEvent, type StripeEventEnvelope } from "../stripe/webhook";
import { declineOverlappingDeals, publishDeal, transition, type Effects } from "../deals";
import { purgeListingCache } from "../edge-cache";
import { readDealEvent, testChargeRefunded, testTransfer, type DealEventFacts } from "./events";
import { chargeOfPaymentIntent, dealOfCharge, refundUpTo, refundWholePayment, reverseTransfer, transferUpTo } from "./stripe";

export type { Effects };

/** Where the money is still with us (held): a release or a card dispute acts on these. */
export const HELD = ["paid", "moved_in"] as const;
const isHeld = (d: DealRow) => (HELD as readonly string[]).includes(d.status);

const ev = (type: string, at: string, details?: unknown, actor: { id: string | null; role: string } = { id: null, role: "system" }) =>
  ({ type, actorId: actor.id, actorRole: actor.role, at, ip: null, userAgent: null, details });

export const usesStripe = (config: Config) => stripeConfigured(config.stripe);
/** Moving money needs Stripe, or development's simulation. */
export function requireMoneyPath(config: Config) {
  if (!usesStripe(config) && !config.isDevelopment) throw apiError(503, { detail: PAYMENT_MESSAGES.paymentsUnavailable });
}

/** What the lister is owed in all: the rent paid, less what goes back to the renter out of it. */
export const owedToLister = (d: Pick<DealRow, "paid_rent_cents" | "refund_due_cents">) => Math.max(0, d.paid_rent_cents - d.refund_due_cents);
const netTransferred = (d: Pick<DealRow, "transferred_cents" | "transfer_reversed_cents">) => d.transferred_cents - d.transfer_reversed_cents;

/** A party's money email (and the room event), after the answer. */
export function tell(db: Db, fx: Effects, d: DealRow, to: ("renter" | "lister")[], step: DealMoneyStep, subject: string, lines: string[]) {
  fx.defer(
    (async () => {
      try {
        await publishDeal(fx, d);
        for (const role of to) {
          await notify({ db, env: fx.env, config: fx.config }, { userId: role === "renter" ? d.renter_id : d.lister_id }, { kind: "deal_money", dealId: d.id, step, subject, lines });
        }
      } catch (err) {
        log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" });
      }
    })(),
  );
}

/** Staff get a case (an email to the support address); the case itself is the deal's state. */
export function openCase(db: Db, fx: Effects, d: DealRow, reason: string) {
  fx.defer(
    notify({ db, env: fx.env, config: fx.config }, { address: fx.config.supportEmail, firstName: "" }, { kind: "deal_case_opened", dealId: d.id, title: d.listing_title, reason }).catch(() => undefined),
  );
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

// ---------------------------------------------------------------------------------------------
// Development: simulated money, delivered as signed events through the webhook's entry.

async function deliverSimulated(db: Db, fx: Effects, event: object) {
  const payload = JSON.stringify(event);
  const signature = await signWebhookPayload(fx.config.stripe.webhookSecret, payload);
  await applyDealEvent(db, fx, await verifiedEvent(fx.config.stripe, payload, signature));
}

// ---------------------------------------------------------------------------------------------
// Refunds: decided under the version, then made, then confirmed.

/**
 * Makes the refund the deal's record says is due (refund_due_cents) at Stripe, or simulates it, and
 * records Stripe's total. A failure is logged and left to the cron (the decision is already recorded).
 */
export async function settleRefund(db: Db, fx: Effects, dealId: string): Promise<DealRow | null> {
  const d = await findDeal(primaryOf(db), dealId);
  if (!d || d.refund_due_cents <= d.refunded_cents || !d.payment_intent_id) return d;
  try {
    if (usesStripe(fx.config)) {
      const total = await refundUpTo(fx.config.stripe, d.id, d.payment_intent_id, d.refund_due_cents);
      await recordFacts(db, d.id, (x) => (x.refunded_cents >= total ? null : { refunded_cents: total }));
    } else {
      await deliverSimulated(db, fx, testChargeRefunded({ chargeId: d.charge_id ?? `ch_test_${d.id}`, paymentIntentId: d.payment_intent_id, dealId: d.id, amount: d.paid_cents, amountRefunded: d.refund_due_cents }));
    }
  } catch (err) {
    log.error("deal_refund_failed", { deal_id: d.id, message: err instanceof Error ? err.message : "unknown" });
    return d;
  }
  return findDeal(primaryOf(db), dealId);
}

/** A fact-only change (no state): applied under the version; `change` answers null when nothing is left to write. */
async function recordFacts(db: Db, dealId: string, change: (d: DealRow) => DealSet | null, statements: (d: DealRow) => GuardedStatement[] = () => []) {
  const now = isoNow();
  try {
    await transition(
      db,
      dealId,
      (d) => {
        const set = change(d);
        if (!set) throw new NothingToDo();
        return { set, statements: statements(d) };
      },
      now,
    );
  } catch (err) {
    if (!(err instanceof NothingToDo)) throw err;
  }
}
class NothingToDo extends Error {}

// ---------------------------------------------------------------------------------------------
// Transfers: the release.

export class TransferFailed extends Error {}

/**
 * Sends the lister what the record says they are owed, less what the deal's transfer group already holds
 * (Stripe is asked first); simulated in development. Answers the transfer, or null when nothing was owed.
 */
async function ensureTransfer(db: Db, fx: Effects, d: DealRow): Promise<Transfer | null> {
  const owed = owedToLister(d);
  if (owed <= netTransferred(d) && d.transfer_id) return { id: d.transfer_id, net: netTransferred(d) };
  if (owed <= 0) return null;
  const payout = await payoutAccountOf(db, d.lister_id);
  if (!payout || payout.status !== "ready") throw new TransferFailed("The lister's payout account cannot receive transfers");
  if (usesStripe(fx.config)) {
    try {
      const refusedBefore = await countEvents(db, d.id, "release_failed");
      return await transferUpTo(fx.config.stripe, { dealId: d.id, destination: payout.stripeAccountId, chargeId: d.charge_id, currency: "usd", owedCents: owed, refusedBefore });
    } catch (err) {
      // Stripe refused (a restricted account, a balance problem): staff get a case. A network failure is retried.
      const type = (err as { type?: string }).type;
      if (type === "StripeInvalidRequestError" || type === "StripePermissionError") throw new TransferFailed(err instanceof Error ? err.message : "refused");
      throw err;
    }
  }
  // Development: Stripe's answer now, its transfer.created after our write (as Stripe's would arrive).
  // One id per attempt, as Stripe's idempotency key makes one transfer of two racing releases.
  const id = `tr_test_${d.id}_${d.transferred_cents}_${owed}`;
  const event = testTransfer("transfer.created", { transferId: id, dealId: d.id, amount: owed - netTransferred(d), destination: payout.stripeAccountId, chargeId: d.charge_id });
  return { id, net: owed, announce: () => deliverSimulated(db, fx, event) };
}

interface Transfer {
  id: string;
  net: number;
  /** Development: delivers the simulated transfer.created (after the caller's write). */
  announce?: () => Promise<void>;
}

const countEvents = (db: Db, dealId: string, type: string) =>
  db.$client
    .prepare(`SELECT count(*) AS n FROM deal_events WHERE deal_id = ? AND type = ?`)
    .bind(dealId, type)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

export interface ReleaseOptions {
  /** Who released: the schedule (cron or tick), the renter's "I have the keys", staff. */
  by: { id: string | null; role: "system" | "renter" | "staff" };
  /** A crash test's seam: runs after Stripe answered, before our write. */
  afterTransfer?: () => void | Promise<void>;
}

/**
 * Releases a held deal: the transfer (asking Stripe first what the group holds), then the write. A
 * refused transfer leaves payment `release_failed` and a staff case. Safe to repeat and to race: the
 * same transfer is found again, and the write applies once.
 */
export async function releaseHeld(db: Db, fx: Effects, dealId: string, nowMs: number, opts: ReleaseOptions): Promise<DealRow | null> {
  const d = await findDeal(primaryOf(db), dealId);
  if (!d || !isHeld(d) || d.payment_status !== "held" || d.cancel_decide_by) return d;
  let transfer: Transfer | null;
  try {
    transfer = await ensureTransfer(db, fx, d);
  } catch (err) {
    if (!(err instanceof TransferFailed)) throw err;
    return releaseFailed(db, fx, dealId, err.message, nowMs);
  }
  await opts.afterTransfer?.();
  const now = isoNow(nowMs);
  let changed = false;
  await recordFacts(
    db,
    dealId,
    (x) => {
      changed = false;
      const facts: DealSet = transfer && x.transfer_id !== transfer.id ? { transfer_id: transfer.id, transferred_cents: Math.max(x.transferred_cents, transfer.net) } : {};
      if (isHeld(x) && (x.payment_status === "held" || x.payment_status === "release_failed") && !x.cancel_decide_by) {
        changed = true;
        return { ...facts, status: "released", payment_status: "released", released_at: now, case_reason: null };
      }
      return Object.keys(facts).length ? facts : null;
    },
    (x) => (isHeld(x) ? [eventStatement(x.id, ev("released", now, { transfer_id: transfer?.id ?? null, cents: transfer?.net ?? 0 }, opts.by))] : []),
  );
  await transfer?.announce?.();
  let out = (await findDeal(primaryOf(db), dealId))!;
  if (!changed && transfer && out.status === "disputed" && out.transfer_id === transfer.id) {
    // A problem or a dispute won the race against this release: the money goes back on hold with us.
    await reverseAndRecord(db, fx, out);
    out = (await findDeal(primaryOf(db), dealId))!;
  }
  if (changed) {
    tell(db, fx, out, ["renter", "lister"], "released", `Released: "${out.listing_title}"`, [
      `The first month's rent (${usd(owedToLister(out))}) was released to the lister${opts.by.role === "renter" ? " after the renter confirmed they have the keys" : ""}.`,
    ]);
  }
  return out;
}

/** A refused transfer: payment `release_failed`, a staff case (the money stays held). */
async function releaseFailed(db: Db, fx: Effects, dealId: string, why: string, nowMs: number): Promise<DealRow | null> {
  const now = isoNow(nowMs);
  let opened = false;
  await recordFacts(
    db,
    dealId,
    (x) => {
      opened = x.payment_status !== "release_failed";
      return opened ? { payment_status: "release_failed", case_reason: "release_failed" } : null;
    },
    (x) => [eventStatement(x.id, ev("release_failed", now, { reason: why }))],
  );
  const out = await findDeal(primaryOf(db), dealId);
  if (out && opened) openCase(db, fx, out, "release_failed");
  return out;
}

/**
 * After a decision that leaves the lister owed something (staff's partial refund, a lister's late
 * cancellation decision, a won card dispute after a reversal): the transfer of what is owed, recorded.
 */
export async function settleTransfer(db: Db, fx: Effects, dealId: string): Promise<void> {
  const d = await findDeal(primaryOf(db), dealId);
  if (!d || d.payment_status !== "released" || owedToLister(d) <= netTransferred(d)) return;
  try {
    const t = await ensureTransfer(db, fx, d);
    if (t) await recordFacts(db, dealId, (x) => (x.transfer_id === t.id && netTransferred(x) >= t.net ? null : { transfer_id: t.id, transferred_cents: Math.max(x.transferred_cents, t.net + x.transfer_reversed_cents) }));
    await t?.announce?.();
  } catch (err) {
    if (err instanceof TransferFailed) {
      await releaseFailed(db, fx, dealId, err.message, Date.now());
      return;
    }
    log.error("deal_transfer_failed", { deal_id: dealId, message: err instanceof Error ? err.message : "unknown" });
  }
}

// ---------------------------------------------------------------------------------------------
// Applying Stripe's events.

export interface DealWebhookResult {
  applied: boolean;
  reason?: "duplicate" | "ignored";
}

/** Thrown inside a plan when Stripe must be told something before the event is recorded (then the plan runs again). */
class StripeFirst extends Error {
  constructor(readonly act: () => Promise<unknown>) {
    super("stripe first");
  }
}

const PAYMENT_NOT_YET = "The payment this event is about is not recorded yet; Stripe will deliver it again";

/**
 * One verified event of a deal, applied once (its id recorded in the same batch as its effect) as a
 * compare-and-set on the deal. An event about a payment we have not recorded yet (a dispute or a refund
 * before its checkout's completion) answers 409 unrecorded, so Stripe delivers it again later: the end
 * state is the one of in-order delivery.
 */
export async function applyDealEvent(db: Db, fx: Effects, event: StripeEventEnvelope): Promise<DealWebhookResult> {
  let facts: DealEventFacts | null;
  try {
    facts = readDealEvent(event);
  } catch (err) {
    if (err instanceof MalformedEventError) throw badRequest(`Malformed ${event.type} event: ${err.message}`);
    throw err;
  }
  if (await eventAlreadyApplied(db, event.id)) return { applied: false, reason: "duplicate" };
  const dealId = facts ? await dealIdOf(db, fx.config, facts) : null;
  if (!facts || !dealId || !(await findDeal(primaryOf(db), dealId))) {
    await acknowledgeEvent(db, event.id, event.type);
    return { applied: false, reason: "ignored" };
  }
  if (facts.kind === "checkout" && facts.paid && !facts.chargeId && usesStripe(fx.config)) {
    // A session names its payment intent only; the charge (the transfer's source) is read once here.
    facts = { ...facts, chargeId: await chargeOfPaymentIntent(fx.config.stripe, facts.paymentIntentId!).catch(() => {
      throw apiError(502, { detail: "Could not read the payment from Stripe. Please retry." });
    }) };
  }
  const f = facts;
  const nowMs = Date.now();
  const now = isoNow(nowMs);
  const record = dealStripeEventStatement(event.id, event.type);
  const io = stripeFirstCalls(db, fx);
  let outcome: Outcome = { kind: "none" };
  for (let round = 0; round < 4; round++) {
    try {
      const { after: d } = await transition(
        db,
        dealId,
        (d) => {
          const p = planFor(d, f, now, io);
          outcome = p.outcome;
          return { set: p.set, statements: [record, ...(p.statements ?? [])], condition: p.condition };
        },
        now,
      );
      await followEvent(db, fx, d, outcome, nowMs);
      return { applied: true };
    } catch (err) {
      if (err instanceof StripeFirst) {
        try {
          await err.act();
        } catch (stripeErr) {
          log.error("deal_stripe_call_failed", { deal_id: dealId, message: stripeErr instanceof Error ? stripeErr.message : "unknown" });
          throw apiError(502, { detail: "Could not reach Stripe for this event. Please retry." });
        }
        continue;
      }
      if (err instanceof OverlapLost) {
        // Another deal paid for overlapping dates first: this payment is refunded in full, the deal cancelled.
        const { after: d } = await transition(db, dealId, (d) => {
          const p = lostToOverlap(d, f as CheckoutFacts, now);
          outcome = p.outcome;
          return { set: p.set, statements: [record, ...(p.statements ?? [])] };
        }, now);
        await followEvent(db, fx, d, outcome, nowMs);
        return { applied: true };
      }
      if (isUniqueViolation(err) && (await eventAlreadyApplied(db, event.id))) return { applied: false, reason: "duplicate" };
      throw err;
    }
  }
  throw apiError(503, { detail: "The deal is changing right now. Please try again." });
}

async function dealIdOf(db: Db, config: Config, f: DealEventFacts): Promise<string | null> {
  switch (f.kind) {
    case "checkout":
      return f.dealId;
    case "transfer":
      return f.dealId;
    case "refund":
      return f.dealId ?? (await dealIdOfPayment(db, f.paymentIntentId ?? undefined, f.chargeId));
    case "dispute": {
      const known = await dealIdOfPayment(db, f.paymentIntentId ?? undefined, f.chargeId ?? undefined);
      if (known || !f.chargeId || !usesStripe(config)) return known;
      // A dispute names only the charge: its deal is the charge's transfer group.
      return dealOfCharge(config.stripe, f.chargeId).catch(() => {
        throw apiError(502, { detail: "Could not read the disputed charge from Stripe. Please retry." });
      });
    }
  }
}

type CheckoutFacts = Extract<DealEventFacts, { kind: "checkout" }>;
type Outcome =
  | { kind: "none" }
  | { kind: "paid" }
  | { kind: "refund_due"; why: "stay_taken" | "late" | "bank" | "stripe" }
  | { kind: "disputed" }
  | { kind: "dispute_won"; released: boolean }
  | { kind: "released" };

interface EventPlan {
  set: DealSet;
  statements?: GuardedStatement[];
  condition?: { statement: GuardedStatement; error: () => Error };
  outcome: Outcome;
}

class OverlapLost extends Error {}

const NOTHING: EventPlan = { set: {}, outcome: { kind: "none" } };

function planFor(d: DealRow, f: DealEventFacts, now: string, io: StripeFirstCalls): EventPlan {
  switch (f.kind) {
    case "checkout":
      return planCheckout(d, f, now, io);
    case "refund":
      return planRefund(d, f, now);
    case "dispute":
      return planDispute(d, f, now, io);
    case "transfer":
      return planTransfer(d, f, now);
  }
}

function planCheckout(d: DealRow, f: CheckoutFacts, now: string, io: StripeFirstCalls): EventPlan {
  if (!f.paid) return NOTHING;
  const pi = f.paymentIntentId!;
  if (d.payment_intent_id === pi) return NOTHING;
  if (d.payment_intent_id) {
    // A second payment of the same deal (two tabs, Back): refunded in full before the event is recorded.
    if (!io.refunded.has(pi)) throw new StripeFirst(() => io.refundDuplicate(d, pi));
    return { set: {}, statements: [eventStatement(d.id, ev("duplicate_payment_refunded", now, { payment_intent: pi }))], outcome: { kind: "none" } };
  }
  const pay = firstPayment(d.monthly_rent, d.move_in, d.move_out, d.fee_percent ?? 0);
  const paidCents = f.amountTotal ?? pay.total_cents;
  const facts = { payment_intent_id: pi, charge_id: f.chargeId, paid_cents: paidCents, paid_rent_cents: Math.min(pay.rent_cents, paidCents), paid_at: now };
  if (d.status !== "signed") {
    // Paid after the deal ended (a checkout tab left open past expiry or a cancel): refunded in full.
    return {
      set: { ...facts, payment_status: "refunded", refund_due_cents: paidCents },
      statements: [completeDealCheckoutSessionStatement(f.sessionId, now), eventStatement(d.id, ev("payment_refused", now, { reason: d.status }))],
      outcome: { kind: "refund_due", why: "late" },
    };
  }
  const heldUntil = releaseTime(d.move_in, d.time_zone);
  const statements: GuardedStatement[] = [completeDealCheckoutSessionStatement(f.sessionId, now), eventStatement(d.id, ev("paid", now, { payment_intent: pi, cents: paidCents }))];
  if (d.listing_id) statements.push(takeListingStatement(d.listing_id, d.move_in, d.move_out, now));
  return {
    set: { ...facts, status: "paid", status_reason: null, payment_status: "held", held_until: heldUntil, expires_at: null, listing_taken: {
        sql: `CASE WHEN EXISTS (SELECT 1 FROM listings WHERE id = ? AND status = 'taken' AND available_from >= ? AND available_to <= ?) THEN 1 ELSE 0 END`,
        params: [d.listing_id, d.move_in, d.move_out],
      },
    },
    statements,
    // The first payment applied wins the dates: no other deal of the listing holds an overlapping paid stay.
    condition: d.listing_id ? { statement: { sql: NO_OVERLAP(TAKEN), params: [d.listing_id, d.move_out, d.move_in, d.id] }, error: () => new OverlapLost() } : undefined,
    outcome: { kind: "paid" },
  };
}

function lostToOverlap(d: DealRow, f: CheckoutFacts, now: string): EventPlan {
  const pay = firstPayment(d.monthly_rent, d.move_in, d.move_out, d.fee_percent ?? 0);
  const paidCents = f.amountTotal ?? pay.total_cents;
  if (d.payment_intent_id === f.paymentIntentId) return NOTHING;
  return {
    set: {
      status: d.status === "signed" ? "cancelled" : d.status,
      status_reason: d.status === "signed" ? DEAL_REASONS.stayTaken : d.status_reason,
      expires_at: null,
      payment_intent_id: f.paymentIntentId,
      charge_id: f.chargeId,
      paid_cents: paidCents,
      paid_rent_cents: Math.min(pay.rent_cents, paidCents),
      paid_at: now,
      payment_status: "refunded",
      refund_due_cents: paidCents,
    },
    statements: [completeDealCheckoutSessionStatement(f.sessionId, now), eventStatement(d.id, ev("cancelled", now, { reason: DEAL_REASONS.stayTaken, refunded_cents: paidCents }))],
    outcome: { kind: "refund_due", why: "stay_taken" },
  };
}

function planRefund(d: DealRow, f: Extract<DealEventFacts, { kind: "refund" }>, now: string): EventPlan {
  if (!d.payment_intent_id) throw conflict(PAYMENT_NOT_YET);
  if ((f.paymentIntentId && f.paymentIntentId !== d.payment_intent_id) || (d.charge_id && f.chargeId !== d.charge_id && !f.paymentIntentId)) return NOTHING; // a duplicate's refund
  const amount = f.amountRefunded;
  if (amount <= d.refunded_cents && amount <= d.refund_due_cents) return NOTHING;
  const set: DealSet = { refunded_cents: Math.max(d.refunded_cents, amount) };
  const statements: GuardedStatement[] = [];
  let outcome: Outcome = { kind: "none" };
  if (amount > d.refund_due_cents) {
    // A refund made outside CampusNest (Stripe's dashboard): it counts; all of it ends the deal as refunded.
    set.refund_due_cents = amount;
    if (amount >= d.paid_cents && (isHeld(d) || d.status === "disputed")) {
      Object.assign(set, { status: "refunded", payment_status: "refunded", case_reason: null });
      statements.push(eventStatement(d.id, ev("refunded", now, { cents: amount, by: "stripe" })));
      if (d.listing_taken && d.listing_id) statements.push(releaseListingStatement(d.listing_id, now));
      outcome = { kind: "refund_due", why: "stripe" };
    }
  }
  return { set, statements, outcome };
}

function planDispute(d: DealRow, f: Extract<DealEventFacts, { kind: "dispute" }>, now: string, io: StripeFirstCalls): EventPlan {
  if (!d.payment_intent_id) throw conflict(PAYMENT_NOT_YET);
  if (f.paymentIntentId && f.paymentIntentId !== d.payment_intent_id) return NOTHING;
  const final = d.dispute_id === f.disputeId && (d.dispute_status === "won" || d.dispute_status === "lost");
  // A dispute's outcome is final: its `created` arriving late changes nothing but the record that it was opened.
  if (final) return f.status === "open" ? { set: {}, statements: [eventStatement(d.id, ev("card_dispute", now, { dispute: f.disputeId, cents: f.amount, late: true }))], outcome: { kind: "none" } } : NOTHING;
  const facts = { dispute_id: f.disputeId, dispute_status: f.status };
  if (f.status === "open") {
    if (d.dispute_id === f.disputeId) return NOTHING;
    if (isHeld(d) || d.status === "disputed") {
      return {
        set: { ...facts, status: "disputed", payment_status: "disputed", case_reason: "card_dispute" },
        statements: [eventStatement(d.id, ev("card_dispute", now, { dispute: f.disputeId, cents: f.amount }))],
        outcome: { kind: "disputed" },
      };
    }
    if (d.status === "released") {
      // After release: the transfer is reversed where it can be (before the event is recorded).
      if (d.transfer_id && netTransferred(d) > 0) throw new StripeFirst(() => io.reverse(d));
      return {
        set: { ...facts, status: "disputed", payment_status: "disputed", case_reason: "card_dispute" },
        statements: [eventStatement(d.id, ev("card_dispute", now, { dispute: f.disputeId, cents: f.amount, after_release: true }))],
        outcome: { kind: "disputed" },
      };
    }
    return { set: facts, statements: [eventStatement(d.id, ev("card_dispute", now, { dispute: f.disputeId }))], outcome: { kind: "none" } };
  }
  const statements = [eventStatement(d.id, ev(`card_dispute_${f.status}`, now, { dispute: f.disputeId, cents: f.amount }))];
  if (f.status === "won") {
    if (d.status === "disputed" && d.case_reason === "card_dispute") {
      // The bank sided with the lister: the money is where it was before. Released before (a reversal): owed again.
      const wasReleased = !!d.released_at;
      return {
        set: wasReleased
          ? { ...facts, status: "released", payment_status: "released", case_reason: null }
          : { ...facts, status: d.moved_in_at ? "moved_in" : "paid", payment_status: "held", case_reason: null },
        statements,
        outcome: { kind: "dispute_won", released: wasReleased },
      };
    }
    return { set: facts, statements, outcome: { kind: "none" } };
  }
  // Lost: the bank gave the disputed amount back to the renter; nothing more goes to the lister.
  const back = Math.max(d.refund_due_cents, Math.min(d.paid_cents, f.amount || d.paid_cents));
  if (isHeld(d) || d.status === "disputed" || d.status === "released") {
    if (d.listing_taken && d.listing_id) statements.push(releaseListingStatement(d.listing_id, now));
    return {
      set: { ...facts, status: "refunded", payment_status: "refunded", case_reason: null, refund_due_cents: back, refunded_cents: Math.max(d.refunded_cents, back) },
      statements,
      outcome: { kind: "refund_due", why: "bank" },
    };
  }
  return { set: facts, statements, outcome: { kind: "none" } };
}

function planTransfer(d: DealRow, f: Extract<DealEventFacts, { kind: "transfer" }>, now: string): EventPlan {
  if (d.transfer_id === f.transferId) {
    return f.amountReversed > d.transfer_reversed_cents ? { set: { transfer_reversed_cents: f.amountReversed }, outcome: { kind: "none" } } : NOTHING;
  }
  const set: DealSet = { transfer_id: f.transferId, transferred_cents: Math.max(d.transferred_cents, f.amount), transfer_reversed_cents: Math.max(d.transfer_reversed_cents, f.amountReversed) };
  // Our release wrote nothing yet (a crash after Stripe's answer, or the development simulation): the event releases.
  if (isHeld(d) && (d.payment_status === "held" || d.payment_status === "release_failed") && !d.cancel_decide_by) {
    return {
      set: { ...set, status: "released", payment_status: "released", released_at: now, case_reason: null },
      statements: [eventStatement(d.id, ev("released", now, { transfer_id: f.transferId, cents: f.amount }))],
      outcome: { kind: "released" },
    };
  }
  return { set, outcome: { kind: "none" } };
}

/** What follows an applied event: declines, the listing's cache, refunds due, emails. */
async function followEvent(db: Db, fx: Effects, d: DealRow, outcome: Outcome, nowMs: number) {
  switch (outcome.kind) {
    case "paid": {
      await declineOverlappingDeals(db, fx, d, nowMs);
      if (d.listing_id) await purgeListingCache([d.listing_id], db);
      fx.defer(
        notify({ db, env: fx.env, config: fx.config }, { userId: d.renter_id }, {
          kind: "deal_receipt",
          dealId: d.id,
          title: d.listing_title,
          rentCents: d.paid_rent_cents,
          feeCents: d.paid_cents - d.paid_rent_cents,
          feePercent: d.fee_percent ?? 0,
          totalCents: d.paid_cents,
          heldUntil: d.held_until!,
          paidAt: d.paid_at!,
          paymentId: d.payment_intent_id!,
        }).catch(() => undefined),
      );
      tell(db, fx, d, ["lister"], "held", `Paid: "${d.listing_title}"`, [
        `The renter paid the first month for ${shortDate(d.move_in)} to ${shortDate(d.move_out)}. CampusNest holds the rent (${usd(d.paid_rent_cents)}) and releases it to your payout account 48 hours after move-in, or when the renter confirms they have the keys.`,
      ]);
      return;
    }
    case "refund_due": {
      if (outcome.why === "stay_taken" || outcome.why === "late") await settleRefund(db, fx, d.id);
      if (d.listing_id && outcome.why !== "late") await purgeListingCache([d.listing_id], db);
      const line =
        outcome.why === "stay_taken"
          ? "Another renter's payment for overlapping dates arrived first, so this deal was cancelled and your payment is refunded in full."
          : outcome.why === "late"
            ? "This deal had already ended when your payment arrived, so it is refunded in full."
            : outcome.why === "bank"
              ? "Your bank decided the card dispute in your favour; the money went back through your bank."
              : `${usd(d.refund_due_cents)} was refunded to your card.`;
      tell(db, fx, d, outcome.why === "late" || outcome.why === "stay_taken" ? ["renter"] : ["renter", "lister"], "refunded", `Refunded: "${d.listing_title}"`, [line]);
      return;
    }
    case "disputed":
      openCase(db, fx, d, "card_dispute");
      tell(db, fx, d, ["renter", "lister"], "disputed", `Card dispute: "${d.listing_title}"`, ["A card dispute was opened for this payment. Nothing is released while the bank decides."]);
      return;
    case "dispute_won":
      if (outcome.released) await settleTransfer(db, fx, d.id);
      await publishDeal(fx, d);
      return;
    case "released":
      await publishDeal(fx, d);
      return;
    case "none":
      await publishDeal(fx, d).catch(() => null);
      return;
  }
}

/** Takes back what the deal's transfer still holds (at Stripe, or simulated) and records it. */
async function reverseAndRecord(db: Db, fx: Effects, d: DealRow) {
  if (!d.transfer_id) return;
  if (usesStripe(fx.config)) {
    const reversed = await reverseTransfer(fx.config.stripe, d.id, d.transfer_id);
    await recordFacts(db, d.id, (x) => (x.transfer_reversed_cents >= reversed ? null : { transfer_reversed_cents: reversed }));
  } else {
    await recordFacts(db, d.id, (x) => (x.transfer_reversed_cents >= x.transferred_cents ? null : { transfer_reversed_cents: x.transferred_cents }));
  }
}

/** The Stripe calls a plan may need before its event is recorded, bound to this request (plans do no I/O themselves). */
interface StripeFirstCalls {
  /** Payments refunded as duplicates during this event. */
  refunded: Set<string>;
  refundDuplicate(d: DealRow, paymentIntentId: string): Promise<void>;
  reverse(d: DealRow): Promise<void>;
}

function stripeFirstCalls(db: Db, fx: Effects): StripeFirstCalls {
  const refunded = new Set<string>();
  return {
    refunded,
    async refundDuplicate(d, pi) {
      if (usesStripe(fx.config)) await refundWholePayment(fx.config.stripe, d.id, pi);
      refunded.add(pi);
      log.warn("deal_duplicate_payment_refunded", { deal_id: d.id });
      tell(db, fx, d, ["renter"], "refunded", `Refunded: a second payment for "${d.listing_title}"`, ["This deal was already paid, so your second payment is refunded in full."]);
    },
    reverse: (d) => reverseAndRecord(db, fx, d),
  };
}


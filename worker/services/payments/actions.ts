/**
 * What the parties and staff do with a paid deal (docs/decisions/029): "I have the keys", a problem
 * report and the statements of a case, cancellation after payment (the policy in DEAL_CANCELLATION_POLICY)
 * and the lister's late-cancellation decision, staff's resolution, the lister's suspension, and the
 * payment jobs the cron and the development tick run. Every change is one `transition()`; the money
 * follows the record (money.ts).
 */
import {
  DEAL_MESSAGES as M,
  DEAL_TIMING,
  PAYMENT_MESSAGES as P,
  localDate,
  renterFullRefund,
  shortDate,
  type Deal,
  type DealStatement,
} from "../../contract/deals";
import { primaryOf, type Db } from "../../db/client";
import { auditStatement, eventStatement, findDeal, supersedeLinksStatement, type DealRow, type GuardedStatement } from "../../db/queries/deals";
import {
  dealsDueForRelease,
  dealsWithRefundDue,
  dealsWithTransferDue,
  heldDealsOfLister,
  insertStatementWhileDisputed,
  lapsedCancellations,
  moneyHeldFor,
  releaseListingStatement,
  statementInsert,
} from "../../db/queries/deal-payments";
import { conflict, forbidden, validationFailed } from "../../lib/errors";
import { log } from "../../lib/log";
import type { RequestMeta } from "../../lib/request-meta";
import { isoNow } from "../../lib/time";
import type { UserRow } from "../../db/queries/users";
import { cancelDeal, expireDueDeals, partyDeal, publishDeal, requireState, toDeal, transition, type Effects } from "../deals";
import { purgeListingCache } from "../edge-cache";
import { HELD, openCase, releaseHeld, requireMoneyPath, settleRefund, settleTransfer, tell, type ReleaseOptions } from "./money";

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const isHeldRow = (d: DealRow) => (HELD as readonly string[]).includes(d.status);
const fresh = async (db: Db, id: string) => (await findDeal(primaryOf(db), id))!;
/** An event of the deal by a party (or the system: `user` null). */
const dealEvent = (d: DealRow, type: string, user: { id: string } | null, role: string, at: string, meta: RequestMeta, details?: unknown): GuardedStatement =>
  eventStatement(d.id, { type, actorId: user?.id ?? null, actorRole: role, at, ip: meta.ip, userAgent: meta.userAgent, details });
const listingBack = (d: DealRow, now: string): GuardedStatement[] => (d.listing_taken && d.listing_id ? [releaseListingStatement(d.listing_id, now)] : []);

// ---------------------------------------------------------------------------------------------
// "I have the keys".

export async function movedIn(db: Db, fx: Effects, user: UserRow, id: string, meta: RequestMeta, nowMs = Date.now(), release: Partial<ReleaseOptions> = {}): Promise<Deal> {
  const { deal } = await partyDeal(db, id, user.id);
  if (deal.renter_id !== user.id) throw forbidden(M.onlyRenter);
  const now = isoNow(nowMs);
  requireMoneyPath(fx.config);
  await transition(
    db,
    id,
    (d) => {
      if (d.status === "disputed") throw conflict(P.caseOpen);
      requireState(d, "paid");
      if (d.payment_status !== "held") throw conflict(M.wrongState(d.payment_status));
      if (d.cancel_decide_by) throw conflict(P.cancellationOpen);
      if (localDate(nowMs, d.time_zone) < d.move_in) throw conflict(P.notYetMoveIn(d.move_in));
      return { set: { status: "moved_in", moved_in_at: now }, statements: [dealEvent(d, "moved_in", user, "renter", now, meta)] };
    },
    now,
  );
  // The transfer runs in the request; a refusal leaves release_failed (and a staff case).
  const after = await releaseHeld(db, fx, id, nowMs, { by: { id: user.id, role: "renter" }, ...release });
  return toDeal(after ?? (await fresh(db, id)), fx.config);
}

// ---------------------------------------------------------------------------------------------
// Problems and statements.

export async function reportProblem(db: Db, fx: Effects, user: UserRow, id: string, input: { kind: string; text: string; photos: string[] }, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const { deal } = await partyDeal(db, id, user.id);
  if (deal.renter_id !== user.id) throw forbidden(M.onlyRenter);
  const now = isoNow(nowMs);
  const { after: d } = await transition(
    db,
    id,
    (d) => {
      requireState(d, ...HELD);
      if (d.payment_status !== "held" && d.payment_status !== "release_failed") throw conflict(M.wrongState(d.payment_status));
      return {
        set: { status: "disputed", payment_status: "disputed", case_reason: "problem", problem_kind: input.kind, problem_opened_at: now },
        statements: [
          statementInsert(d.id, { party: "renter", author_id: user.id, text: input.text, photos: input.photos, at: now }),
          dealEvent(d, "problem_reported", user, "renter", now, meta, { kind: input.kind }),
        ],
      };
    },
    now,
  );
  openCase(db, fx, d, "problem");
  tell(db, fx, d, ["renter", "lister"], "problem_reported", `Problem reported: "${d.listing_title}"`, [
    "The renter reported a problem. Nothing is released while CampusNest staff look at it; both of you can add a statement on the deal.",
  ]);
  return toDeal(d, fx.config);
}

export async function addStatement(db: Db, fx: Effects, user: UserRow, id: string, input: { text: string; photos: string[] }, nowMs = Date.now()): Promise<DealStatement> {
  const { deal, role } = await partyDeal(db, id, user.id);
  if (deal.status !== "disputed") throw conflict(M.wrongState(deal.status));
  const at = isoNow(nowMs);
  if (!(await insertStatementWhileDisputed(db, id, { party: role, author_id: user.id, text: input.text, photos: input.photos, at }))) throw conflict(P.notACase);
  await publishDeal(fx, deal).catch(() => null);
  return { party: role, author_id: user.id, text: input.text, photos: input.photos, at };
}

// ---------------------------------------------------------------------------------------------
// Cancellation after payment.

/** Either party cancels: an unpaid deal as before (services/deals); a paid one by the cancellation policy. */
export async function cancelAnyDeal(db: Db, fx: Effects, user: UserRow, id: string, reason: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const { deal, role } = await partyDeal(db, id, user.id);
  if (deal.status !== "paid") return cancelDeal(db, fx, user, id, reason, meta, nowMs);
  requireMoneyPath(fx.config);
  const now = isoNow(nowMs);
  let late = false;
  const { after: d } = await transition(
    db,
    id,
    (d) => {
      requireState(d, "paid");
      if (d.payment_status !== "held") throw conflict(M.wrongState(d.payment_status));
      const base = { expires_at: null, status_reason: reason || `cancelled_by_${role}` };
      if (role === "lister") {
        // The lister cancels: everything back, fee included, at once.
        late = false;
        return {
          set: { ...base, status: "cancelled", payment_status: "refunded", refund_due_cents: d.paid_cents, cancel_requested_at: null, cancel_decide_by: null },
          statements: [supersedeLinksStatement(d.id, now), ...listingBack(d, now), dealEvent(d, "cancelled", user, role, now, meta, { refund_cents: d.paid_cents, reason })],
        };
      }
      if (d.cancel_decide_by) throw conflict(P.cancellationOpen);
      if (renterFullRefund(d.move_in, d.time_zone, nowMs)) {
        late = false;
        return {
          set: { ...base, status: "cancelled", payment_status: "refunded", refund_due_cents: Math.max(d.paid_rent_cents, d.refund_due_cents) },
          statements: [...listingBack(d, now), dealEvent(d, "cancelled", user, role, now, meta, { refund_cents: d.paid_rent_cents, reason })],
        };
      }
      // Later: the lister decides how much rent goes back, by a deadline; silence refunds it in full.
      late = true;
      return {
        set: { cancel_requested_at: now, cancel_decide_by: isoNow(nowMs + DEAL_TIMING.listerDecisionMs), status_reason: reason || null },
        statements: [dealEvent(d, "cancellation_requested", user, role, now, meta, { reason })],
      };
    },
    now,
  );
  if (late) {
    tell(db, fx, d, ["lister", "renter"], "cancellation_asked", `Cancellation: "${d.listing_title}" — your decision`, [
      `The renter cancelled less than ${DEAL_TIMING.renterFullRefundDays} days before move-in (${shortDate(d.move_in)}).`,
      `The lister decides how much of the rent (up to ${usd(d.paid_rent_cents)}) goes back by ${new Date(d.cancel_decide_by!).toUTCString()}; without an answer the rent goes back in full. The service fee is kept.`,
    ]);
    return toDeal(d, fx.config);
  }
  const settled = (await settleRefund(db, fx, d.id)) ?? d;
  if (d.listing_id) await purgeListingCache([d.listing_id], db);
  tell(db, fx, settled, ["renter", "lister"], "refunded", `Cancelled: "${d.listing_title}"`, [
    `The deal was cancelled by the ${role}. ${usd(settled.refund_due_cents)} goes back to the renter's card${role === "renter" ? "; the service fee is kept" : ", service fee included"}.`,
  ]);
  return toDeal(settled, fx.config);
}

/** The lister's decision on a late cancellation (or the deadline's, `by` null): that much rent back, the rest to the lister. */
export async function decideCancellation(db: Db, fx: Effects, by: UserRow | null, id: string, refundCents: number | null, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  if (by) {
    const { deal } = await partyDeal(db, id, by.id);
    if (deal.lister_id !== by.id) throw forbidden(M.onlyLister);
  }
  requireMoneyPath(fx.config);
  const now = isoNow(nowMs);
  const { after: d } = await transition(
    db,
    id,
    (d) => {
      if (!d.cancel_decide_by || d.status !== "paid") throw conflict(P.noCancellation);
      if (!by && d.cancel_decide_by > now) throw conflict(P.noCancellation);
      if (refundCents !== null && refundCents > d.paid_rent_cents) throw validationFailed([{ path: "refund_cents", message: P.refundTooHigh(d.paid_rent_cents) }]);
      // What already went back (a refund from Stripe's dashboard) stays back: never below it (as staff's, resolveCase).
      const refund = Math.max(refundCents ?? d.paid_rent_cents, d.refund_due_cents);
      const all = refund >= d.paid_rent_cents;
      return {
        set: {
          status: "cancelled",
          status_reason: d.status_reason || "cancelled_by_renter",
          payment_status: all ? "refunded" : "released",
          refund_due_cents: refund,
          released_at: all ? null : now,
          cancel_requested_at: null,
          cancel_decide_by: null,
        },
        statements: [...listingBack(d, now), dealEvent(d, "cancellation_decided", by, by ? "lister" : "system", now, meta, { refund_cents: refund, lapsed: !by })],
      };
    },
    now,
  );
  await settleRefund(db, fx, id);
  await settleTransfer(db, fx, id);
  if (d.listing_id) await purgeListingCache([d.listing_id], db);
  const out = await fresh(db, id);
  tell(db, fx, out, ["renter", "lister"], "cancellation_decided", `Cancellation decided: "${d.listing_title}"`, [
    by ? `The lister decided: ${usd(out.refund_due_cents)} of the rent goes back to the renter.` : `The lister did not decide in time, so the rent (${usd(out.refund_due_cents)}) goes back to the renter in full.`,
    out.payment_status === "released" ? `The rest of the rent (${usd(out.paid_rent_cents - out.refund_due_cents)}) goes to the lister.` : "The service fee is kept.",
  ]);
  return toDeal(out, fx.config);
}

// ---------------------------------------------------------------------------------------------
// Staff.

/**
 * Staff decide a case: 0 releases everything still owed, the total refunds everything, between releases
 * the rest. What already went back (a lister's late-cancellation decision, a refund from Stripe's
 * dashboard) stays back: the decision is never below it, else the lister would be paid rent the renter
 * already got back (docs/decisions/029).
 */
export async function resolveCase(db: Db, fx: Effects, staff: string, id: string, refundCents: number, nowMs = Date.now()): Promise<Deal> {
  requireMoneyPath(fx.config);
  const now = isoNow(nowMs);
  let refund = refundCents;
  const { after: d } = await transition(
    db,
    id,
    (d) => {
      if (d.status !== "disputed" && d.payment_status !== "release_failed") throw conflict(P.notACase);
      if (d.dispute_status === "open") throw conflict("A card dispute is open: the bank decides this payment");
      if (refundCents > d.paid_cents) throw validationFailed([{ path: "refund_cents", message: P.refundTooHigh(d.paid_cents) }]);
      refund = Math.max(refundCents, d.refund_due_cents);
      const all = refund >= d.paid_cents;
      // A cancelled deal whose transfer was refused stays cancelled; the rest of its rent is released.
      const released = d.status === "cancelled" ? "cancelled" : "released";
      return {
        set: all
          ? { status: "refunded", payment_status: "refunded", refund_due_cents: refund, case_reason: null }
          : { status: released, payment_status: "released", refund_due_cents: refund, released_at: now, case_reason: null },
        statements: [
          ...(all ? listingBack(d, now) : []),
          eventStatement(d.id, { type: "resolved", actorId: null, actorRole: "staff", at: now, details: { refund_cents: refund, staff } }),
          auditStatement(d.id, staff, "deal_resolve", { refund_cents: refund }),
        ],
      };
    },
    now,
  );
  await settleRefund(db, fx, id);
  await settleTransfer(db, fx, id);
  if (d.listing_id) await purgeListingCache([d.listing_id], db);
  const out = await fresh(db, id);
  tell(db, fx, out, ["renter", "lister"], out.status === "refunded" ? "refunded" : "released", `Decided: "${d.listing_title}"`, [
    out.status === "refunded"
      ? `CampusNest staff decided to refund everything (${usd(out.paid_cents)}) to the renter.`
      : `CampusNest staff decided: ${usd(refund)} back to the renter, ${usd(Math.max(0, out.paid_rent_cents - refund))} released to the lister.`,
  ]);
  return toDeal(out, fx.config);
}

/** The lister's suspension freezes every deal holding money for them into a staff case. */
export async function freezeHeldDealsOf(db: Db, fx: Effects, listerId: string, nowMs = Date.now()): Promise<number> {
  const now = isoNow(nowMs);
  let frozen = 0;
  for (const id of await heldDealsOfLister(primaryOf(db), listerId)) {
    try {
      const { after: d } = await transition(
        db,
        id,
        (d) => {
          if (!isHeldRow(d)) throw conflict("not held");
          return {
            set: { status: "disputed", payment_status: "disputed", case_reason: "suspension" },
            statements: [eventStatement(d.id, { type: "frozen", actorId: null, actorRole: "system", at: now, details: { reason: "suspension" } })],
          };
        },
        now,
      );
      frozen++;
      openCase(db, fx, d, "suspension");
      tell(db, fx, d, ["renter"], "disputed", `On hold: "${d.listing_title}"`, ["The lister's account was suspended. Your payment stays held while CampusNest staff decide; you will hear from us."]);
    } catch (err) {
      if ((err as { status?: number }).status !== 409) throw err;
    }
  }
  return frozen;
}

/** A listing or account with money held for a deal cannot be deleted (409). */
export async function refuseDeletionWhileMoneyHeld(db: Db, where: { listingId: string } | { userId: string }) {
  if (await moneyHeldFor(primaryOf(db), where)) throw conflict(P.moneyHeld);
}

// ---------------------------------------------------------------------------------------------
// The jobs (the cron, and the development tick), as of `nowMs`.

export interface DealJobsResult {
  expired: number;
  released: number;
  cancellations_decided: number;
  refunds_retried: number;
  transfers_retried: number;
}

/** How far back the cron looks for a transfer still owed: deals are paid at most months ahead of move-in. */
const TRANSFER_RETRY_WINDOW_MS = 365 * 86_400_000;

export async function runDealPaymentJobs(db: Db, fx: Effects, nowMs: number): Promise<DealJobsResult> {
  const nowIso = isoNow(nowMs);
  const expired = await expireDueDeals(db, fx, nowMs);
  let released = 0;
  for (const id of await dealsDueForRelease(primaryOf(db), nowIso)) {
    try {
      const d = await releaseHeld(db, fx, id, nowMs, { by: { id: null, role: "system" } });
      if (d?.status === "released") released++;
    } catch (err) {
      log.error("deal_release_failed", { deal_id: id, message: err instanceof Error ? err.message : "unknown" });
    }
  }
  let decided = 0;
  for (const id of await lapsedCancellations(primaryOf(db), nowIso)) {
    try {
      await decideCancellation(db, fx, null, id, null, { ip: null, userAgent: null }, nowMs);
      decided++;
    } catch (err) {
      if ((err as { status?: number }).status !== 409) log.error("deal_cancellation_lapse_failed", { deal_id: id, message: err instanceof Error ? err.message : "unknown" });
    }
  }
  let retried = 0;
  for (const id of await dealsWithRefundDue(primaryOf(db))) {
    const d = await settleRefund(db, fx, id);
    if (d && d.refunded_cents >= d.refund_due_cents) retried++;
  }
  // A decided transfer whose Stripe call failed after the decision was written (settleTransfer only logs it).
  let transfers = 0;
  for (const id of await dealsWithTransferDue(primaryOf(db), isoNow(nowMs - TRANSFER_RETRY_WINDOW_MS))) {
    await settleTransfer(db, fx, id);
    const d = await findDeal(primaryOf(db), id);
    if (d && d.transferred_cents - d.transfer_reversed_cents >= d.paid_rent_cents - d.refund_due_cents) transfers++;
  }
  return { expired, released, cancellations_decided: decided, refunds_retried: retried, transfers_retried: transfers };
}


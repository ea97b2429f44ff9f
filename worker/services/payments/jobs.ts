/**
 * The deal jobs (the cron, and POST dev/deals/tick as of a time; docs/decisions/026, 029, 035): every
 * declared timer that has come (expiry, release, the lister's decision window), claims whose worker died
 * (resumed from what Stripe holds), events kept for a claim that settled without applying them, money a
 * decision left owed, the comparison of recently changed deals with Stripe, and the listers' daily
 * summaries of batched requests.
 */
import { DEAL_TIMERS, type TimerDef } from "../../contract/deal-process";
import { primaryOf, type Db } from "../../db/client";
import { dealsToReconcile, dealsWithRefundDue, dealsWithTransferDue, markReconciled, staleClaims, unclaimedDealsWithInbox } from "../../db/queries/deal-payments";
import { dueByTimer, findDeal } from "../../db/queries/deals";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { expireDeal, sendRequestSummaries } from "../deals";
import type { Effects } from "../deals/process";
import { drainInbox } from "./apply-event";
import { resumeClaim, runMoney } from "./claim";
import { CANCELLATION_LAPSE } from "./decision";
import { releaseHeld } from "./release";
import { reconcile, settleDue } from "./settle-due";

export interface DealJobsResult {
  expired: number;
  released: number;
  cancellations_decided: number;
  refunds_retried: number;
  transfers_retried: number;
  claims_resumed: number;
  reconciled: number;
  request_summaries: number;
}

/** A claim older than this lost its worker (a request never lives this long). */
export const CLAIM_STALE_MS = 5 * 60_000;
/** How far back the jobs look for a transfer still owed: deals are paid at most months ahead of move-in. */
const TRANSFER_RETRY_WINDOW_MS = 365 * 86_400_000;
/** Deals compared with Stripe a run (each is two reads at Stripe). */
const RECONCILE_PER_RUN = 20;
const TIMER_BATCH = 50;

const is409 = (err: unknown) => (err as { status?: number }).status === 409;

/** One timer's due transition for one deal; true when it was made. */
async function fire(db: Db, fx: Effects, timer: TimerDef, id: string, nowMs: number): Promise<boolean> {
  switch (timer.transition) {
    case "expire":
      return expireDeal(db, fx, id, nowMs);
    case "release":
      return (await releaseHeld(db, fx, id, nowMs))?.status === "released";
    case "cancellation_lapse":
      return runMoney(db, fx, id, CANCELLATION_LAPSE, { role: "system" }, { refund_cents: null, reason: null }, nowMs).then(
        () => true,
        (err: unknown) => (is409(err) ? false : Promise.reject(err)),
      );
    default:
      log.error("deal_timer_without_runner", { timer: timer.name });
      return false;
  }
}

export async function runDealPaymentJobs(db: Db, fx: Effects, nowMs: number): Promise<DealJobsResult> {
  const primary = primaryOf(db);
  const nowIso = isoNow(nowMs);
  const fired: Record<string, number> = {};
  for (const timer of DEAL_TIMERS as readonly TimerDef[]) {
    fired[timer.name] = 0;
    for (const id of await dueByTimer(primary, timer, nowIso, TIMER_BATCH)) {
      try {
        if (await fire(db, fx, timer, id, nowMs)) fired[timer.name]!++;
      } catch (err) {
        log.error("deal_timer_failed", { timer: timer.name, deal_id: id, message: err instanceof Error ? err.message : "unknown" });
      }
    }
  }
  let resumed = 0;
  for (const id of await staleClaims(primary, isoNow(nowMs - CLAIM_STALE_MS))) {
    try {
      await resumeClaim(db, fx, id, nowMs);
      resumed++;
    } catch (err) {
      log.error("deal_claim_resume_failed", { deal_id: id, message: err instanceof Error ? err.message : "unknown" });
    }
  }
  for (const id of await unclaimedDealsWithInbox(primary)) await drainInbox(db, fx, id, nowMs).catch((err: unknown) => log.error("deal_inbox_failed", { deal_id: id, message: err instanceof Error ? err.message : "unknown" }));
  let refunds = 0;
  for (const id of await dealsWithRefundDue(primary)) {
    const d = await settleDue(db, fx, id, nowMs).catch((err: unknown) => (log.error("deal_refund_failed", { deal_id: id, message: err instanceof Error ? err.message : "unknown" }), null));
    if (d && d.refunded_cents >= d.refund_due_cents) refunds++;
  }
  let transfers = 0;
  for (const id of await dealsWithTransferDue(primary, isoNow(nowMs - TRANSFER_RETRY_WINDOW_MS))) {
    const d = await settleDue(db, fx, id, nowMs).catch((err: unknown) => (log.error("deal_transfer_failed", { deal_id: id, message: err instanceof Error ? err.message : "unknown" }), null));
    if (d && d.transferred_cents - d.transfer_reversed_cents >= d.paid_rent_cents - d.refund_due_cents) transfers++;
  }
  let reconciled = 0;
  for (const id of await dealsToReconcile(primary, RECONCILE_PER_RUN)) {
    const d = await findDeal(primary, id);
    if (!d) continue;
    try {
      const outcome = await reconcile(db, fx, d, nowMs);
      if (outcome === "fixed") reconciled++;
      if (outcome === "ok") await markReconciled(db, id, nowIso);
    } catch (err) {
      log.error("deal_reconcile_failed", { deal_id: id, message: err instanceof Error ? err.message : "unknown" });
    }
  }
  const summaries = await sendRequestSummaries(db, fx, nowMs).catch((err: unknown) => (log.error("deal_request_summaries_failed", { message: err instanceof Error ? err.message : "unknown" }), 0));
  return {
    expired: fired.expiry ?? 0,
    released: fired.release ?? 0,
    cancellations_decided: fired.lister_decision ?? 0,
    refunds_retried: refunds,
    transfers_retried: transfers,
    claims_resumed: resumed,
    reconciled,
    request_summaries: summaries,
  };
}

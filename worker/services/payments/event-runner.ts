/**
 * Stripe's events as a settled money move reaches them (docs/decisions/035). A claim, once settled,
 * applies the events kept while it held the deal (`drainInbox`) and, without Stripe keys, the events
 * Stripe would send (simulate.ts, through `applyDealEvent`); their handlers may move money again, so
 * the recursion is real. claim.ts and simulate.ts reach apply-event.ts through this registration, which
 * apply-event.ts fills when it loads (services/payments/index.ts loads it), so that the import graph
 * stays acyclic (test/web/architecture/import-cycles.test.ts). Unfilled, it throws: never a silent skip.
 */
import type { Db } from "../../db/client";
import type { Effects } from "../deals/process";
import type { StripeEventEnvelope } from "../stripe/webhook";
import type { DealWebhookResult } from "./event-decision";

export interface EventRunner {
  drainInbox(db: Db, fx: Effects, dealId: string, nowMs?: number): Promise<number>;
  applyDealEvent(db: Db, fx: Effects, event: StripeEventEnvelope, nowMs?: number): Promise<DealWebhookResult>;
}

let runner: EventRunner | null = null;

export function provideEventRunner(r: EventRunner): void {
  runner = r;
}

export function eventRunner(): EventRunner {
  if (!runner) throw new Error("The deal's event runner is not loaded: import services/payments (apply-event.ts).");
  return runner;
}

/**
 * What a Stripe event's handler (on-*.ts) decides, and the Stripe calls it may ask for first: apart from
 * apply-event.ts, which runs the handlers, so that no handler imports its runner (docs/decisions/035).
 */
import type { TransitionName } from "../../contract/deal-process";
import type { Db } from "../../db/client";
import type { DealRow } from "../../db/queries/deals";
import type { Config } from "../../env";
import type { Effects, Plan } from "../deals/process";

/** What applying one of Stripe's events did. */
export interface DealWebhookResult {
  applied: boolean;
  reason?: "duplicate" | "ignored" | "kept";
}

/** What an event does to its deal: a declared transition, its change, and what follows once it applied. */
export interface EventDecision {
  name: TransitionName;
  plan: Plan;
  follow?: (db: Db, fx: Effects, after: DealRow, nowMs: number) => Promise<unknown>;
}

/** The Stripe calls a decision may need before its event is recorded (handlers do no I/O themselves). */
export interface StripeFirstCalls {
  db: Db;
  config: Config;
  /** Payments refunded as duplicates during this event. */
  refunded: Set<string>;
  refundDuplicate(d: DealRow, paymentIntentId: string): Promise<void>;
}

/** Thrown by a handler when Stripe must be told something before the event is recorded (then it decides again). */
export class StripeFirst extends Error {
  constructor(readonly act: () => Promise<unknown>) {
    super("stripe first");
  }
}

export const PAYMENT_NOT_YET = "The payment this event is about is not recorded yet; Stripe will deliver it again";

export type Handler<F> = (d: DealRow, f: F, now: string, io: StripeFirstCalls) => Promise<EventDecision | null>;

/** The deal changed under a decision (or its condition failed): read it and decide again. */
export class Reread extends Error {}

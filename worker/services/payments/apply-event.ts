/**
 * A deal's Stripe events, each applied once in any order (decision 013's pattern; docs/decisions/029, 035).
 * The event's facts are read (events.ts), its deal found, and the handler of its kind (on-*.ts) decides
 * which declared transition it makes; the event id is recorded in the same batch as the effect, so a
 * repeat fails on the key and changes nothing. While a money move holds the deal (a claim), the event is
 * recorded at once and kept, and `drainInbox` applies it when the claim settles. An event about a payment
 * we have not recorded yet answers 409 unrecorded: Stripe delivers it again.
 */
import type { TransitionName } from "../../contract/deal-process";
import { primaryOf, type Db } from "../../db/client";
import { dealIdOfPayment, dropFromInbox, inboxOf, keepForClaim, takeFromInboxStatement } from "../../db/queries/deal-payments";
import { findDeal, type DealRow } from "../../db/queries/deals";
import { dealStripeEventStatement } from "../../db/queries/stripe-events";
import { apiError, badRequest, isUniqueViolation } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import type { Config } from "../../env";
import { transition, type Effects, type Plan } from "../deals/process";
import { acknowledgeEvent, eventAlreadyApplied } from "../stripe/once";
import { MalformedEventError, type StripeEventEnvelope } from "../stripe/webhook";
import { readDealEvent, type DealEventFacts } from "./events";
import { usesStripe } from "./move";
import { onCheckout } from "./on-checkout-completed";
import { onChargeRefunded } from "./on-charge-refunded";
import { onDispute } from "./on-dispute";
import { onTransfer } from "./on-transfer";
import { chargeOfPaymentIntent, dealOfCharge, refundWholePayment } from "./stripe";

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

const decide = (d: DealRow, f: DealEventFacts, now: string, io: StripeFirstCalls): Promise<EventDecision | null> => {
  switch (f.kind) {
    case "checkout":
      return onCheckout(d, f, now, io);
    case "refund":
      return onChargeRefunded(d, f, now, io);
    case "dispute":
      return onDispute(d, f, now, io);
    case "transfer":
      return onTransfer(d, f, now, io);
  }
};

/** The deal changed under a decision (or its condition failed): read it and decide again. */
export class Reread extends Error {}

function stripeFirstCalls(db: Db, fx: Effects): StripeFirstCalls {
  const refunded = new Set<string>();
  return {
    db,
    config: fx.config,
    refunded,
    async refundDuplicate(d, pi) {
      if (usesStripe(fx.config)) await refundWholePayment(fx.config.stripe, d.id, pi);
      refunded.add(pi);
      log.warn("deal_duplicate_payment_refunded", { deal_id: d.id });
    },
  };
}

/**
 * One verified event of a deal, applied once (its id recorded in the same batch as its effect) as a
 * declared transition of the deal; kept for later while a claim holds the deal.
 */
export async function applyDealEvent(db: Db, fx: Effects, event: StripeEventEnvelope, nowMs = Date.now()): Promise<DealWebhookResult> {
  let facts: DealEventFacts | null;
  try {
    facts = readDealEvent(event);
  } catch (err) {
    if (err instanceof MalformedEventError) throw badRequest(`Malformed ${event.type} event: ${err.message}`);
    throw err;
  }
  if (await eventAlreadyApplied(db, event.id)) return { applied: false, reason: "duplicate" };
  const dealId = facts ? await dealIdOf(db, fx.config, facts) : null;
  const deal = dealId ? await findDeal(primaryOf(db), dealId) : null;
  if (!facts || !deal) {
    await acknowledgeEvent(db, event.id, event.type);
    return { applied: false, reason: "ignored" };
  }
  if (facts.kind === "checkout" && facts.paid && !facts.chargeId && usesStripe(fx.config)) {
    // A session names its payment intent only; the charge (the transfer's source) is read once here.
    const chargeId = await chargeOfPaymentIntent(fx.config.stripe, facts.paymentIntentId!).catch(() => {
      throw apiError(502, { detail: "Could not read the payment from Stripe. Please retry." });
    });
    facts = { ...facts, chargeId };
  }
  return applyFacts(db, fx, deal.id, { id: event.id, type: event.type, facts }, "fresh", nowMs, deal);
}

interface KeptEvent {
  id: string;
  type: string;
  facts: DealEventFacts;
}

async function applyFacts(db: Db, fx: Effects, dealId: string, e: KeptEvent, source: "fresh" | "inbox", nowMs: number, read?: DealRow): Promise<DealWebhookResult> {
  const primary = primaryOf(db);
  const now = isoNow(nowMs);
  const io = stripeFirstCalls(db, fx);
  const record = source === "fresh" ? dealStripeEventStatement(e.id, e.type) : takeFromInboxStatement(e.id);
  for (let round = 0; round < 8; round++) {
    const d = round === 0 && read ? read : await findDeal(primary, dealId);
    if (!d) return { applied: false, reason: "ignored" };
    if (d.claim_id) {
      if (source === "inbox") return { applied: false, reason: "kept" };
      try {
        await keepForClaim(db, e.id, e.type, dealId, e.facts, now);
      } catch (err) {
        if (isUniqueViolation(err)) return { applied: false, reason: "duplicate" };
        throw err;
      }
      return { applied: false, reason: "kept" };
    }
    let decision: EventDecision | null;
    try {
      decision = await decide(d, e.facts, now, io);
    } catch (err) {
      if (!(err instanceof StripeFirst)) throw err;
      await err.act();
      continue;
    }
    if (!decision) {
      if (source === "fresh") await acknowledgeEvent(db, e.id, e.type);
      else await dropFromInbox(db, e.id);
      return { applied: false, reason: "ignored" };
    }
    const chosen = decision;
    try {
      const { after } = await transition(
        db,
        fx,
        dealId,
        chosen.name,
        { role: "stripe" },
        async (row) => {
          // The row decided on above, unchanged: its decision stands (no second read of what it looked at).
          const again = row === d ? chosen : await decide(row, e.facts, now, io);
          if (!again || again.name !== chosen.name) throw new Reread();
          return { ...again.plan, statements: [record, ...(again.plan.statements ?? [])] };
        },
        nowMs,
        { read: d },
      );
      await chosen.follow?.(db, fx, after, nowMs);
      return { applied: true };
    } catch (err) {
      if (err instanceof Reread) continue;
      if (err instanceof StripeFirst) {
        await err.act();
        continue;
      }
      if (source === "fresh" && isUniqueViolation(err) && (await eventAlreadyApplied(db, e.id))) return { applied: false, reason: "duplicate" };
      // The deal moved between the read and the write (another event, a party, a claim that keeps this
      // event for later): the next round reads it again and decides anew.
      const status = (err as { status?: number }).status;
      if (status === 409 || status === 403) continue;
      throw err;
    }
  }
  throw apiError(503, { detail: "The deal is changing right now. Please retry." });
}

/** Applies the events kept while a claim held the deal, oldest first; stops when a claim holds it again. */
export async function drainInbox(db: Db, fx: Effects, dealId: string, nowMs = Date.now()): Promise<number> {
  let applied = 0;
  for (const row of await inboxOf(primaryOf(db), dealId)) {
    const result = await applyFacts(db, fx, dealId, { id: row.event_id, type: row.type, facts: JSON.parse(row.facts) as DealEventFacts }, "inbox", nowMs);
    if (result.reason === "kept") break;
    applied++;
  }
  return applied;
}

/** The deal an event is about: named by the event, by our ids of its payment, else (a dispute) by its charge at Stripe. */
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

/**
 * One money move at a time (docs/decisions/035). A money transition (a release, a refund, staff's
 * resolution, a reversal) is a MoneyOp run by `runMoney`: it claims the deal (the attempt's id in its own
 * column, by compare-and-set, refused as the process declares), drives the money at Stripe to the op's
 * target under keys of that attempt (move.ts), then settles: the deal's new facts and the claim cleared,
 * written only by the claim's holder. Meanwhile every other money call of that deal by a party, staff or
 * the jobs answers 409, and a Stripe event about it is recorded at once and kept (apply-event.ts), then
 * applied here once the claim settles. A claim whose worker died is resumed by the deal jobs (`resumeClaim`):
 * the same op, input and attempt, from what Stripe says the deal holds.
 */
import type { Actor, TransitionName } from "../../contract/deal-process";
import type { DealCaseReason } from "../../contract/deals";
import { primaryOf, type Db } from "../../db/client";
import { eventStatement, findDeal, type DealRow, type DealSet } from "../../db/queries/deals";
import { apiError } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { claim, claimOf, release, settle, type ActorRef, type Effects, type Plan } from "../deals/process";
import { notify } from "../notify";
import { drainInbox } from "./apply-event";
import { moveTo, usesStripe, type MoneyTarget, type Moved } from "./move";
import { requireMoneyPath } from "./money-path";
import { moneyOp } from "./ops";
import { announceSimulated } from "./simulate";

export interface MoneyContext {
  now: string;
  nowMs: number;
  as: Actor;
  actor: ActorRef;
}

export interface MoneyOp<I> {
  name: TransitionName;
  /** Refuses the input against the deal before anything is claimed (a 422), beyond the declaration's guard. */
  check?(d: DealRow, input: I, as: Actor): void;
  /** Where the money should be, from the claimed deal and the input. */
  target(d: DealRow, input: I): MoneyTarget;
  /** The deal's change once Stripe holds the money as `moved` says. */
  settle(d: DealRow, input: I, moved: Moved, ctx: MoneyContext): Plan;
  /** After the settle (a case for staff, the listing's cache): never fails the answer. */
  after?(db: Db, fx: Effects, d: DealRow, moved: Moved): Promise<unknown>;
}

export interface MoneyOptions {
  /** A crash test's seam: runs after Stripe moved the money, before the settle. */
  afterMove?: () => void | Promise<void>;
}

/** The money facts a settle records: what Stripe holds now (a refund the bank made, a lost dispute's, stays recorded). */
export const movedFacts = (d: DealRow, m: Moved): DealSet => ({
  refunded_cents: Math.max(d.refunded_cents, m.refunded),
  transferred_cents: m.transferred,
  transfer_reversed_cents: m.reversed,
  transfer_id: m.transferId,
});

/** Claims the deal for `op`, moves the money, settles; answers the deal after. */
export async function runMoney<I>(db: Db, fx: Effects, id: string, op: MoneyOp<I>, actor: ActorRef, input: I, nowMs: number, opts: MoneyOptions = {}): Promise<DealRow> {
  requireMoneyPath(fx.config);
  const c = await claim(db, id, op.name, actor, input, nowMs, (d, as) => op.check?.(d, input, as));
  return complete(db, fx, c.deal, c.attempt, op, actor, input, nowMs, opts);
}

async function complete<I>(db: Db, fx: Effects, d: DealRow, attempt: string, op: MoneyOp<I>, actor: ActorRef, input: I, nowMs: number, opts: MoneyOptions = {}): Promise<DealRow> {
  let moved: Moved;
  try {
    moved = await moveTo(db, fx.config, d, op.target(d, input), attempt);
  } catch (err) {
    // The outcome is unknown (Stripe unreachable, an outage): the claim stays; the jobs resume it from what Stripe holds.
    log.error("deal_money_move_failed", { deal_id: d.id, op: op.name, message: err instanceof Error ? err.message : "unknown" });
    throw apiError(502, { detail: "Could not reach Stripe. CampusNest will finish this payment step shortly." });
  }
  await opts.afterMove?.();
  const now = isoNow(nowMs);
  // More out than in was found at Stripe (whatever this move was for): reversed as far as Stripe allowed, and a staff case either way.
  const surplus = Math.max(moved.surplusBefore, moved.unreversed);
  const { after } = await settle(
    db,
    fx,
    d.id,
    attempt,
    op.name,
    actor,
    (row, role) => {
      const p = op.settle(row, input, moved, { now, nowMs, as: role, actor });
      if (!surplus) return p;
      return {
        ...p,
        set: { ...p.set, case_reason: p.set.case_reason === "release_failed" ? "release_failed" : "surplus" },
        statements: [
          ...(p.statements ?? []),
          eventStatement(row.id, { type: "surplus_found", actorId: null, actorRole: "system", at: now, details: { surplus_cents: surplus, refunded_cents: moved.refunded, transferred_cents: moved.transferred - moved.reversed, paid_cents: row.paid_cents } }),
        ],
      };
    },
    nowMs,
    d,
  );
  if (surplus) {
    log.error("deal_surplus_found", { deal_id: d.id, op: op.name, surplus_cents: surplus, unreversed_cents: moved.unreversed });
    openCase(db, fx, after, "surplus");
  }
  if (!usesStripe(fx.config)) await announceSimulated(db, fx, d, after, moved).catch((err: unknown) => log.warn("deal_simulation_failed", { message: err instanceof Error ? err.message : "unknown" }));
  await op.after?.(db, fx, after, moved).catch((err: unknown) => log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" }));
  return (await drainInbox(db, fx, d.id, nowMs)) ? (await findDeal(primaryOf(db), d.id))! : after;
}

/** A claim whose worker died: the same op, input and attempt, completed from what Stripe holds. */
export async function resumeClaim(db: Db, fx: Effects, id: string, nowMs: number): Promise<DealRow | null> {
  const d = await findDeal(primaryOf(db), id);
  const c = d && claimOf(d);
  if (!d || !c) return d;
  const op = moneyOp(c.name);
  if (!op) {
    log.error("deal_claim_unknown_op", { deal_id: id, op: c.name });
    await release(db, id, c.attempt, nowMs);
    return findDeal(primaryOf(db), id);
  }
  log.warn("deal_claim_resumed", { deal_id: id, op: c.name });
  return complete(db, fx, d, c.attempt, op, c.actor, c.input as never, nowMs);
}

/** Staff get a case (an email to the support address); the case itself is the deal's state. */
export function openCase(db: Db, fx: Effects, d: DealRow, reason: DealCaseReason) {
  fx.defer(notify({ db, env: fx.env, config: fx.config }, { address: fx.config.supportEmail, firstName: "" }, { kind: "deal_case_opened", dealId: d.id, title: d.listing_title, reason }).catch(() => undefined));
}

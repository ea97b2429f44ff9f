/**
 * The engine of the deal's declared process (contract/deal-process.ts; docs/decisions/026, 035). Every
 * change of a deal is `transition(db, fx, id, name, actor, plan)`: the deal is read on the primary, the
 * declaration refuses a wrong state, a wrong actor, a claim held by a money move or a closed guard
 * (409/403/404) before any plan runs; the plan answers the change, written as one compare-and-set on
 * `deals.version` (retried on a lost race, 8 attempts then 503). After it: the conversation room gets
 * both parties' views, and the notice the transition declares goes to its audience.
 *
 * A money move claims the deal first (`claim`: the attempt's id in its own column, by the same
 * compare-and-set), moves the money at Stripe under keys of that attempt, then `settle`s: only the
 * claim's holder can write the deal meanwhile (services/payments/claim.ts).
 */
import { TRANSITION, refusal, reviewWindowOpening, type Actor, type DealNotice, type NoticeAudience, type TransitionName } from "../../contract/deal-process";
import { DEAL_MESSAGES as M, shortDate } from "../../contract/deals";
import type { Config } from "../../env";
import { primaryOf, type Db } from "../../db/client";
import { bothConditions, claimCondition, compareAndSet, findDeal, type DealColumns, type DealRow, type DealSet, type GuardedStatement } from "../../db/queries/deals";
import { summaryStatement, underVersion } from "../../db/queries/reviews";
import { apiError, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { publishTo, type Defer } from "../messaging";
import { notify } from "../notify";
import type { DealNoticeFacts } from "../notify/deal-notices";
import { dealViews } from "./view";

export type Role = "renter" | "lister";
export const roleOf = (d: Pick<DealRow, "renter_id" | "lister_id">, userId: string): Role | null =>
  d.renter_id === userId ? "renter" : d.lister_id === userId ? "lister" : null;

/** Who makes a transition: a signed-in user (their role in the deal is read from it), or one of the others. */
export type ActorRef = { user: string } | { role: Exclude<Actor, Role>; id?: string | null };

export interface Effects {
  env: Env;
  config: Config;
  defer: Defer;
}

export interface Plan {
  set: DealSet;
  statements?: GuardedStatement[];
  /** A condition the row must also meet inside the transaction, and the error when it alone failed. */
  condition?: { statement: GuardedStatement; error: () => Error };
  /** Which of the transition's declared notices goes (default: its first); null: none this time. */
  notice?: DealNotice | null;
  /** What the notice says beyond the deal's own facts (a reason, amounts). */
  noticeFacts?: Partial<DealNoticeFacts>;
}

export interface Applied {
  before: DealRow;
  after: DealRow;
  /** The role the actor had (a user's is read from the deal). */
  as: Actor;
}

const ATTEMPTS = 8;
const busy = () => apiError(503, { detail: "The deal is changing right now. Please try again." });

/** The role `actor` has in `d`: a user who is neither party gets 404, as for a deal they cannot see. */
function actorRole(d: DealRow, actor: ActorRef): Actor {
  if ("role" in actor) return actor.role;
  const role = roleOf(d, actor.user);
  if (!role) throw notFound(M.notFound);
  return role;
}

/** The actor's id for events (a user's, staff's name; null for the system, Stripe and the landlord). */
export const actorIdOf = (actor: ActorRef) => ("user" in actor ? actor.user : (actor.id ?? null));

/**
 * Makes transition `name` as `actor`: refused as declared before `plan` runs; the plan's change written as
 * one compare-and-set (while no claim holds the deal, or `claim` holds it); the notice after. `claim`
 * is the attempt that holds the deal (only settling a money move passes it).
 */
export async function transition(
  db: Db,
  fx: Effects | null,
  id: string,
  name: TransitionName,
  actor: ActorRef,
  plan: (d: DealRow, as: Actor) => Plan | Promise<Plan>,
  nowMs: number,
  opts: { claim?: string; read?: DealRow } = {},
): Promise<Applied> {
  const def = TRANSITION[name];
  const primary = primaryOf(db);
  const now = isoNow(nowMs);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // A row the caller just read serves the first attempt (the compare-and-set on its version catches a stale one).
    const before = attempt === 0 && opts.read ? opts.read : await findDeal(primary, id);
    if (!before) throw notFound(M.notFound);
    const as = actorRole(before, actor);
    if (opts.claim) {
      if (before.claim_id !== opts.claim) throw apiError(409, { detail: "This payment step was already settled" });
      if (!def.from.includes(before.status)) throw new Error(`${name}: a claimed deal left ${before.status}`);
    } else {
      const no = refusal(name, before, { now: nowMs, as });
      if (no) throw apiError(no.status, { detail: no.detail });
    }
    const p = afterTheKeys(before, await plan(before, as), nowMs);
    const status = p.set.status;
    if (typeof status === "string" && status !== before.status && !def.to.includes(status)) throw new Error(`${name} cannot lead to ${status}`);
    if (p.notice && !def.notice?.kinds.includes(p.notice)) throw new Error(`${name} does not send ${p.notice}`);
    const claimHeld = claimCondition(id, opts.claim);
    const condition = p.condition ? bothConditions(claimHeld, p.condition.statement) : claimHeld;
    const applied = await compareAndSet(primary, id, before.version, { ...p.set, updated_at: now }, p.statements, def.duringClaim ? p.condition?.statement : condition);
    if (applied) {
      const after = (await findDeal(primary, id))!;
      if (fx) announce(db, fx, name, after, as, p);
      return { before, after, as };
    }
    if (p.condition) {
      const again = await findDeal(primary, id);
      if (again && again.version === before.version && !again.claim_id) throw p.condition.error();
    }
  }
  throw busy();
}

/**
 * A change into or out of `released` (docs/decisions/040): the first release opens the review window
 * (reviewWindowOpening), and both parties' review summaries are recomputed in the same batch, since a
 * review counts only while its deal is released (a deal refunded after a problem has no reviews).
 */
function afterTheKeys(before: DealRow, p: Plan, nowMs: number): Plan {
  const status = p.set.status;
  if (typeof status !== "string" || status === before.status || (status !== "released" && before.status !== "released")) return p;
  const released = status === "released";
  const set: DealSet = released && !before.review_window_ends_at ? { ...p.set, ...reviewWindowOpening(nowMs) } : p.set;
  const summaries = [before.renter_id, before.lister_id].map((userId) => underVersion(summaryStatement(userId, { id: before.id, released })));
  return { ...p, set, statements: [...(p.statements ?? []), ...summaries] };
}

// ---------------------------------------------------------------------------------------------
// One money move at a time: claim, then settle.

export interface Claim {
  attempt: string;
  deal: DealRow;
  as: Actor;
}

/**
 * Claims the deal for money transition `name` (refused as declared, like any transition): the attempt's
 * id, the transition and its input are written in the claim columns, nothing else. `check` may refuse the
 * input against what it read (422) before anything is written.
 */
export async function claim(db: Db, id: string, name: TransitionName, actor: ActorRef, input: unknown, nowMs: number, check?: (d: DealRow, as: Actor) => void): Promise<Claim> {
  const attempt = newId(20);
  const { after, as } = await transition(
    db,
    null,
    id,
    name,
    actor,
    (d, role) => {
      check?.(d, role);
      return { set: { claim_id: attempt, claim_op: name, claim_input: JSON.stringify({ input, actor, at: nowMs }), claim_at: isoNow(nowMs) } };
    },
    nowMs,
  );
  return { attempt, deal: after, as };
}

/** The claim's stored operation, for its resumption. */
export function claimOf(d: Pick<DealColumns, "claim_id" | "claim_op" | "claim_input">): { attempt: string; name: TransitionName; input: unknown; actor: ActorRef; at: number } | null {
  if (!d.claim_id || !d.claim_op || !d.claim_input) return null;
  const stored = JSON.parse(d.claim_input) as { input: unknown; actor: ActorRef; at: number };
  return { attempt: d.claim_id, name: d.claim_op as TransitionName, ...stored };
}

/** Settles the claim `attempt`: the plan's change, and the claim cleared, in one compare-and-set only the claim's holder can make. */
export function settle(db: Db, fx: Effects, id: string, attempt: string, name: TransitionName, actor: ActorRef, plan: (d: DealRow, as: Actor) => Plan, nowMs: number, read?: DealRow): Promise<Applied> {
  return transition(
    db,
    fx,
    id,
    name,
    actor,
    (d, as) => {
      const p = plan(d, as);
      return { ...p, set: { ...p.set, claim_id: null, claim_op: null, claim_input: null, claim_at: null } };
    },
    nowMs,
    { claim: attempt, read },
  );
}

/** Lets go of a claim without any change (the money move did not happen: Stripe refused before moving anything). */
export async function release(db: Db, id: string, attempt: string, nowMs: number): Promise<void> {
  await transition(db, null, id, TRANSITION_OF_CLAIM, { role: "system" }, () => ({ set: { claim_id: null, claim_op: null, claim_input: null, claim_at: null } }), nowMs, { claim: attempt }).catch((err: unknown) => {
    if ((err as { status?: number }).status !== 409) throw err;
  });
}
// Letting go changes nothing of the process: it is written under the transition every state allows.
const TRANSITION_OF_CLAIM: TransitionName = "settle_due";

// ---------------------------------------------------------------------------------------------
// After a change: the room and the notice.

/** Publishes the deal to its conversation's room: each party's own view (their actions, whose step), so both cards update live. */
export async function publishDeal(db: Db, fx: Effects, d: DealRow) {
  if (!d.conversation_id) return null;
  return publishTo(fx.env, "conversation", d.conversation_id, { type: "deal", deal_id: d.id, views: await dealViews(db, fx.config, d) });
}

const audienceOf = (to: NoticeAudience, as: Actor): Role[] =>
  to === "both" ? ["renter", "lister"] : to === "other" ? (as === "renter" ? ["lister"] : as === "lister" ? ["renter"] : ["renter", "lister"]) : [to];

/** What every deal notice says of the deal, for the party reading it. */
export function noticeFactsOf(d: DealRow, to: Role, by: Actor, more: Partial<DealNoticeFacts> = {}): DealNoticeFacts {
  return {
    dealId: d.id,
    title: d.listing_title,
    stay: `${shortDate(d.move_in)} to ${shortDate(d.move_out)}`,
    renter: d.renter_first_name ?? "The renter",
    lister: d.lister_first_name ?? "The lister",
    to,
    by,
    status: d.status,
    reason: d.status_reason,
    currency: "usd",
    rentCents: d.paid_rent_cents,
    feeCents: d.paid_cents - d.paid_rent_cents,
    refundCents: Math.max(d.refund_due_cents, d.refunded_cents),
    transferCents: Math.max(0, d.transferred_cents - d.transfer_reversed_cents),
    heldUntil: d.held_until,
    decideBy: d.cancel_decide_by,
    unverified: (["renter", "lister"] as const).filter((r) => !(r === "renter" ? d.renter_verified : d.lister_verified)),
    listerReady: d.lister_payout_status === "ready",
    ...more,
  };
}

/** Sends a declared notice of the deal to its audience (after the answer; never fails the change). */
export async function sendNotice(db: Db, fx: Effects, kind: DealNotice, to: NoticeAudience, d: DealRow, by: Actor, more?: Partial<DealNoticeFacts>) {
  for (const role of audienceOf(to, by)) {
    await notify({ db, env: fx.env, config: fx.config }, { userId: role === "renter" ? d.renter_id : d.lister_id }, { kind, deal: noticeFactsOf(d, role, by, more) } as Parameters<typeof notify>[2]);
  }
}

function announce(db: Db, fx: Effects, name: TransitionName, d: DealRow, as: Actor, p: Plan) {
  const def = TRANSITION[name];
  const kind = p.notice === undefined ? (def.notice?.kinds[0] ?? null) : p.notice;
  fx.defer(
    (async () => {
      try {
        await publishDeal(db, fx, d);
        if (kind && def.notice) await sendNotice(db, fx, kind, def.notice.to, d, as, p.noticeFacts);
      } catch (err) {
        log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" });
      }
    })(),
  );
}

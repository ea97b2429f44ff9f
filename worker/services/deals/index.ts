/**
 * Deals (api-contract "Deals"; docs/decisions/026): the request in the conversation, the lister's
 * answer, cancellation, expiry, and what ends open deals (a deleted listing or account, a suspension,
 * a block). Every change of a deal is `transition()`: one compare-and-set batch on `deals.version`,
 * retried on a lost race, so two taps, tabs or parties at once end in one valid state.
 *
 * After a change: the conversation room gets `{type: "deal", deal}` and the parties an email through
 * notify(); both run after the answer and never fail it.
 */
import { publicAddress } from "../../contract/address";
import {
  DEAL_MESSAGES as M,
  DEAL_REASONS,
  DEAL_TIMING,
  OPEN_UNPAID,
  RESERVING,
  TAKEN,
  addMonths,
  consentSettled,
  firstPayment,
  localDate,
  nextDate,
  requestSummary,
  shortDate,
  startOfDate,
  timeZoneOfState,
  type CreateDealInput,
  type Deal,
} from "../../contract/deals";
import { isPublicListing } from "../../contract/policies";
import type { Message } from "../../contract/messages";
import { getConfig, type Config } from "../../env";
import { primaryOf, type Db } from "../../db/client";
import {
  NO_OVERLAP,
  agreementStatement,
  compareAndSet,
  conversationIdOfPair,
  dealsOfUser,
  dueDeals,
  eventStatement,
  findDeal,
  findDealByKey,
  findDealOfParty,
  findOpenDealOfStay,
  insertDealRequest,
  openDealsOf,
  overlappingDeal,
  supersedeLinksStatement,
  type DealCursor,
  type DealRow,
  type DealSet,
  type GuardedStatement,
} from "../../db/queries/deals";
import { unreadCount } from "../../db/queries/conversations";
import { overlappingOpenDeals } from "../../db/queries/deal-payments";
import { findListingRow } from "../../db/queries/listings";
import { blocksBetween } from "../../db/queries/reports";
import { findUserById, type UserRow } from "../../db/queries/users";
import { apiError, conflict, forbidden, isUniqueViolation, notFound, validationFailed } from "../../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { keysetPage } from "../../lib/cursor";
import type { Pagination } from "../../contract/listings";
import { publishTo, type Defer } from "../messaging";
import { notify } from "../notify";
import { agreementFor } from "./agreement";

import type { RequestMeta } from "../../lib/request-meta";
export type { RequestMeta };
const NO_META: RequestMeta = { ip: null, userAgent: null };

export type Role = "renter" | "lister";
export const roleOf = (d: Pick<DealRow, "renter_id" | "lister_id">, userId: string): Role | null =>
  d.renter_id === userId ? "renter" : d.lister_id === userId ? "lister" : null;

// ---------------------------------------------------------------------------------------------
// The Deal object.

/** The full address is the renter's from acceptance until the deal ends unpaid. */
const FULL_ADDRESS_STATES = new Set(["accepted", "signed", "paid", "moved_in", "released", "disputed", "refunded"]);

export function toDeal(d: DealRow, config: Config): Deal {
  const fee = d.fee_percent ?? config.dealFeePercent;
  const pay = firstPayment(d.monthly_rent, d.move_in, d.move_out, fee);
  const full = d.address ?? d.listing_address ?? "";
  const paid = d.payment_status !== "none";
  return {
    id: d.id,
    listing_id: d.listing_id,
    listing_title: d.listing_title,
    renter: { id: d.renter_id, first_name: d.renter_first_name ?? "Deleted", last_name: d.renter_last_name ?? "user" },
    lister: { id: d.lister_id, first_name: d.lister_first_name ?? "Deleted", last_name: d.lister_last_name ?? "user" },
    move_in: d.move_in,
    move_out: d.move_out,
    monthly_rent: d.monthly_rent,
    address: FULL_ADDRESS_STATES.has(d.status) && d.address ? d.address : publicAddress(full),
    status: d.status as Deal["status"],
    status_reason: d.status_reason,
    created_at: d.created_at,
    updated_at: d.updated_at,
    agreement:
      d.agreement_version > 0 && d.agreement_sha256
        ? { version: d.agreement_version, sha256: d.agreement_sha256, renter_signed_at: d.renter_signed_at, lister_signed_at: d.lister_signed_at }
        : null,
    landlord_consent: { status: d.landlord_consent as Deal["landlord_consent"]["status"] },
    // Before payment, the amounts the first payment will be; after it, what was paid (docs/decisions/029).
    payment: {
      status: d.payment_status as Deal["payment"]["status"],
      rent_cents: paid ? d.paid_rent_cents : pay.rent_cents,
      fee_cents: paid ? d.paid_cents - d.paid_rent_cents : pay.fee_cents,
      total_cents: paid ? d.paid_cents : pay.total_cents,
      currency: "usd",
      held_until: d.held_until,
      released_at: d.released_at,
      refunded_cents: Math.max(d.refund_due_cents, d.refunded_cents),
      paid_at: d.paid_at,
      fee_percent: fee,
      payable: d.status === "signed" && consentSettled(d.landlord_consent) && d.lister_payout_status === "ready",
      waiting_for: d.status === "signed" && d.lister_payout_status !== "ready" ? "lister_payouts" : null,
    },
    cancellation: d.cancel_requested_at && d.cancel_decide_by ? { requested_at: d.cancel_requested_at, decide_by: d.cancel_decide_by } : null,
    problem: d.problem_kind && d.problem_opened_at ? { kind: d.problem_kind as NonNullable<Deal["problem"]>["kind"], opened_at: d.problem_opened_at } : null,
    case_reason: (d.case_reason as Deal["case_reason"]) ?? null,
    moved_in_at: d.moved_in_at,
  };
}

// ---------------------------------------------------------------------------------------------
// The one way a deal changes.

export interface Plan {
  set: DealSet;
  statements?: GuardedStatement[];
  /** A condition the row must also meet inside the transaction, and the error when it alone failed. */
  condition?: { statement: GuardedStatement; error: () => Error };
}

const ATTEMPTS = 8;

/**
 * Reads the deal (primary), asks `plan` for the change (it throws 4xx when the change is not possible
 * from what it read), and writes it as one compare-and-set; on a lost race, reads again and retries.
 * Answers the deal before and after.
 */
export async function transition(db: Db, dealId: string, plan: (d: DealRow) => Plan | Promise<Plan>, now: string): Promise<{ before: DealRow; after: DealRow }> {
  const primary = primaryOf(db);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = await findDeal(primary, dealId);
    if (!before) throw notFound(M.notFound);
    const p = await plan(before);
    const applied = await compareAndSet(primary, dealId, before.version, { ...p.set, updated_at: now }, p.statements, p.condition?.statement);
    if (applied) return { before, after: (await findDeal(primary, dealId))! };
    if (p.condition) {
      const again = await findDeal(primary, dealId);
      if (again && again.version === before.version) throw p.condition.error();
    }
  }
  throw apiError(503, { detail: "The deal is changing right now. Please try again." });
}

const ev = (type: string, actorId: string | null, actorRole: string, at: string, meta: RequestMeta, extra: Partial<Parameters<typeof eventStatement>[1]> = {}) => ({
  type,
  actorId,
  actorRole,
  at,
  ip: meta.ip,
  userAgent: meta.userAgent,
  ...extra,
});

export const requireState = (d: DealRow, ...states: string[]) => {
  if (!states.includes(d.status)) throw conflict(M.wrongState(d.status));
};

// ---------------------------------------------------------------------------------------------
// After a change: the room and the emails.

export interface Effects {
  env: Env;
  config: Config;
  defer: Defer;
}

/** Publishes the deal to its conversation's room (both cards update live). */
export function publishDeal(fx: Effects, d: DealRow) {
  if (!d.conversation_id) return Promise.resolve(null);
  return publishTo(fx.env, "conversation", d.conversation_id, { type: "deal", deal: toDeal(d, fx.config) });
}

/** Emails one party (or both) about a step. */
export async function emailParties(db: Db, fx: Pick<Effects, "env" | "config">, d: DealRow, to: Role[], subject: string, lines: string[]) {
  for (const role of to) {
    const userId = role === "renter" ? d.renter_id : d.lister_id;
    await notify({ db, env: fx.env, config: fx.config }, { userId }, { kind: "deal_update", dealId: d.id, subject, lines });
  }
}

function after(db: Db, fx: Effects, d: DealRow, email?: { to: Role[]; subject: string; lines: string[] }) {
  fx.defer(
    (async () => {
      try {
        await publishDeal(fx, d);
        if (email) await emailParties(db, fx, d, email.to, email.subject, email.lines);
      } catch (err) {
        log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" });
      }
    })(),
  );
}

const stay = (d: Pick<DealRow, "move_in" | "move_out">) => `${shortDate(d.move_in)} to ${shortDate(d.move_out)}`;
const other = (role: Role): Role => (role === "renter" ? "lister" : "renter");

// ---------------------------------------------------------------------------------------------
// Reading.

export async function dealForParty(db: Db, config: Config, user: Pick<UserRow, "id">, id: string): Promise<Deal> {
  const d = await findDealOfParty(db, id, user.id);
  if (!d) throw notFound(M.notFound);
  return toDeal(d, config);
}

export async function dealsForUser(db: Db, config: Config, userId: string, limit: number, cursor: DealCursor | null): Promise<{ data: Deal[]; pagination: Pagination }> {
  const rows = await dealsOfUser(db, userId, limit, cursor);
  const { items, pagination } = keysetPage(rows, limit, (last) => ({ created_at: last.created_at, id: last.id }));
  return { data: items.map((d) => toDeal(d, config)), pagination };
}

/** The deal when `userId` is a party, else 404; with their role. */
export async function partyDeal(db: Db, id: string, userId: string): Promise<{ deal: DealRow; role: Role }> {
  const deal = await findDealOfParty(primaryOf(db), id, userId);
  if (!deal) throw notFound(M.notFound);
  return { deal, role: roleOf(deal, userId)! };
}

// ---------------------------------------------------------------------------------------------
// The request.

export interface CreateResult {
  deal: Deal;
  created: boolean;
}

/**
 * A renter's request for a stay: checks, then the deal, its first event and its card in the pair's
 * conversation in one batch. The same renter's open deal for that listing and stay is answered again
 * (`created: false`), and so is a repeated Idempotency-Key within 24 hours.
 */
export async function requestDeal(db: Db, fx: Effects, user: UserRow, input: CreateDealInput, key: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<CreateResult> {
  const now = isoNow(nowMs);
  const since = isoNow(nowMs - IDEMPOTENCY_WINDOW_MS);
  if (key) {
    const earlier = await findDealByKey(db, user.id, key, since);
    if (earlier) return { deal: replayOf(earlier, input, fx.config), created: false };
  }
  const listing = await findListingRow(db, input.listing_id);
  if (listing && listing.user_id === user.id) throw forbidden(M.ownListing);
  if (!listing || !isPublicListing(listing)) throw notFound(M.listingNotFound);
  const [lister, blocks, uni] = await Promise.all([
    findUserById(db, listing.user_id),
    blocksBetween(db, user.id, listing.user_id),
    db.$client.prepare("SELECT state FROM universities WHERE id = ?").bind(listing.university_id).first<{ state: string }>(),
  ]);
  if (!lister || lister.suspendedAt) throw notFound(M.listingNotFound);
  if (blocks.byOther || blocks.byUser) throw forbidden(M.blocked);

  const timeZone = timeZoneOfState(uni?.state);
  const today = localDate(nowMs, timeZone);
  checkStay(input, listing, today);

  const existing = await findOpenDealOfStay(db, user.id, listing.id, input.move_in, input.move_out);
  if (existing) return { deal: toDeal(existing, fx.config), created: false };
  if (await overlappingDeal(db, listing.id, input.move_in, input.move_out, TAKEN)) throw conflict(M.datesTaken);

  const conversationId = await conversationIdOfPair(db, user.id, lister.id, listing.id, now);
  const id = newId();
  try {
    await insertDealRequest(
      db,
      {
        id,
        listingId: listing.id,
        renterId: user.id,
        listerId: lister.id,
        conversationId,
        moveIn: input.move_in,
        moveOut: input.move_out,
        timeZone,
        expiresAt: isoNow(nowMs + DEAL_TIMING.requestTtlMs),
        listingTitle: listing.title,
        monthlyRent: listing.monthly_rent,
        idempotencyKey: key,
        messageText: requestSummary(input.move_in, input.move_out),
        now,
        ip: meta.ip,
        userAgent: meta.userAgent,
      },
      key ? since : null,
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Two requests at once (two taps, or the same key): the first one stored is the answer.
    const primary = primaryOf(db);
    const twin = (key ? await findDealByKey(primary, user.id, key, since) : null) ?? (await findOpenDealOfStay(primary, user.id, listing.id, input.move_in, input.move_out));
    if (!twin) throw err;
    return { deal: key ? replayOf(twin, input, fx.config) : toDeal(twin, fx.config), created: false };
  }
  const row = (await findDeal(primaryOf(db), id))!;
  fx.defer(announceRequest(db, fx, row, user));
  return { deal: toDeal(row, fx.config), created: true };
}

/** The first request under a key answers again; the key reused for another request is 422. */
function replayOf(d: DealRow, input: CreateDealInput, config: Config): Deal {
  if (d.listing_id !== input.listing_id || d.move_in !== input.move_in || d.move_out !== input.move_out) {
    throw validationFailed([{ path: "Idempotency-Key", message: "This Idempotency-Key was used for another request" }]);
  }
  return toDeal(d, config);
}

/** The stay's rules (api-contract "Deals"): within the listing's dates, not in the past. 422 otherwise. */
function checkStay(input: CreateDealInput, listing: { available_from: string | null; available_to: string | null }, today: string) {
  const fail = (path: string, message: string) => validationFailed([{ path, message }]);
  if (input.move_in < today) throw fail("move_in", "The stay cannot start in the past");
  if (listing.available_from && listing.available_to) {
    if (input.move_in < listing.available_from) throw fail("move_in", `The listing is available from ${shortDate(listing.available_from)}`);
    if (input.move_out > listing.available_to) throw fail("move_out", `The listing is available until ${shortDate(listing.available_to)}`);
  } else if (input.move_out > addMonths(today, DEAL_TIMING.undatedMaxMonths)) {
    throw fail("move_out", `The stay must end within ${DEAL_TIMING.undatedMaxMonths} months`);
  }
}

/** The card in the thread, the lister's unread count, the room event and the lister's email. */
async function announceRequest(db: Db, fx: Effects, d: DealRow, renter: UserRow) {
  try {
    const messageRow = await db.$client
      .prepare("SELECT id, created_at FROM messages WHERE deal_id = ? AND kind = 'deal' LIMIT 1")
      .bind(d.id)
      .first<{ id: string; created_at: string }>();
    if (messageRow && d.conversation_id) {
      const message: Message = {
        id: messageRow.id,
        sender_id: d.renter_id,
        text: requestSummary(d.move_in, d.move_out),
        timestamp: messageRow.created_at,
        is_read: false,
        conversation_id: d.conversation_id,
        safety_notice: false,
        safety_kind: null,
        client_key: null,
        kind: "deal",
        deal_id: d.id,
      };
      await publishTo(fx.env, "conversation", d.conversation_id, { type: "message", message });
      await publishTo(fx.env, "inbox", d.lister_id, { type: "unread", unread_count: await unreadCount(db, d.lister_id) });
    }
    await publishDeal(fx, d);
    await emailParties(db, fx, d, ["lister"], `Sublease request for "${d.listing_title}"`, [
      `${renter.firstName} asks to sublease "${d.listing_title}" from ${stay(d)}.`,
      "Accept or decline within 72 hours; after that the request expires.",
    ]);
  } catch (err) {
    log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" });
  }
}

// ---------------------------------------------------------------------------------------------
// The lister's answer, cancellation.

/**
 * The lister accepts: the snapshot (rent, fee, address, unit facts) is taken now, the first agreement
 * version is made, and the dates are reserved: the write applies only while no other deal of the
 * listing that holds dates overlaps (checked inside the same transaction: two accepts at once, one wins).
 */
export async function acceptDeal(db: Db, fx: Effects, user: UserRow, id: string, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  await partyDeal(db, id, user.id);
  const { after: d } = await transition(
    db,
    id,
    async (d) => {
      if (d.lister_id !== user.id) throw forbidden(M.onlyLister);
      requireState(d, "requested");
      if (d.expires_at && d.expires_at <= now) throw conflict(M.wrongState("expired"));
      if (!d.listing_id) throw conflict(M.wrongState("cancelled"));
      const listing = await findListingRow(db, d.listing_id);
      if (!listing) throw conflict(M.listingUnavailable);
      const snapshot = {
        status: "accepted",
        status_reason: null,
        accepted_at: now,
        // Unpaid by the end of move-in day (so a stay starting today can still be paid today).
        expires_at: isoNow(startOfDate(nextDate(d.move_in), d.time_zone)),
        listing_title: listing.title,
        monthly_rent: listing.monthly_rent,
        fee_percent: fx.config.dealFeePercent,
        address: listing.address,
        unit_type: listing.unit_type,
        parking: listing.parking ? 1 : 0,
        allow_pets: listing.allow_pets ? 1 : 0,
      };
      const agreement = await agreementFor(db, { ...d, ...snapshot, fee_percent: snapshot.fee_percent });
      const version = d.agreement_version + 1;
      return {
        set: { ...snapshot, agreement_version: version },
        statements: [
          agreementStatement(d.id, version, agreement.template, agreement.text, agreement.sha256, now),
          eventStatement(d.id, ev("accepted", user.id, "lister", now, meta, { agreementVersion: version, sha256: agreement.sha256 })),
        ],
        condition: {
          statement: { sql: NO_OVERLAP(RESERVING), params: [d.listing_id, d.move_out, d.move_in, d.id] },
          error: () => conflict(M.overlapAccepted),
        },
      };
    },
    now,
  );
  after(db, fx, d, {
    to: ["renter"],
    subject: `Accepted: "${d.listing_title}"`,
    lines: [`${user.firstName} accepted your request for ${stay(d)}.`, "Read the agreement on the deal; both of you sign it there once the landlord's consent is settled."],
  });
  return toDeal(d, fx.config);
}

export async function declineDeal(db: Db, fx: Effects, user: UserRow, id: string, reason: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  await partyDeal(db, id, user.id);
  const { after: d } = await transition(
    db,
    id,
    (d) => {
      if (d.lister_id !== user.id) throw forbidden(M.onlyLister);
      requireState(d, "requested");
      return {
        set: { status: "declined", status_reason: reason || null, expires_at: null },
        statements: [eventStatement(d.id, ev("declined", user.id, "lister", now, meta, { details: reason ? { reason } : undefined }))],
      };
    },
    now,
  );
  after(db, fx, d, { to: ["renter"], subject: `Declined: "${d.listing_title}"`, lines: [`Your request for ${stay(d)} was declined.${reason ? ` Reason: ${reason}` : ""}`] });
  return toDeal(d, fx.config);
}

/** Either party cancels an unpaid deal (payments add the paid cases). */
export async function cancelDeal(db: Db, fx: Effects, user: UserRow, id: string, reason: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  const { role } = await partyDeal(db, id, user.id);
  const { after: d } = await transition(
    db,
    id,
    (d) => {
      requireState(d, ...OPEN_UNPAID);
      return {
        set: { status: "cancelled", status_reason: reason || `cancelled_by_${role}`, expires_at: null },
        statements: [supersedeLinksStatement(d.id, now), eventStatement(d.id, ev("cancelled", user.id, role, now, meta, { details: reason ? { reason } : undefined }))],
      };
    },
    now,
  );
  after(db, fx, d, { to: [other(role)], subject: `Cancelled: "${d.listing_title}"`, lines: [`The deal for ${stay(d)} was cancelled by the ${role}.${reason ? ` Reason: ${reason}` : ""}`] });
  return toDeal(d, fx.config);
}

// ---------------------------------------------------------------------------------------------
// Ends that no party chose: expiry, deletion, suspension, blocks.

/**
 * Ends one open unpaid deal as `status` with `reason` (a system event), if it is still open; false when
 * it was no longer open (another change won).
 */
async function endBySystem(db: Db, fx: Effects, id: string, status: "expired" | "cancelled" | "declined", reason: string, nowMs: number, due?: string): Promise<DealRow | null> {
  const now = isoNow(nowMs);
  try {
    const { after: d } = await transition(
      db,
      id,
      (d) => {
        requireState(d, ...OPEN_UNPAID);
        if (due && !(d.expires_at && d.expires_at <= due)) throw conflict("not due");
        return {
          set: { status, status_reason: reason, expires_at: null },
          statements: [supersedeLinksStatement(d.id, now), eventStatement(d.id, ev(status, null, "system", now, NO_META, { details: { reason } }))],
        };
      },
      now,
    );
    return d;
  } catch (err) {
    if (err instanceof Error && "status" in err && (err as { status: number }).status === 409) return null;
    throw err;
  }
}

/**
 * A paid stay takes its dates: the listing's other open requests that overlap it are declined, and
 * accepted or signed deals cancelled (`stay_taken`), with a message (docs/decisions/029). Answers how many.
 */
export async function declineOverlappingDeals(db: Db, fx: Effects, paid: Pick<DealRow, "id" | "listing_id" | "move_in" | "move_out">, nowMs = Date.now()): Promise<number> {
  if (!paid.listing_id) return 0;
  let declined = 0;
  for (const { id, status } of await overlappingOpenDeals(primaryOf(db), paid.listing_id, paid.move_in, paid.move_out, paid.id)) {
    // A request is declined; an accepted or signed deal (whose payment may still be on its way) is cancelled.
    const d = await endBySystem(db, fx, id, status === "requested" ? "declined" : "cancelled", DEAL_REASONS.stayTaken, nowMs);
    if (!d) continue;
    declined++;
    after(db, fx, d, { to: ["renter"], subject: `Not available: "${d.listing_title}"`, lines: [REASON_LINES[DEAL_REASONS.stayTaken]!] });
  }
  return declined;
}

const REASON_LINES: Record<string, string> = {
  [DEAL_REASONS.stayTaken]: "Someone else paid for a stay that overlaps your dates, so your request was declined. Other dates may still be free.",
  [DEAL_REASONS.requestExpired]: "The request was not answered within 72 hours, so it expired.",
  [DEAL_REASONS.notPaidByMoveIn]: "The first payment was not made by the move-in date, so the deal expired.",
  [DEAL_REASONS.listingDeleted]: "The listing was deleted, so the deal was cancelled.",
  [DEAL_REASONS.accountDeleted]: "An account of the deal was deleted, so the deal was cancelled.",
  [DEAL_REASONS.partySuspended]: "An account of the deal was suspended, so the deal was cancelled.",
  [DEAL_REASONS.partyBlocked]: "One of you blocked the other, so the deal was cancelled.",
};

/** The cron's deal job (and the development tick): every deal whose expiry has come, as of `nowMs`. */
export async function expireDueDeals(db: Db, fx: Effects, nowMs = Date.now()): Promise<number> {
  const nowIso = isoNow(nowMs);
  let expired = 0;
  for (const id of await dueDeals(db, nowIso)) {
    const before = await findDeal(primaryOf(db), id);
    if (!before) continue;
    const reason = before.status === "requested" ? DEAL_REASONS.requestExpired : DEAL_REASONS.notPaidByMoveIn;
    const d = await endBySystem(db, fx, id, "expired", reason, nowMs, nowIso);
    if (!d) continue;
    expired++;
    after(db, fx, d, { to: ["renter", "lister"], subject: `Expired: "${d.listing_title}"`, lines: [REASON_LINES[reason]!] });
  }
  return expired;
}

/**
 * Ends the open unpaid deals of a listing, an account, or a pair (before the listing or account
 * goes, at a suspension, at a block): `cancelled` with the reason. Paid deals are payments' to settle.
 */
export async function cancelOpenDeals(db: Db, env: Env, where: Parameters<typeof openDealsOf>[1], reason: string, defer?: Defer, nowMs = Date.now()): Promise<number> {
  const config = getConfig(env);
  const tasks: Promise<unknown>[] = [];
  const fx: Effects = { env, config, defer: defer ?? ((t) => void tasks.push(t)) };
  let cancelled = 0;
  for (const id of await openDealsOf(primaryOf(db), where)) {
    const d = await endBySystem(db, fx, id, "cancelled", reason, nowMs);
    if (!d) continue;
    cancelled++;
    after(db, fx, d, { to: ["renter", "lister"], subject: `Cancelled: "${d.listing_title}"`, lines: [REASON_LINES[reason] ?? "The deal was cancelled."] });
  }
  await Promise.allSettled(tasks);
  return cancelled;
}

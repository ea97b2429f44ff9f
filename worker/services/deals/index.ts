/**
 * Deals (api-contract "Deals"; docs/decisions/026, 035): the request in the conversation, the lister's
 * answer, cancellation before paying, and what ends open deals (expiry, a deleted listing or account, a
 * suspension, a block, a stay paid by someone else). Every change is a declared transition made through
 * the engine (process.ts); its notice is the one the declaration names.
 */
import { DEAL_GROUPS, chooseTransition, type Actor, type TransitionName } from "../../contract/deal-process";
import {
  DEAL_MESSAGES as M,
  DEAL_REASONS,
  DEAL_TIMING,
  addMonths,
  localDate,
  nextDate,
  requestSummary,
  shortDate,
  startOfDate,
  timeZoneOfState,
  type CreateDealInput,
  type Deal,
  type DealAction,
} from "../../contract/deals";
import { isPublicListing } from "../../contract/policies";
import type { Message } from "../../contract/messages";
import type { Pagination } from "../../contract/listings";
import { getConfig, type Config } from "../../env";
import { primaryOf, type Db } from "../../db/client";
import { unreadCount } from "../../db/queries/conversations";
import {
  noOverlapCondition,
  agreementStatement,
  claimRequestEmail,
  conversationIdOfPair,
  dealsOfUser,
  eventStatement,
  findDeal,
  findDealByKey,
  findDealOfParty,
  findOpenDealOfStay,
  insertDealRequest,
  lastSummaryOf,
  listersWithSummaryDue,
  markSummarized,
  openDealsOf,
  openRequestExpiries,
  signedDealIdsOfLister,
  overlappingDeal,
  overlappingOpenDeals,
  requestMessageOf,
  summaryDueOf,
  supersedeLinksStatement,
  universityStateOf,
  type DealCursor,
  type DealRow,
} from "../../db/queries/deals";
import { findListingRow } from "../../db/queries/listings";
import { blocksBetween } from "../../db/queries/reports";
import { findUserById, type UserRow } from "../../db/queries/users";
import { apiError, conflict, forbidden, isUniqueViolation, notFound, tooManyRequests, validationFailed } from "../../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { keysetPage } from "../../lib/cursor";
import type { RequestMeta } from "../../lib/request-meta";
import { publishTo, type Defer } from "../messaging";
import { notify } from "../notify";
import { agreementFor } from "./agreement";
import { noticeFactsOf, publishDeal, roleOf, transition, type ActorRef, type Effects, type Role } from "./process";
import { dealFor, problemsOf, toDeal } from "./view";

export type { Effects, RequestMeta, Role };
export { roleOf, transition, publishDeal };

const NO_META: RequestMeta = { ip: null, userAgent: null };

/** An event's who and where: the actor (a user's id and role), the request's address and browser. */
export const eventBy = (as: Actor, userId: string | null, at: string, meta: RequestMeta = NO_META) => ({ actorId: userId, actorRole: as, at, ip: meta.ip, userAgent: meta.userAgent });

/**
 * The transition a route's `action` makes for this user now (a party's role is read from the deal),
 * or the declaration's refusal (404 for a stranger, 403 a wrong party, 409 the state or a guard).
 */
export function transitionFor(d: DealRow, action: DealAction, actor: ActorRef, nowMs: number): TransitionName {
  const as: Actor = "user" in actor ? (roleOf(d, actor.user) ?? (() => { throw notFound(M.notFound); })()) : actor.role;
  const choice = chooseTransition(action, d, { now: nowMs, as });
  if ("refused" in choice) throw apiError(choice.refused.status, { detail: choice.refused.detail });
  return choice.name;
}

// ---------------------------------------------------------------------------------------------
// Reading.

export async function dealForParty(db: Db, config: Config, user: Pick<UserRow, "id">, id: string, nowMs = Date.now()): Promise<Deal> {
  const d = await findDealOfParty(db, id, user.id);
  if (!d) throw notFound(M.notFound);
  return dealFor(db, config, d, roleOf(d, user.id)!, nowMs);
}

export async function dealsForUser(db: Db, config: Config, userId: string, limit: number, cursor: DealCursor | null, nowMs = Date.now()): Promise<{ data: Deal[]; pagination: Pagination }> {
  const rows = await dealsOfUser(db, userId, limit, cursor);
  const { items, pagination } = keysetPage(rows, limit, (last) => ({ created_at: last.created_at, id: last.id }));
  const problems = await problemsOf(db, items);
  return { data: items.map((d) => toDeal(d, config, roleOf(d, userId)!, nowMs, problems.get(d.id) ?? null)), pagination };
}

/** The deal when `userId` is a party, else 404; with their role. */
export async function partyDeal(db: Db, id: string, userId: string): Promise<{ deal: DealRow; role: Role }> {
  const deal = await findDealOfParty(primaryOf(db), id, userId);
  if (!deal) throw notFound(M.notFound);
  return { deal, role: roleOf(deal, userId)! };
}

/** A party's answer after a change: the deal as they read it. */
export const answerFor = (db: Db, fx: Effects, d: DealRow, userId: string, nowMs = Date.now()) => dealFor(db, fx.config, d, roleOf(d, userId) ?? "staff", nowMs);

// ---------------------------------------------------------------------------------------------
// The request.

export interface CreateResult {
  deal: Deal;
  created: boolean;
}

/**
 * A renter's request for a stay: checks, then the deal, its first event and its card in the pair's
 * conversation in one batch (refused while the renter holds 5 open requests). The same renter's open
 * deal for that listing and stay is answered again (`created: false`), and so is a repeated
 * Idempotency-Key within 24 hours.
 */
export async function requestDeal(db: Db, fx: Effects, user: UserRow, input: CreateDealInput, key: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<CreateResult> {
  const now = isoNow(nowMs);
  const since = isoNow(nowMs - IDEMPOTENCY_WINDOW_MS);
  const answer = (d: DealRow) => dealFor(db, fx.config, d, "renter", nowMs);
  if (key) {
    const earlier = await findDealByKey(db, user.id, key, since);
    if (earlier) return { deal: await answer(replayOf(earlier, input)), created: false };
  }
  const listing = await findListingRow(db, input.listing_id);
  if (listing && listing.user_id === user.id) throw forbidden(M.ownListing);
  if (!listing || !isPublicListing(listing)) throw notFound(M.listingNotFound);
  const [lister, blocks, state] = await Promise.all([findUserById(db, listing.user_id), blocksBetween(db, user.id, listing.user_id), universityStateOf(db, listing.university_id)]);
  if (!lister || lister.suspendedAt) throw notFound(M.listingNotFound);
  if (blocks.byOther || blocks.byUser) throw forbidden(M.blocked);

  const timeZone = timeZoneOfState(state);
  const today = localDate(nowMs, timeZone);
  checkStay(input, listing, today);

  const existing = await findOpenDealOfStay(db, user.id, listing.id, input.move_in, input.move_out);
  if (existing) return { deal: await answer(existing), created: false };
  if (await overlappingDeal(db, listing.id, input.move_in, input.move_out, DEAL_GROUPS.taken)) throw conflict(M.datesTaken);

  const conversationId = await conversationIdOfPair(db, user.id, lister.id, listing.id, now);
  const id = newId();
  let written: boolean;
  try {
    written = await insertDealRequest(
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
      DEAL_TIMING.openRequestsPerRenter,
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Two requests at once (two taps, or the same key): the first one stored is the answer.
    const primary = primaryOf(db);
    const twin = (key ? await findDealByKey(primary, user.id, key, since) : null) ?? (await findOpenDealOfStay(primary, user.id, listing.id, input.move_in, input.move_out));
    if (!twin) throw err;
    return { deal: await answer(key ? replayOf(twin, input) : twin), created: false };
  }
  if (!written) {
    // At most 5 open requests: a slot frees when the soonest of them is answered or expires.
    const soonest = (await openRequestExpiries(primaryOf(db), user.id))[0];
    throw tooManyRequests(soonest ? Math.max(60, Math.ceil((Date.parse(soonest) - nowMs) / 1000)) : 60, M.openRequestsLimit);
  }
  const row = (await findDeal(primaryOf(db), id))!;
  fx.defer(announceRequest(db, fx, row, nowMs));
  return { deal: await answer(row), created: true };
}

/** The first request under a key answers again; the key reused for another request is 422. */
function replayOf(d: DealRow, input: CreateDealInput): DealRow {
  if (d.listing_id !== input.listing_id || d.move_in !== input.move_in || d.move_out !== input.move_out) {
    throw validationFailed([{ path: "Idempotency-Key", message: "This Idempotency-Key was used for another request" }]);
  }
  return d;
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

/**
 * The card in the thread, the lister's unread count, the room event, and the lister's email: one per
 * renter and listing a day; a later request of theirs waits for the lister's daily summary.
 */
async function announceRequest(db: Db, fx: Effects, d: DealRow, nowMs: number) {
  try {
    const messageRow = await requestMessageOf(db, d.id);
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
    await publishDeal(db, fx, d);
    if (d.listing_id && (await claimRequestEmail(db, d.id, d.renter_id, d.listing_id, isoNow(nowMs), isoNow(nowMs - DEAL_TIMING.requestEmailGapMs)))) {
      await notify({ db, env: fx.env, config: fx.config }, { userId: d.lister_id }, { kind: "deal_requested", deal: noticeFactsOf(d, "lister", "renter") });
    }
  } catch (err) {
    log.warn("deal_followup_failed", { error: err instanceof Error ? err.name : "unknown" });
  }
}

/** The cron: each lister with batched requests gets one summary a day of those still waiting. */
export async function sendRequestSummaries(db: Db, fx: Effects, nowMs: number): Promise<number> {
  let sent = 0;
  for (const listerId of await listersWithSummaryDue(db)) {
    const last = await lastSummaryOf(db, listerId);
    if (last && nowMs - Date.parse(last) < DEAL_TIMING.requestEmailGapMs) continue;
    const due = await summaryDueOf(db, listerId);
    const open = due.filter((r) => r.status === "requested");
    if (open.length) {
      await notify({ db, env: fx.env, config: fx.config }, { userId: listerId }, {
        kind: "deal_requests_summary",
        requests: open.map((r) => ({ dealId: r.id, title: r.listing_title, renter: r.renter_first_name ?? "A renter", stay: `${shortDate(r.move_in)} to ${shortDate(r.move_out)}` })),
      });
      sent++;
    }
    await markSummarized(db, due.map((r) => r.id), isoNow(nowMs));
  }
  return sent;
}

// ---------------------------------------------------------------------------------------------
// The lister's answer, cancellation before paying.

/**
 * The lister accepts: the snapshot (rent, fee, address, unit facts) is taken now, the first agreement
 * version is made, and the dates are reserved: the write applies only while no other deal of the
 * listing that holds dates overlaps (checked inside the same transaction: two accepts at once, one wins).
 */
export async function acceptDeal(db: Db, fx: Effects, user: UserRow, id: string, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  await partyDeal(db, id, user.id);
  const { after } = await transition(
    db,
    fx,
    id,
    "accept",
    { user: user.id },
    async (d) => {
      if (!d.listing_id) throw conflict(M.wrongState("cancelled"));
      const listing = await findListingRow(db, d.listing_id);
      if (!listing) throw conflict(M.listingUnavailable);
      const snapshot = {
        status: "accepted" as const,
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
      const agreement = await agreementFor(db, { ...d, ...snapshot });
      const version = d.agreement_version + 1;
      return {
        set: { ...snapshot, agreement_version: version },
        statements: [agreementStatement(d.id, version, agreement.template, agreement.text, agreement.sha256, now), eventStatement(d.id, { type: "accepted", ...eventBy("lister", user.id, now, meta), agreementVersion: version, sha256: agreement.sha256 })],
        condition: { statement: noOverlapCondition(DEAL_GROUPS.reserving, d.listing_id, d.move_in, d.move_out, d.id), error: () => conflict(M.overlapAccepted) },
      };
    },
    nowMs,
  );
  return answerFor(db, fx, after, user.id, nowMs);
}

export async function declineDeal(db: Db, fx: Effects, user: UserRow, id: string, reason: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  await partyDeal(db, id, user.id);
  const { after } = await transition(
    db,
    fx,
    id,
    "decline",
    { user: user.id },
    (d) => ({
      set: { status: "declined", status_reason: reason || null, expires_at: null },
      statements: [eventStatement(d.id, { type: "declined", ...eventBy("lister", user.id, now, meta), details: { reason } })],
    }),
    nowMs,
  );
  return answerFor(db, fx, after, user.id, nowMs);
}

/**
 * The lister's payouts became ready: each of their signed deals tells its renter they can pay now (and
 * both pages update live). A deal that moved on meanwhile is skipped.
 */
export async function announcePayable(db: Db, fx: Effects, listerId: string, nowMs = Date.now()): Promise<void> {
  for (const id of await signedDealIdsOfLister(primaryOf(db), listerId)) {
    await transition(db, fx, id, "payouts_ready", { role: "system" }, () => ({ set: {} }), nowMs).catch((err: unknown) => {
      if ((err as { status?: number }).status !== 409) throw err;
    });
  }
}

/**
 * The lister attaches the original lease (a private evidence url, checked by the route as theirs): both
 * parties and staff read it; attaching again replaces it. The agreement's clause on the Original Lease
 * points to it and never changes with it (no new agreement version).
 */
export async function attachLease(db: Db, fx: Effects, user: UserRow, id: string, url: string, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  const { after } = await transition(
    db,
    fx,
    id,
    "lease",
    { user: user.id },
    (d) => ({
      set: { lease_url: url, lease_attached_at: now },
      statements: [eventStatement(d.id, { type: "lease_attached", ...eventBy("lister", user.id, now, meta), details: { url } })],
    }),
    nowMs,
  );
  return answerFor(db, fx, after, user.id, nowMs);
}

/** Either party cancels before paying (the renter withdraws a request; on a request the lister declines instead). */
export async function cancelUnpaid(db: Db, fx: Effects, user: UserRow, id: string, name: "withdraw" | "cancel", reason: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  const { after } = await transition(
    db,
    fx,
    id,
    name,
    { user: user.id },
    (d, as) => ({
      set: { status: "cancelled", status_reason: reason || `cancelled_by_${as}`, expires_at: null },
      statements: [supersedeLinksStatement(d.id, now), eventStatement(d.id, { type: "cancelled", ...eventBy(as, user.id, now, meta), details: { reason } })],
      noticeFacts: { reason },
    }),
    nowMs,
  );
  return answerFor(db, fx, after, user.id, nowMs);
}

// ---------------------------------------------------------------------------------------------
// Ends that no party chose: expiry, deletion, suspension, blocks, a stay paid by someone else.

type SystemEnd = { name: "expire"; reason: string } | { name: "end"; reason: string } | { name: "stay_taken"; reason: string };

/** Ends one open unpaid deal as the system; null when it was no longer open (another change won, or not due). */
async function endBySystem(db: Db, fx: Effects, id: string, end: SystemEnd, nowMs: number): Promise<DealRow | null> {
  const now = isoNow(nowMs);
  try {
    const { after } = await transition(
      db,
      fx,
      id,
      end.name,
      { role: "system" },
      (d) => {
        const status = end.name === "expire" ? "expired" : end.name === "stay_taken" && d.status === "requested" ? "declined" : "cancelled";
        return {
          set: { status, status_reason: end.reason, expires_at: null },
          statements: [supersedeLinksStatement(d.id, now), eventStatement(d.id, { type: status === "expired" ? "expired" : status === "declined" ? "declined" : "cancelled", ...eventBy("system", null, now), details: { reason: end.reason } })],
          noticeFacts: { reason: end.reason },
        };
      },
      nowMs,
    );
    return after;
  } catch (err) {
    if ((err as { status?: number }).status === 409) return null;
    throw err;
  }
}

/** The deal jobs' expiry of one deal whose `expires_at` came (a request unanswered in 72 h, or not paid by move-in). */
export async function expireDeal(db: Db, fx: Effects, id: string, nowMs: number): Promise<boolean> {
  const d = await findDeal(primaryOf(db), id);
  if (!d) return false;
  return !!(await endBySystem(db, fx, id, { name: "expire", reason: d.status === "requested" ? DEAL_REASONS.requestExpired : DEAL_REASONS.notPaidByMoveIn }, nowMs));
}

/**
 * A paid stay takes its dates: the listing's other open requests that overlap it are declined, and
 * accepted or signed deals cancelled (`stay_taken`), with a notice (docs/decisions/029). Answers how many.
 */
export async function declineOverlappingDeals(db: Db, fx: Effects, paid: Pick<DealRow, "id" | "listing_id" | "move_in" | "move_out">, nowMs = Date.now()): Promise<number> {
  if (!paid.listing_id) return 0;
  let declined = 0;
  for (const { id } of await overlappingOpenDeals(primaryOf(db), paid.listing_id, paid.move_in, paid.move_out, paid.id)) {
    if (await endBySystem(db, fx, id, { name: "stay_taken", reason: DEAL_REASONS.stayTaken }, nowMs)) declined++;
  }
  return declined;
}

/**
 * Ends the open unpaid deals of a listing, an account, or a pair (before the listing or account goes, at
 * a suspension, at a block): `cancelled` with the reason. Paid deals are payments' to settle.
 */
export async function cancelOpenDeals(db: Db, env: Env, where: Parameters<typeof openDealsOf>[1], reason: string, defer?: Defer, nowMs = Date.now()): Promise<number> {
  const tasks: Promise<unknown>[] = [];
  const fx: Effects = { env, config: getConfig(env), defer: defer ?? ((t) => void tasks.push(t)) };
  let cancelled = 0;
  for (const id of await openDealsOf(primaryOf(db), where)) {
    if (await endBySystem(db, fx, id, { name: "end", reason }, nowMs)) cancelled++;
  }
  await Promise.allSettled(tasks);
  return cancelled;
}


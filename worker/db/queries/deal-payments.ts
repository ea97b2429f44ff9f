/**
 * Deal payments (docs/decisions/029, 035): checkout sessions, a case's report and statements, the Stripe
 * ids that lead an event to its deal, the events that wait for a claim to settle, the jobs' due lists
 * (claims to resume, money still owed, deals to reconcile with Stripe), the stays a listing has sold and
 * staff's money figures. Writes of `deals` stay in the compare-and-set (queries/deals.ts `compareAndSet`);
 * the statements here that join a batch carry its version guard.
 */
import { DEAL_GROUP_SQL } from "../../contract/deal-process";
import { newId } from "../../lib/ids";
import { boundedMarks } from "../bounded";
import type { Db } from "../client";
import type { RowOf } from "../rows";
import type { dealCheckoutSessions } from "../schema";
import { GUARD, type GuardedStatement } from "./deals";

export type DealCheckoutSessionRow = RowOf<typeof dealCheckoutSessions> & { kind: "stripe" | "test" };

export const findDealCheckoutSession = (db: Db, id: string) =>
  db.$client.prepare(`SELECT * FROM deal_checkout_sessions WHERE id = ?`).bind(id).first<DealCheckoutSessionRow>();

export const findDealCheckoutSessionByKey = (db: Db, userId: string, key: string, sinceIso: string) =>
  db.$client.prepare(`SELECT * FROM deal_checkout_sessions WHERE user_id = ? AND idempotency_key = ? AND created_at >= ?`).bind(userId, key, sinceIso).first<DealCheckoutSessionRow>();

/** A key older than the idempotency window may be used again: the old row lets go of it. */
export const forgetStaleDealCheckoutKey = (db: Db, userId: string, key: string, beforeIso: string) =>
  db.$client.prepare(`UPDATE deal_checkout_sessions SET idempotency_key = NULL WHERE user_id = ? AND idempotency_key = ? AND created_at < ?`).bind(userId, key, beforeIso).run();

/** The deal's session that can still be paid until at least `usableUntilIso`, newest first. */
export const openDealCheckoutSession = (db: Db, dealId: string, usableUntilIso: string) =>
  db.$client
    .prepare(`SELECT * FROM deal_checkout_sessions WHERE deal_id = ? AND completed_at IS NULL AND expires_at > ? ORDER BY created_at DESC LIMIT 1`)
    .bind(dealId, usableUntilIso)
    .first<DealCheckoutSessionRow>();

/** A new session, written under the deal's version (two tabs at once: one session). */
export const insertDealCheckoutSessionStatement = (s: Omit<DealCheckoutSessionRow, "completed_at">): GuardedStatement => ({
  sql: `INSERT INTO deal_checkout_sessions (id, deal_id, user_id, kind, url, expires_at, idempotency_key, created_at) SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE ${GUARD}`,
  params: [s.id, s.deal_id, s.user_id, s.kind, s.url, s.expires_at, s.idempotency_key, s.created_at],
});

/** Claims a test session for paying (once, even at once): true for the one claim that won. */
export const claimDealCheckoutSession = (db: Db, id: string, now: string) =>
  db.$client.prepare(`UPDATE deal_checkout_sessions SET completed_at = ? WHERE id = ? AND completed_at IS NULL`).bind(now, id).run().then((r) => r.meta.changes > 0);
export const reopenDealCheckoutSession = (db: Db, id: string) => db.$client.prepare(`UPDATE deal_checkout_sessions SET completed_at = NULL WHERE id = ?`).bind(id).run();

export const completeDealCheckoutSessionStatement = (id: string, now: string): GuardedStatement => ({
  sql: `UPDATE deal_checkout_sessions SET completed_at = coalesce(completed_at, ?) WHERE id = ? AND ${GUARD}`,
  params: [now, id],
});

/** The deal a payment intent or charge belongs to (a dispute names only those). */
export const dealIdOfPayment = (db: Db, paymentIntentId: string | undefined, chargeId: string | undefined) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE (payment_intent_id = ?1 AND ?1 IS NOT NULL) OR (charge_id = ?2 AND ?2 IS NOT NULL) LIMIT 1`)
    .bind(paymentIntentId ?? null, chargeId ?? null)
    .first<{ id: string }>()
    .then((r) => r?.id ?? null);

// ---------------------------------------------------------------------------------------------
// Events that arrived while a money move held the deal (docs/decisions/035).

export interface InboxRow {
  event_id: string;
  type: string;
  facts: string;
}

/** Records the event at once (its id, so a repeat is a repeat) and keeps what it said for when the claim settles. */
export async function keepForClaim(db: Db, eventId: string, type: string, dealId: string, facts: unknown, now: string): Promise<void> {
  const d1 = db.$client;
  await d1.batch([
    d1.prepare(`INSERT INTO stripe_events (id, type) VALUES (?, ?)`).bind(eventId, type),
    d1.prepare(`INSERT INTO deal_stripe_inbox (event_id, deal_id, type, facts, received_at) VALUES (?, ?, ?, ?, ?)`).bind(eventId, dealId, type, JSON.stringify(facts), now),
  ]);
}

export const inboxOf = (db: Db, dealId: string) =>
  db.$client
    .prepare(`SELECT event_id, type, facts FROM deal_stripe_inbox WHERE deal_id = ? ORDER BY received_at, event_id LIMIT 20`)
    .bind(dealId)
    .all<InboxRow>()
    .then((r) => r.results);

/** The kept event is applied: it leaves the inbox in its effect's batch (applied once). */
export const takeFromInboxStatement = (eventId: string): GuardedStatement => ({
  sql: `DELETE FROM deal_stripe_inbox WHERE event_id = ? AND ${GUARD}`,
  params: [eventId],
});

/** A kept event that changes nothing leaves the inbox. */
export const dropFromInbox = (db: Db, eventId: string) => db.$client.prepare(`DELETE FROM deal_stripe_inbox WHERE event_id = ?`).bind(eventId).run();

/** Deals with kept events and no claim (their claim's worker died after settling): the jobs apply them. */
export const unclaimedDealsWithInbox = (db: Db) =>
  db.$client
    .prepare(`SELECT DISTINCT i.deal_id FROM deal_stripe_inbox i JOIN deals d ON d.id = i.deal_id WHERE d.claim_id IS NULL LIMIT 50`)
    .all<{ deal_id: string }>()
    .then((r) => r.results.map((x) => x.deal_id));

// ---------------------------------------------------------------------------------------------
// The jobs' lists.

/** Claims older than `beforeIso`: their worker died (the jobs resume them from what Stripe holds). */
export const staleClaims = (db: Db, beforeIso: string) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE claim_id IS NOT NULL AND claim_at <= ? ORDER BY claim_at LIMIT 50`)
    .bind(beforeIso)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** Refunds decided but not yet confirmed by Stripe (a failure after the decision): the jobs settle them. */
export const dealsWithRefundDue = (db: Db) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE refund_due_cents > refunded_cents AND claim_id IS NULL LIMIT 50`)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/**
 * Released deals whose lister is still owed part of the rent (a won dispute after a reversal, a transfer
 * refused then fixed). A reversal made outside a won dispute (from Stripe's dashboard) is a decision to take
 * the money back: never paid again. Only deals of the last year are looked at (deals_payment_status_idx).
 */
export const dealsWithTransferDue = (db: Db, sinceIso: string) =>
  db.$client
    .prepare(
      `SELECT id FROM deals WHERE payment_status = 'released' AND created_at >= ? AND claim_id IS NULL AND refund_due_cents < paid_cents
       AND paid_rent_cents - refund_due_cents > transferred_cents - transfer_reversed_cents
       AND (transfer_reversed_cents = 0 OR dispute_status = 'won') ORDER BY created_at LIMIT 50`,
    )
    .bind(sinceIso)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** Deals whose money changed since they were last compared with Stripe, oldest change first. */
export const dealsToReconcile = (db: Db, limit: number) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE payment_status <> 'none' AND (reconciled_at IS NULL OR reconciled_at < updated_at) AND claim_id IS NULL ORDER BY updated_at LIMIT ?`)
    .bind(limit)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** The deal was compared with Stripe at `now` (bookkeeping: no version step, nothing reads it to decide). */
export const markReconciled = (db: Db, id: string, now: string) => db.$client.prepare(`UPDATE deals SET reconciled_at = ? WHERE id = ?`).bind(now, id).run();

/** Held deals of a lister (suspension freezes them). */
export const heldDealsOfLister = (db: Db, listerId: string) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE lister_id = ? AND status IN (${DEAL_GROUP_SQL.held}) AND payment_status IN ('held', 'release_failed')`)
    .bind(listerId)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** Money is held for a deal of this listing or user (deletion waits for it). */
const MONEY_HELD_SQL = `status IN (${DEAL_GROUP_SQL.moneyHeld}) OR payment_status IN ('held', 'disputed', 'release_failed') OR refund_due_cents > refunded_cents OR claim_id IS NOT NULL`;
export const moneyHeldFor = (db: Db, where: { listingId: string } | { userId: string }) =>
  ("listingId" in where
    ? db.$client.prepare(`SELECT id FROM deals WHERE listing_id = ? AND (${MONEY_HELD_SQL}) LIMIT 1`).bind(where.listingId)
    : db.$client.prepare(`SELECT id FROM deals WHERE (renter_id = ?1 OR lister_id = ?1) AND (${MONEY_HELD_SQL}) LIMIT 1`).bind(where.userId)
  )
    .first<{ id: string }>()
    .then((r) => !!r);

/** The stays a listing has sold (paid and not refunded), for its public page: dates only. */
export const takenStaysOf = (db: Db, listingId: string) =>
  db.$client
    .prepare(`SELECT move_in, move_out FROM deals WHERE listing_id = ? AND status IN (${DEAL_GROUP_SQL.taken}) ORDER BY move_in`)
    .bind(listingId)
    .all<{ move_in: string; move_out: string }>()
    .then((r) => r.results);

/** A listing the payment's stay covers wholly goes off the market (`taken`), under the deal's version. */
export const takeListingStatement = (listingId: string, moveIn: string, moveOut: string, now: string): GuardedStatement => ({
  sql: `UPDATE listings SET status = 'taken', updated_at = ? WHERE id = ? AND status = 'available' AND available_from IS NOT NULL AND available_to IS NOT NULL AND available_from >= ? AND available_to <= ? AND ${GUARD}`,
  params: [now, listingId, moveIn, moveOut],
});
/** Whether the listing is now taken by this stay (the deal remembers, to give it back on a refund). */
export const listingTakenSql = (listingId: string | null, moveIn: string, moveOut: string) => ({
  sql: `CASE WHEN EXISTS (SELECT 1 FROM listings WHERE id = ? AND status = 'taken' AND available_from >= ? AND available_to <= ?) THEN 1 ELSE 0 END`,
  params: [listingId, moveIn, moveOut],
});
/** A refunded stay gives the listing back, if the payment took it. */
export const releaseListingStatement = (listingId: string, now: string): GuardedStatement => ({
  sql: `UPDATE listings SET status = 'available', updated_at = ? WHERE id = ? AND status = 'taken' AND ${GUARD}`,
  params: [now, listingId],
});

// ---------------------------------------------------------------------------------------------
// A case's report and statements.

export interface DealStatementRow {
  deal_id: string;
  party: "renter" | "lister";
  author_id: string;
  text: string;
  photos: string;
  at: string;
  report: number;
}

type NewStatement = { party: "renter" | "lister"; author_id: string; text: string; photos: string[]; at: string };

/** The renter's problem report, under the deal's version. */
export const reportInsert = (dealId: string, s: NewStatement): GuardedStatement => ({
  sql: `INSERT INTO deal_statements (id, deal_id, party, author_id, text, photos, at, report) SELECT ?, ?, ?, ?, ?, ?, ?, 1 WHERE ${GUARD}`,
  params: [newId(), dealId, s.party, s.author_id, s.text, JSON.stringify(s.photos), s.at],
});

/** A party's one statement, under the deal's version (a second of the same party writes nothing). */
export const statementInsert = (dealId: string, s: NewStatement): GuardedStatement => ({
  sql: `INSERT INTO deal_statements (id, deal_id, party, author_id, text, photos, at, report) SELECT ?, ?, ?, ?, ?, ?, ?, 0
        WHERE NOT EXISTS (SELECT 1 FROM deal_statements WHERE deal_id = ? AND party = ? AND report = 0) AND ${GUARD}`,
  params: [newId(), dealId, s.party, s.author_id, s.text, JSON.stringify(s.photos), s.at, dealId, s.party],
});

/** The reports and statements of these deals, oldest first (a page's deals at once). */
export const statementsOfDeals = (db: Db, dealIds: string[]) =>
  dealIds.length === 0
    ? Promise.resolve([] as DealStatementRow[])
    : db.$client
        .prepare(`SELECT deal_id, party, author_id, text, photos, at, report FROM deal_statements WHERE deal_id IN (${boundedMarks(dealIds)}) ORDER BY at, id`)
        .bind(...dealIds)
        .all<DealStatementRow>()
        .then((r) => r.results);

/** The pair's conversation, the newest 200 messages, oldest first (staff's case view). */
export const conversationMessages = (db: Db, conversationId: string) =>
  db.$client
    .prepare(`SELECT id, sender_id, text AS content, created_at FROM (SELECT id, sender_id, text, created_at FROM messages WHERE conversation_id = ? ORDER BY created_at DESC, id DESC LIMIT 200) ORDER BY created_at, id`)
    .bind(conversationId)
    .all<{ id: string; sender_id: string; content: string; created_at: string }>()
    .then((r) => r.results);

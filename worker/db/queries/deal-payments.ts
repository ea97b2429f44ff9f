/**
 * Deal payments (docs/decisions/029): checkout sessions, case statements, the Stripe ids that lead an
 * event to its deal, the jobs' due lists, the stays a listing has sold and staff's money figures.
 * Writes of `deals` stay in the compare-and-set (queries/deals.ts `compareAndSet`); the statements
 * here that join a batch carry its version guard.
 */
import { newId } from "../../lib/ids";
import type { Db } from "../client";
import { GUARD, type GuardedStatement } from "./deals";

export interface DealCheckoutSessionRow {
  id: string;
  deal_id: string;
  user_id: string;
  kind: "stripe" | "test";
  url: string | null;
  expires_at: string;
  idempotency_key: string | null;
  completed_at: string | null;
  created_at: string;
}

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

/** A Stripe event id recorded with its effect on a deal (decision 013): a repeat fails the batch on the key. */
export const dealStripeEventStatement = (eventId: string, type: string): GuardedStatement => ({
  sql: `INSERT INTO stripe_events (id, type) SELECT ?, ? WHERE ${GUARD}`,
  params: [eventId, type],
});

/** Overlapping open requests of the listing that a payment declines (`stay_taken`). */
export const overlappingOpenDeals = (db: Db, listingId: string, moveIn: string, moveOut: string, exceptId: string) =>
  db.$client
    .prepare(`SELECT id, status FROM deals WHERE listing_id = ? AND status IN ('requested', 'accepted', 'signed') AND move_in < ? AND move_out > ? AND id <> ?`)
    .bind(listingId, moveOut, moveIn, exceptId)
    .all<{ id: string; status: string }>()
    .then((r) => r.results);

/** The deal a payment intent or charge belongs to (a dispute names only those). */
export const dealIdOfPayment = (db: Db, paymentIntentId: string | undefined, chargeId: string | undefined) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE (payment_intent_id = ?1 AND ?1 IS NOT NULL) OR (charge_id = ?2 AND ?2 IS NOT NULL) LIMIT 1`)
    .bind(paymentIntentId ?? null, chargeId ?? null)
    .first<{ id: string }>()
    .then((r) => r?.id ?? null);

/** Held deals whose release time has come (at most 50 a run). */
export const dealsDueForRelease = (db: Db, nowIso: string) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE payment_status = 'held' AND held_until <= ? AND status IN ('paid', 'moved_in') AND cancel_decide_by IS NULL ORDER BY held_until LIMIT 50`)
    .bind(nowIso)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** Late cancellations the lister left undecided past their deadline. */
export const lapsedCancellations = (db: Db, nowIso: string) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE cancel_decide_by IS NOT NULL AND cancel_decide_by <= ? AND status = 'paid' ORDER BY cancel_decide_by LIMIT 50`)
    .bind(nowIso)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** Refunds decided but not yet confirmed by Stripe (a crash or an outage in between): retried. */
export const dealsWithRefundDue = (db: Db) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE refund_due_cents > refunded_cents LIMIT 50`)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/**
 * Released deals whose lister is still owed part of the rent (a staff decision's, a late cancellation's
 * or a won dispute's transfer that failed on the network after the decision was written): retried.
 * A reversal made outside a won dispute (from Stripe's dashboard) is a decision to take the money back:
 * never paid again. Only deals of the last year are looked at (deals_payment_status_idx).
 */
export const dealsWithTransferDue = (db: Db, sinceIso: string) =>
  db.$client
    .prepare(
      `SELECT id FROM deals WHERE payment_status = 'released' AND created_at >= ? AND paid_rent_cents - refund_due_cents > transferred_cents - transfer_reversed_cents
       AND (transfer_reversed_cents = 0 OR dispute_status = 'won') ORDER BY created_at LIMIT 50`,
    )
    .bind(sinceIso)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** Held deals of a lister (suspension freezes them). */
export const heldDealsOfLister = (db: Db, listerId: string) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE lister_id = ? AND status IN ('paid', 'moved_in') AND payment_status IN ('held', 'release_failed')`)
    .bind(listerId)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

/** Money is held for a deal of this listing or user (deletion waits for it). */
export const MONEY_HELD_SQL = `status IN ('paid', 'moved_in', 'disputed') OR payment_status IN ('held', 'disputed', 'release_failed') OR refund_due_cents > refunded_cents`;
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
    .prepare(`SELECT move_in, move_out FROM deals WHERE listing_id = ? AND status IN ('paid', 'moved_in', 'disputed', 'released') ORDER BY move_in`)
    .bind(listingId)
    .all<{ move_in: string; move_out: string }>()
    .then((r) => r.results);

/** A listing the payment's stay covers wholly goes off the market (`taken`), under the deal's version. */
export const takeListingStatement = (listingId: string, moveIn: string, moveOut: string, now: string): GuardedStatement => ({
  sql: `UPDATE listings SET status = 'taken', updated_at = ? WHERE id = ? AND status = 'available' AND available_from IS NOT NULL AND available_to IS NOT NULL AND available_from >= ? AND available_to <= ? AND ${GUARD}`,
  params: [now, listingId, moveIn, moveOut],
});
/** A refunded stay gives the listing back, if the payment took it. */
export const releaseListingStatement = (listingId: string, now: string): GuardedStatement => ({
  sql: `UPDATE listings SET status = 'available', updated_at = ? WHERE id = ? AND status = 'taken' AND ${GUARD}`,
  params: [now, listingId],
});
// ---------------------------------------------------------------------------------------------
// Statements of a case.

export interface DealStatementRow {
  party: "renter" | "lister";
  author_id: string;
  text: string;
  photos: string;
  at: string;
}

export const statementInsert = (dealId: string, s: Omit<DealStatementRow, "photos"> & { photos: string[] }): GuardedStatement => ({
  sql: `INSERT INTO deal_statements (id, deal_id, party, author_id, text, photos, at) SELECT ?, ?, ?, ?, ?, ?, ? WHERE ${GUARD}`,
  params: [newId(), dealId, s.party, s.author_id, s.text, JSON.stringify(s.photos), s.at],
});

/** A statement outside a transition (the deal stays as it is): only while the deal is still disputed. */
export const insertStatementWhileDisputed = (db: Db, dealId: string, s: Omit<DealStatementRow, "photos"> & { photos: string[] }) =>
  db.$client
    .prepare(`INSERT INTO deal_statements (id, deal_id, party, author_id, text, photos, at) SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM deals WHERE id = ? AND status = 'disputed')`)
    .bind(newId(), dealId, s.party, s.author_id, s.text, JSON.stringify(s.photos), s.at, dealId)
    .run()
    .then((r) => r.meta.changes > 0);

export const statementsOf = (db: Db, dealId: string) =>
  db.$client
    .prepare(`SELECT party, author_id, text, photos, at FROM deal_statements WHERE deal_id = ? ORDER BY at, id`)
    .bind(dealId)
    .all<DealStatementRow>()
    .then((r) => r.results);

/** The pair's conversation, the newest 200 messages, oldest first (staff's case view). */
export const conversationMessages = (db: Db, conversationId: string) =>
  db.$client
    .prepare(`SELECT id, sender_id, text AS content, created_at FROM (SELECT id, sender_id, text, created_at FROM messages WHERE conversation_id = ? ORDER BY created_at DESC, id DESC LIMIT 200) ORDER BY created_at, id`)
    .bind(conversationId)
    .all<{ id: string; sender_id: string; content: string; created_at: string }>()
    .then((r) => r.results);

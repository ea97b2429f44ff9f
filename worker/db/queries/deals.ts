/**
 * Deals, their agreement versions, events, signing codes and landlord consent links (docs/decisions/026,
 * 035). Rows and updates are typed from the schema (db/rows.ts); the state lists come from the declared
 * process (contract/deal-process.ts), never retyped here.
 *
 * Every change of a deal row is one compare-and-set: a D1 batch (one transaction) whose statements are
 * each guarded by the version read (`WHERE EXISTS (SELECT 1 FROM deals WHERE id = ? AND version = ?)`)
 * and whose LAST statement is `UPDATE deals SET ..., version = version + 1 WHERE id = ? AND version = ?`
 * (decision 013's pattern). Its `changes` says whether the batch applied; on 0 nothing did.
 */
import { newId } from "../../lib/ids";
import type { AuditAction } from "../../contract/audit";
import { DEAL_GROUP_SQL, sqlList, type DealEvent, type TimerDef } from "../../contract/deal-process";
import type { DealStatus } from "../../contract/deals";
import type { Db } from "../client";
import type { RowOf } from "../rows";
import type { deals, dealSignCodes, landlordConsentLinks } from "../schema";
import { orderedPair } from "./conversations";

/** A deal as stored. */
export type DealColumns = RowOf<typeof deals>;

/** What a deal's reads join: the parties' names and verification, the listing's address, the agreement's hash, payouts, statements, the landlord's decline. */
export interface DealJoins {
  renter_first_name: string | null;
  renter_last_name: string | null;
  renter_verified: number;
  lister_first_name: string | null;
  lister_last_name: string | null;
  lister_verified: number;
  /** The listing's current address (the public form is derived from it before acceptance). */
  listing_address: string | null;
  agreement_sha256: string | null;
  /** The lister's payout account (pending | ready), null before onboarding. */
  lister_payout_status: string | null;
  renter_stated: number;
  lister_stated: number;
  /** The listing's landlord declined a sublease: when, and their address (else null). */
  landlord_declined_at: string | null;
  landlord_declined_email: string | null;
}
/** A deal as its reads answer it: every process fact (contract/deal-process.ts DealFacts) is here. */
export type DealRow = DealColumns & DealJoins;

// A deleted party reads as the names the agreement holds for them (deals.former_*: docs/decisions/041).
const DEAL_SELECT = `SELECT d.*, coalesce(r.first_name, d.former_renter_first_name) AS renter_first_name, coalesce(r.last_name, d.former_renter_last_name) AS renter_last_name,
  coalesce(r.id_verification_status = 'verified', 0) AS renter_verified,
  coalesce(o.first_name, d.former_lister_first_name) AS lister_first_name, coalesce(o.last_name, d.former_lister_last_name) AS lister_last_name,
  coalesce(o.id_verification_status = 'verified', 0) AS lister_verified,
  l.address AS listing_address,
  (SELECT a.sha256 FROM deal_agreements a WHERE a.deal_id = d.id AND a.version = d.agreement_version) AS agreement_sha256,
  (SELECT p.status FROM payout_accounts p WHERE p.user_id = d.lister_id) AS lister_payout_status,
  EXISTS (SELECT 1 FROM deal_statements s WHERE s.deal_id = d.id AND s.report = 0 AND s.party = 'renter') AS renter_stated,
  EXISTS (SELECT 1 FROM deal_statements s WHERE s.deal_id = d.id AND s.report = 0 AND s.party = 'lister') AS lister_stated,
  ld.declined_at AS landlord_declined_at, ld.landlord_email AS landlord_declined_email
  FROM deals d LEFT JOIN users r ON r.id = d.renter_id LEFT JOIN users o ON o.id = d.lister_id LEFT JOIN listings l ON l.id = d.listing_id
  LEFT JOIN landlord_declines ld ON ld.listing_id = d.listing_id`;

export const findDeal = (db: Db, id: string) => db.$client.prepare(`${DEAL_SELECT} WHERE d.id = ?`).bind(id).first<DealRow>();

/** The deal when `userId` is one of its two parties, else null. */
export const findDealOfParty = (db: Db, id: string, userId: string) =>
  db.$client.prepare(`${DEAL_SELECT} WHERE d.id = ?1 AND (d.renter_id = ?2 OR d.lister_id = ?2)`).bind(id, userId).first<DealRow>();

export const findDealByKey = (db: Db, renterId: string, key: string, sinceIso: string) =>
  db.$client.prepare(`${DEAL_SELECT} WHERE d.renter_id = ? AND d.idempotency_key = ? AND d.created_at >= ?`).bind(renterId, key, sinceIso).first<DealRow>();

/** The renter's open deal for this listing and stay (one at most: a partial unique index). */
export const findOpenDealOfStay = (db: Db, renterId: string, listingId: string, moveIn: string, moveOut: string) =>
  db.$client
    .prepare(`${DEAL_SELECT} WHERE d.renter_id = ? AND d.listing_id = ? AND d.move_in = ? AND d.move_out = ? AND d.status IN (${DEAL_GROUP_SQL.openUnpaid})`)
    .bind(renterId, listingId, moveIn, moveOut)
    .first<DealRow>();

/** A deal of the listing in one of `statuses` whose stay overlaps this one (besides `exceptId`). */
export const overlappingDeal = (db: Db, listingId: string, moveIn: string, moveOut: string, statuses: readonly DealStatus[], exceptId = "") =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE listing_id = ? AND status IN (${sqlList(statuses)}) AND move_in < ? AND move_out > ? AND id <> ? LIMIT 1`)
    .bind(listingId, moveOut, moveIn, exceptId)
    .first<{ id: string }>();

/** The SQL condition "no other deal of the listing in `statuses` overlaps deal `?` (bound: listing, move_out, move_in, id)". */
export const NO_OVERLAP = (statuses: readonly DealStatus[]) =>
  `NOT EXISTS (SELECT 1 FROM deals o WHERE o.listing_id = ? AND o.status IN (${sqlList(statuses)}) AND o.move_in < ? AND o.move_out > ? AND o.id <> ?)`;

/** The listing's open deals that overlap a stay (a payment declines them: `stay_taken`). */
export const overlappingOpenDeals = (db: Db, listingId: string, moveIn: string, moveOut: string, exceptId: string) =>
  db.$client
    .prepare(`SELECT id, status FROM deals WHERE listing_id = ? AND status IN (${DEAL_GROUP_SQL.openUnpaid}) AND move_in < ? AND move_out > ? AND id <> ?`)
    .bind(listingId, moveOut, moveIn, exceptId)
    .all<{ id: string; status: DealStatus }>()
    .then((r) => r.results);

export interface DealCursor {
  created_at: string;
  id: string;
}

/** A user's deals in both roles, newest first (limit + 1 rows). */
export const dealsOfUser = (db: Db, userId: string, limit: number, after: DealCursor | null) =>
  db.$client
    .prepare(
      `${DEAL_SELECT} WHERE d.id IN (SELECT id FROM deals WHERE renter_id = ?1 UNION SELECT id FROM deals WHERE lister_id = ?1)
       ${after ? "AND (d.created_at < ?3 OR (d.created_at = ?3 AND d.id < ?4))" : ""} ORDER BY d.created_at DESC, d.id DESC LIMIT ?2`,
    )
    .bind(...(after ? [userId, limit + 1, after.created_at, after.id] : [userId, limit + 1]))
    .all<DealRow>()
    .then((r) => r.results);

/** Every deal (staff), optionally in one status, newest first (limit + 1 rows). */
export const allDeals = (db: Db, status: string | null, limit: number, after: DealCursor | null) => {
  if (status === "cases") return dealCases(db, limit, after);
  const where = [status ? "d.status = ?" : null, after ? "(d.created_at < ? OR (d.created_at = ? AND d.id < ?))" : null].filter(Boolean);
  const params = [...(status ? [status] : []), ...(after ? [after.created_at, after.created_at, after.id] : []), limit + 1];
  return db.$client
    .prepare(`${DEAL_SELECT} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY d.created_at DESC, d.id DESC LIMIT ?`)
    .bind(...params)
    .all<DealRow>()
    .then((r) => r.results);
};

/** The deals staff must decide (disputed, a release that failed, a surplus found), oldest first (limit + 1 rows). */
const dealCases = (db: Db, limit: number, after: DealCursor | null) =>
  db.$client
    .prepare(
      `${DEAL_SELECT} WHERE (d.status = 'disputed' OR d.payment_status = 'release_failed' OR d.case_reason IS NOT NULL)
       ${after ? "AND (d.created_at > ?2 OR (d.created_at = ?2 AND d.id > ?3))" : ""} ORDER BY d.created_at, d.id LIMIT ?1`,
    )
    .bind(...(after ? [limit + 1, after.created_at, after.id] : [limit + 1]))
    .all<DealRow>()
    .then((r) => r.results);

/** Ids of open unpaid deals that involve a listing, a user, or a pair of users. */
export const openDealsOf = (db: Db, where: { listingId: string } | { userId: string } | { pair: [string, string] }) => {
  const base = `SELECT id FROM deals WHERE status IN (${DEAL_GROUP_SQL.openUnpaid}) AND `;
  const stmt =
    "listingId" in where
      ? db.$client.prepare(`${base} listing_id = ?`).bind(where.listingId)
      : "userId" in where
        ? db.$client.prepare(`${base} (renter_id = ?1 OR lister_id = ?1)`).bind(where.userId)
        : db.$client.prepare(`${base} ((renter_id = ?1 AND lister_id = ?2) OR (renter_id = ?2 AND lister_id = ?1))`).bind(...where.pair);
  return stmt.all<{ id: string }>().then((r) => r.results.map((x) => x.id));
};

/** The deals a timer finds due at `nowIso` (its states, its column, its partial index), oldest due first. */
export const dueByTimer = (db: Db, timer: TimerDef, nowIso: string, limit: number) => {
  const also = Object.entries(timer.where ?? {}).map(([column]) => ` AND ${column} = ?`).join("");
  return db.$client
    .prepare(`SELECT id FROM deals WHERE ${timer.at} IS NOT NULL AND ${timer.at} <= ? AND status IN (${sqlList(timer.on)})${also} ORDER BY ${timer.at} LIMIT ?`)
    .bind(nowIso, ...Object.values(timer.where ?? {}), limit)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));
};

/** The state of the listing's university (its time zone) when a request is made. */
export const universityStateOf = (db: Db, universityId: number) =>
  db.$client
    .prepare("SELECT state FROM universities WHERE id = ?")
    .bind(universityId)
    .first<{ state: string }>()
    .then((r) => r?.state ?? null);

// ---------------------------------------------------------------------------------------------
// The compare-and-set.

type SqlValue = { sql: string; params?: unknown[] };
/** A column change of the final UPDATE: a value typed from the schema, or raw SQL (`{ sql }`) evaluated on the row. */
export type DealSet = { [K in keyof DealColumns]?: DealColumns[K] | SqlValue };

/** `WHERE EXISTS (...)` guard for statements of a batch under the version read. */
export const GUARD = "EXISTS (SELECT 1 FROM deals WHERE id = ? AND version = ?)";

export interface GuardedStatement {
  sql: string;
  params: unknown[];
}

/** A transition's condition: no deal of `statuses` on the listing overlaps this stay (NO_OVERLAP). */
export const noOverlapCondition = (statuses: readonly DealStatus[], listingId: string, moveIn: string, moveOut: string, exceptId: string): GuardedStatement => ({
  sql: NO_OVERLAP(statuses),
  params: [listingId, moveOut, moveIn, exceptId],
});

/**
 * The claim a transition writes under: held by `claim` (a money move's settle), or by nobody. Self-contained
 * SQL: it is also added to each statement of the batch, not only to the deal's UPDATE.
 */
export const claimCondition = (dealId: string, claim?: string): GuardedStatement =>
  claim
    ? { sql: "EXISTS (SELECT 1 FROM deals WHERE id = ? AND claim_id = ?)", params: [dealId, claim] }
    : { sql: "EXISTS (SELECT 1 FROM deals WHERE id = ? AND claim_id IS NULL)", params: [dealId] };

/** Both conditions, as one. */
export const bothConditions = (a: GuardedStatement, b: GuardedStatement): GuardedStatement => ({ sql: `${a.sql} AND ${b.sql}`, params: [...a.params, ...b.params] });

export interface EventFacts {
  actorId: string | null;
  actorRole: string;
  at: string;
  ip?: string | null;
  userAgent?: string | null;
  agreementVersion?: number | null;
  sha256?: string | null;
}

/** An event, recorded only if the batch applies. */
export function eventStatement(dealId: string, event: DealEvent & EventFacts): GuardedStatement {
  return {
    sql: `INSERT INTO deal_events (id, deal_id, type, actor_id, actor_role, at, ip, user_agent, agreement_version, document_sha256, details) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${GUARD}`,
    params: [
      newId(),
      dealId,
      event.type,
      event.actorId,
      event.actorRole,
      event.at,
      event.ip ?? null,
      event.userAgent ?? null,
      event.agreementVersion ?? null,
      event.sha256 ?? null,
      event.details === undefined ? null : JSON.stringify(event.details),
    ],
  };
}

/** A staff action on the deal for the audit log, recorded only if the batch applies (both land, or neither). */
export const auditStatement = (dealId: string, actor: string, action: AuditAction, details: unknown): GuardedStatement => ({
  sql: `INSERT INTO admin_audit (id, actor, action, target_table, target_id, details) SELECT ?, ?, ?, 'deals', ?, ? WHERE ${GUARD}`,
  params: [newId(), actor, action, dealId, JSON.stringify(details)],
});

export const agreementStatement = (dealId: string, version: number, template: string, text: string, sha256: string, at: string): GuardedStatement => ({
  sql: `INSERT INTO deal_agreements (deal_id, version, template, text, sha256, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE ${GUARD}`,
  params: [dealId, version, template, text, sha256, at],
});

/**
 * Runs `statements` (each guarded by the version) and then the deal's conditional UPDATE, in one batch;
 * `condition` adds SQL the row must also satisfy (e.g. no overlapping accepted deal, no claim). True when it applied.
 */
export async function compareAndSet(db: Db, dealId: string, version: number, set: DealSet, statements: GuardedStatement[] = [], condition?: GuardedStatement): Promise<boolean> {
  const d1 = db.$client;
  const cols: string[] = [];
  const params: unknown[] = [];
  for (const [col, value] of Object.entries(set) as [string, DealColumns[keyof DealColumns] | SqlValue | undefined][]) {
    if (value === undefined) continue;
    if (!/^[a-z_0-9]+$/.test(col)) throw new Error(`bad column ${col}`);
    if (value !== null && typeof value === "object") {
      cols.push(`${col} = ${value.sql}`);
      params.push(...(value.params ?? []));
    } else {
      cols.push(`${col} = ?`);
      params.push(value);
    }
  }
  const update = d1
    .prepare(`UPDATE deals SET ${[...cols, "version = version + 1"].join(", ")} WHERE id = ? AND version = ?${condition ? ` AND ${condition.sql}` : ""}`)
    .bind(...params, dealId, version, ...(condition?.params ?? []));
  // Each statement's SQL ends with the version guard; the row's extra condition is added to it, so a
  // batch whose final UPDATE will not apply writes nothing before it either.
  const guarded = statements.map((s) =>
    d1.prepare(condition ? `${s.sql} AND ${condition.sql}` : s.sql).bind(...s.params, dealId, version, ...(condition?.params ?? [])),
  );
  const results = await d1.batch([...guarded, update]);
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// Creating a request (the deal, its message in the conversation, the conversation's preview: one batch).

export interface NewDeal {
  id: string;
  listingId: string;
  renterId: string;
  listerId: string;
  conversationId: string;
  moveIn: string;
  moveOut: string;
  timeZone: string;
  expiresAt: string;
  listingTitle: string;
  monthlyRent: number;
  idempotencyKey: string | null;
  messageText: string;
  now: string;
  ip: string | null;
  userAgent: string | null;
}

/**
 * The request, written only while the renter holds fewer than `maxOpen` open requests (the count is read
 * inside the batch, so requests at once cannot pass it together): false when the limit refused it.
 */
export async function insertDealRequest(db: Db, d: NewDeal, releaseKeyBefore: string | null, maxOpen: number): Promise<boolean> {
  const d1 = db.$client;
  const statements: D1PreparedStatement[] = [];
  // A key older than the idempotency window may be used again: the old row lets go of it first.
  if (d.idempotencyKey && releaseKeyBefore) {
    statements.push(d1.prepare(`UPDATE deals SET idempotency_key = NULL WHERE renter_id = ? AND idempotency_key = ? AND created_at < ?`).bind(d.renterId, d.idempotencyKey, releaseKeyBefore));
  }
  const written = "EXISTS (SELECT 1 FROM deals WHERE id = ?)";
  const insertAt = statements.length;
  statements.push(
    d1
      .prepare(
        `INSERT INTO deals (id, listing_id, renter_id, lister_id, conversation_id, move_in, move_out, time_zone, status, expires_at, listing_title, monthly_rent, idempotency_key, created_at, updated_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, 'requested', ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM deals WHERE renter_id = ? AND status = 'requested') < ?`,
      )
      .bind(d.id, d.listingId, d.renterId, d.listerId, d.conversationId, d.moveIn, d.moveOut, d.timeZone, d.expiresAt, d.listingTitle, d.monthlyRent, d.idempotencyKey, d.now, d.now, d.renterId, maxOpen),
    d1
      .prepare(`INSERT INTO deal_events (id, deal_id, type, actor_id, actor_role, at, ip, user_agent) SELECT ?, ?, 'requested', ?, 'renter', ?, ?, ? WHERE ${written}`)
      .bind(newId(), d.id, d.renterId, d.now, d.ip, d.userAgent, d.id),
    // The card in the thread: its own kind, never scored by the scam shield (no safety flags).
    d1
      .prepare(`INSERT INTO messages (id, conversation_id, sender_id, text, kind, deal_id, created_at) SELECT ?, ?, ?, ?, 'deal', ?, ? WHERE ${written}`)
      .bind(newId(), d.conversationId, d.renterId, d.messageText, d.id, d.now, d.id),
    d1
      .prepare(`UPDATE conversations SET last_message_preview = ?, last_message_at = ?, updated_at = ?, listing_id = ? WHERE id = ? AND ${written}`)
      .bind(d.messageText, d.now, d.now, d.listingId, d.conversationId, d.id),
  );
  const results = await d1.batch(statements);
  return (results[insertAt]?.meta.changes ?? 0) > 0;
}

/** The renter's open requests' expiry times, soonest first (when a slot frees up). */
export const openRequestExpiries = (db: Db, renterId: string) =>
  db.$client
    .prepare(`SELECT expires_at FROM deals WHERE renter_id = ? AND status = 'requested' ORDER BY expires_at LIMIT 5`)
    .bind(renterId)
    .all<{ expires_at: string | null }>()
    .then((r) => r.results.map((x) => x.expires_at).filter((x): x is string => !!x));

/** The request's card in the thread (its message id and time). */
export const requestMessageOf = (db: Db, dealId: string) =>
  db.$client.prepare("SELECT id, created_at FROM messages WHERE deal_id = ? AND kind = 'deal' LIMIT 1").bind(dealId).first<{ id: string; created_at: string }>();

/** The conversation of a pair, created if missing (the deal's card goes in it). */
export async function conversationIdOfPair(db: Db, a: string, b: string, listingId: string, now: string): Promise<string> {
  const [userA, userB] = orderedPair(a, b);
  const d1 = db.$client;
  await d1
    .prepare(`INSERT INTO conversations (id, user_a, user_b, listing_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
    .bind(newId(), userA, userB, listingId, now, now)
    .run();
  const row = await d1.prepare(`SELECT id FROM conversations WHERE user_a = ? AND user_b = ?`).bind(userA, userB).first<{ id: string }>();
  return row!.id;
}

// ---------------------------------------------------------------------------------------------
// The lister's request emails: one per renter and listing a day, later ones in a daily summary.

/**
 * Claims the request's email: true when no request of this renter for this listing was emailed since
 * `sinceIso` (one statement: two requests at once cannot both claim it). False marks it for the summary.
 */
export async function claimRequestEmail(db: Db, dealId: string, renterId: string, listingId: string, now: string, sinceIso: string): Promise<boolean> {
  const claimed = await db.$client
    .prepare(
      `UPDATE deals SET request_emailed_at = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM deals WHERE renter_id = ? AND listing_id = ? AND request_emailed_at > ?)`,
    )
    .bind(now, dealId, renterId, listingId, sinceIso)
    .run();
  if (claimed.meta.changes > 0) return true;
  await db.$client.prepare(`UPDATE deals SET request_summary_due = 1 WHERE id = ?`).bind(dealId).run();
  return false;
}

/** Listers with requests waiting for their summary (at most 50 a run). */
export const listersWithSummaryDue = (db: Db) =>
  db.$client
    .prepare(`SELECT DISTINCT lister_id FROM deals WHERE request_summary_due = 1 LIMIT 50`)
    .all<{ lister_id: string }>()
    .then((r) => r.results.map((x) => x.lister_id));

/** When the lister was last sent a summary (null: never). */
export const lastSummaryOf = (db: Db, listerId: string) =>
  db.$client
    .prepare(`SELECT max(request_summarized_at) AS at FROM deals WHERE lister_id = ?`)
    .bind(listerId)
    .first<{ at: string | null }>()
    .then((r) => r?.at ?? null);

/** The lister's requests waiting for the summary (open ones only), oldest first. */
export const summaryDueOf = (db: Db, listerId: string) =>
  db.$client
    .prepare(
      `SELECT d.id, d.listing_title, d.move_in, d.move_out, d.status, r.first_name AS renter_first_name FROM deals d LEFT JOIN users r ON r.id = d.renter_id
       WHERE d.lister_id = ? AND d.request_summary_due = 1 ORDER BY d.created_at LIMIT 100`,
    )
    .bind(listerId)
    .all<{ id: string; listing_title: string; move_in: string; move_out: string; status: DealStatus; renter_first_name: string | null }>()
    .then((r) => r.results);

export async function markSummarized(db: Db, ids: string[], now: string) {
  const d1 = db.$client;
  await d1.batch(ids.map((id) => d1.prepare(`UPDATE deals SET request_summary_due = 0, request_summarized_at = ? WHERE id = ?`).bind(now, id)));
}

// ---------------------------------------------------------------------------------------------
// Agreement, events, codes, consent links, parties' names.

export interface AgreementRow {
  version: number;
  template: string;
  text: string;
  sha256: string;
  created_at: string;
}

export const findAgreement = (db: Db, dealId: string, version: number) =>
  db.$client.prepare(`SELECT version, template, text, sha256, created_at FROM deal_agreements WHERE deal_id = ? AND version = ?`).bind(dealId, version).first<AgreementRow>();

export interface DealEventRow {
  id: string;
  type: string;
  actor_id: string | null;
  actor_role: string;
  at: string;
  ip: string | null;
  user_agent: string | null;
  agreement_version: number | null;
  document_sha256: string | null;
  details: string | null;
}

export const eventsOfDeal = (db: Db, dealId: string) =>
  db.$client
    .prepare(`SELECT id, type, actor_id, actor_role, at, ip, user_agent, agreement_version, document_sha256, details FROM deal_events WHERE deal_id = ? ORDER BY at, id`)
    .bind(dealId)
    .all<DealEventRow>()
    .then((r) => r.results);

/** An event outside a transition (a view): appended on its own. */
export const appendEvent = (db: Db, dealId: string, e: Parameters<typeof eventStatement>[1]) => {
  const s = eventStatement(dealId, e);
  // Not under a version: a view changes nothing of the deal. The guard is satisfied by the deal's own version.
  return db.$client
    .prepare(s.sql.replace(`WHERE ${GUARD}`, "WHERE EXISTS (SELECT 1 FROM deals WHERE id = ?)"))
    .bind(...s.params, dealId)
    .run();
};

/** Whether `userId` already has an event of `type` for this agreement version (views are recorded once). */
export const hasEvent = (db: Db, dealId: string, userId: string, type: string, version: number) =>
  db.$client
    .prepare(`SELECT 1 AS found FROM deal_events WHERE deal_id = ? AND actor_id = ? AND type = ? AND agreement_version = ? LIMIT 1`)
    .bind(dealId, userId, type, version)
    .first<{ found: number }>()
    .then((r) => !!r);

/** How many events of `type` the deal has. */
export const countEvents = (db: Db, dealId: string, type: string) =>
  db.$client
    .prepare(`SELECT count(*) AS n FROM deal_events WHERE deal_id = ? AND type = ?`)
    .bind(dealId, type)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

export type SignCodeRow = Pick<RowOf<typeof dealSignCodes>, "id" | "code_hash" | "attempts" | "expires_at" | "consumed_at" | "created_at" | "agreement_version">;

export const latestSignCode = (db: Db, dealId: string, userId: string) =>
  db.$client
    .prepare(`SELECT id, code_hash, attempts, expires_at, consumed_at, created_at, agreement_version FROM deal_sign_codes WHERE deal_id = ? AND user_id = ? ORDER BY created_at DESC LIMIT 1`)
    .bind(dealId, userId)
    .first<SignCodeRow>();

/** A new code for an agreement version, unless one was made for this party since `since` (one per 60 s): true when stored. */
export async function insertSignCode(db: Db, dealId: string, userId: string, version: number, codeHash: string, now: string, expiresAt: string, since: string): Promise<boolean> {
  const res = await db.$client
    .prepare(
      `INSERT INTO deal_sign_codes (id, deal_id, user_id, agreement_version, code_hash, expires_at, created_at) SELECT ?, ?, ?, ?, ?, ?, ?
       WHERE NOT EXISTS (SELECT 1 FROM deal_sign_codes WHERE deal_id = ? AND user_id = ? AND created_at > ?)`,
    )
    .bind(newId(), dealId, userId, version, codeHash, expiresAt, now, dealId, userId, since)
    .run();
  return res.meta.changes > 0;
}

/** Counts a wrong try (guarded: under the limit); true when counted. */
export const countSignCodeTry = (db: Db, id: string, limit: number) =>
  db.$client
    .prepare(`UPDATE deal_sign_codes SET attempts = attempts + 1 WHERE id = ? AND attempts < ? AND consumed_at IS NULL`)
    .bind(id, limit)
    .run()
    .then((r) => r.meta.changes > 0);

export const consumeSignCodeStatement = (id: string, now: string): GuardedStatement => ({
  sql: `UPDATE deal_sign_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL AND ${GUARD}`,
  params: [now, id],
});

export type ConsentLinkRow = Pick<
  RowOf<typeof landlordConsentLinks>,
  "token_hash" | "deal_id" | "landlord_name" | "landlord_email" | "reason" | "tenant_address" | "expires_at" | "used_at" | "decision" | "created_at"
>;

export const findConsentLink = (db: Db, tokenHash: string) =>
  db.$client
    .prepare(`SELECT token_hash, deal_id, landlord_name, landlord_email, reason, tenant_address, expires_at, used_at, decision, created_at FROM landlord_consent_links WHERE token_hash = ?`)
    .bind(tokenHash)
    .first<ConsentLinkRow>();

export const consentLinksSince = (db: Db, dealId: string, sinceIso: string) =>
  db.$client
    .prepare(`SELECT created_at FROM landlord_consent_links WHERE deal_id = ? AND created_at > ? ORDER BY created_at`)
    .bind(dealId, sinceIso)
    .all<{ created_at: string }>()
    .then((r) => r.results.map((x) => x.created_at));

/** The consent emails of all the lister's deals since `sinceIso`, oldest first. */
export const consentLinksOfListerSince = (db: Db, listerId: string, sinceIso: string) =>
  db.$client
    .prepare(`SELECT l.created_at FROM landlord_consent_links l JOIN deals d ON d.id = l.deal_id WHERE d.lister_id = ? AND l.created_at > ? ORDER BY l.created_at`)
    .bind(listerId, sinceIso)
    .all<{ created_at: string }>()
    .then((r) => r.results.map((x) => x.created_at));

/**
 * The batch condition "fewer than `perDeal` consent emails of this deal and `perLister` of the lister's
 * deals since `sinceIso`": checked inside the transaction, so two taps (or two deals) at once cannot pass it together.
 */
export const consentEmailRoom = (dealId: string, listerId: string, tokenHash: string, sinceIso: string, perDeal: number, perLister: number): GuardedStatement => ({
  // The link this batch inserts is left out of the counts, so every statement of the batch (before and after the insert) reads the same.
  sql: `(SELECT count(*) FROM landlord_consent_links WHERE deal_id = ? AND created_at > ? AND token_hash <> ?) < ?
        AND (SELECT count(*) FROM landlord_consent_links l JOIN deals x ON x.id = l.deal_id WHERE x.lister_id = ? AND l.created_at > ? AND l.token_hash <> ?) < ?`,
  params: [dealId, sinceIso, tokenHash, perDeal, listerId, sinceIso, tokenHash, perLister],
});

/** Every open link of the deal stops working (a newer link, a "not needed", the deal ended). */
export const supersedeLinksStatement = (dealId: string, now: string): GuardedStatement => ({
  sql: `UPDATE landlord_consent_links SET used_at = ?, decision = 'superseded' WHERE deal_id = ? AND used_at IS NULL AND ${GUARD}`,
  params: [now, dealId],
});

export const insertLinkStatement = (link: Omit<ConsentLinkRow, "used_at" | "decision">): GuardedStatement => ({
  sql: `INSERT INTO landlord_consent_links (token_hash, deal_id, landlord_name, landlord_email, reason, tenant_address, expires_at, created_at) SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE ${GUARD}`,
  params: [link.token_hash, link.deal_id, link.landlord_name, link.landlord_email, link.reason, link.tenant_address, link.expires_at, link.created_at],
});

export const useLinkStatement = (tokenHash: string, decision: string, reason: string | null, now: string): GuardedStatement => ({
  sql: `UPDATE landlord_consent_links SET used_at = ?, decision = ?, decision_reason = ? WHERE token_hash = ? AND used_at IS NULL AND ${GUARD}`,
  params: [now, decision, reason, tokenHash],
});

/** The landlord declined: the listing is flagged for 180 days (the newest decline wins), with the deal's batch. */
export const landlordDeclineStatement = (listingId: string, landlordEmail: string, dealId: string, at: string): GuardedStatement => ({
  sql: `INSERT INTO landlord_declines (listing_id, landlord_email, deal_id, declined_at) SELECT ?, ?, ?, ? WHERE ${GUARD}
        ON CONFLICT (listing_id) DO UPDATE SET landlord_email = excluded.landlord_email, deal_id = excluded.deal_id, declined_at = excluded.declined_at`,
  params: [listingId, landlordEmail, dealId, at],
});

/** The listing's landlord decline, if any (staff's listing flag). */
export const landlordDeclineOf = (db: Db, listingId: string) =>
  db.$client.prepare(`SELECT landlord_email, declined_at FROM landlord_declines WHERE listing_id = ?`).bind(listingId).first<{ landlord_email: string; declined_at: string }>();

export interface PartyNameRow {
  first_name: string;
  last_name: string;
  legal_first_name: string | null;
  legal_last_name: string | null;
  id_verification_status: string;
}

/** A party's names (account and legal) for the agreement. */
export const partyNameRow = (db: Db, userId: string) =>
  db.$client.prepare("SELECT first_name, last_name, legal_first_name, legal_last_name, id_verification_status FROM users WHERE id = ?").bind(userId).first<PartyNameRow>();

/** A pair's deals, newest first (one conversation per pair: the conversation's deals; the scam shield reads them). */
export const dealsOfPair = (db: Db, a: string, b: string) =>
  db.$client
    .prepare(
      `SELECT id, status, renter_id, listing_id FROM deals
       WHERE (renter_id = ?1 AND lister_id = ?2) OR (renter_id = ?2 AND lister_id = ?1)
       ORDER BY created_at DESC, id DESC LIMIT 50`,
    )
    .bind(a, b)
    .all<{ id: string; status: DealStatus; renter_id: string; listing_id: string | null }>()
    .then((r) => r.results);

/**
 * Before an account is deleted: on each of its deals that has an agreement, the names that agreement holds
 * for it (the legal names once verified, else the account's), so the other party's records keep them
 * (docs/decisions/041). Deals without an agreement show a deleted user.
 */
export const keepNamesOfDeletedParty = (db: Db, userId: string) => {
  const name = (col: "first_name" | "last_name") => `(SELECT coalesce(u.legal_${col}, u.${col}) FROM users u WHERE u.id = ?1)`;
  return db.$client.batch([
    db.$client
      .prepare(`UPDATE deals SET former_renter_first_name = ${name("first_name")}, former_renter_last_name = ${name("last_name")} WHERE renter_id = ?1 AND agreement_version > 0`)
      .bind(userId),
    db.$client
      .prepare(`UPDATE deals SET former_lister_first_name = ${name("first_name")}, former_lister_last_name = ${name("last_name")} WHERE lister_id = ?1 AND agreement_version > 0`)
      .bind(userId),
  ]);
};

/** The lister's signed deals (waiting for payment), by id (deals_lister_idx). */
export const signedDealIdsOfLister = (db: Db, listerId: string) =>
  db.$client
    .prepare(`SELECT id FROM deals WHERE lister_id = ? AND status = 'signed'`)
    .bind(listerId)
    .all<{ id: string }>()
    .then((r) => r.results.map((x) => x.id));

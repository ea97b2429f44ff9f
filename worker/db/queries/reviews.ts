/**
 * Reviews, their reports, and the review summaries kept on users (docs/decisions/040). A review is
 * visible to everyone when it was revealed, is not hidden, and its deal is `released` (a deal refunded
 * after a problem has no reviews); before the reveal only its author reads it.
 */
import type { AuditAction } from "../../contract/audit";
import { newId } from "../../lib/ids";
import type { Db } from "../client";
import type { RowOf } from "../rows";
import type { reviews } from "../schema";
import { GUARD, type GuardedStatement } from "./deals";

export type ReviewColumns = RowOf<typeof reviews>;
export interface ReviewRow extends ReviewColumns {
  author_first_name: string | null;
  subject_first_name: string | null;
  listing_title: string;
}

const REVIEW_SELECT = `SELECT r.*, a.first_name AS author_first_name, s.first_name AS subject_first_name, d.listing_title AS listing_title
  FROM reviews r JOIN deals d ON d.id = r.deal_id LEFT JOIN users a ON a.id = r.author_id LEFT JOIN users s ON s.id = r.subject_id`;

/** Visible to everyone (over `r` joined with its deal `d`). */
const VISIBLE = `r.revealed_at IS NOT NULL AND r.hidden_at IS NULL AND d.status = 'released'`;

export const findReview = (db: Db, id: string) => db.$client.prepare(`${REVIEW_SELECT} WHERE r.id = ?`).bind(id).first<ReviewRow>();

export const reviewsOfDeal = (db: Db, dealId: string) =>
  db.$client
    .prepare(`${REVIEW_SELECT} WHERE r.deal_id = ? ORDER BY r.created_at`)
    .bind(dealId)
    .all<ReviewRow>()
    .then((res) => res.results);

export interface ReviewCursor {
  created_at: string;
  id: string;
}

/**
 * The reviews of `subjectId`, newest first (limit + 1 rows): the visible ones, and `viewerId`'s own
 * before their reveal. `role` is the author's side (renter: reviews of them as a lister).
 */
export const reviewsOfUser = (db: Db, subjectId: string, viewerId: string | null, role: "renter" | "lister" | null, limit: number, after: ReviewCursor | null) => {
  const params: unknown[] = [subjectId, viewerId ?? ""];
  let where = `r.subject_id = ? AND ((${VISIBLE}) OR (r.author_id = ? AND r.hidden_at IS NULL))`;
  if (role) {
    where += " AND r.role = ?";
    params.push(role);
  }
  if (after) {
    where += " AND (r.created_at < ? OR (r.created_at = ? AND r.id < ?))";
    params.push(after.created_at, after.created_at, after.id);
  }
  return db.$client
    .prepare(`${REVIEW_SELECT} WHERE ${where} ORDER BY r.created_at DESC, r.id DESC LIMIT ?`)
    .bind(...params, limit + 1)
    .all<ReviewRow>()
    .then((res) => res.results);
};

/** The review summaries a user carries (as a lister: reviews by renters; as a renter: by listers). */
export const summaryCountsOf = (db: Db, userId: string) =>
  db.$client
    .prepare(`SELECT lister_review_count, lister_review_sum, renter_review_count, renter_review_sum FROM users WHERE id = ?`)
    .bind(userId)
    .first<{ lister_review_count: number; lister_review_sum: number; renter_review_count: number; renter_review_sum: number }>();

/**
 * Recomputes a user's two summaries from the visible reviews of them. In a deal's own batch the deal's
 * row is updated last, so `deal` says whether that deal counts as released once the batch applies.
 */
export function summaryStatement(userId: string, deal: { id: string; released: boolean } | null): GuardedStatement {
  const params: unknown[] = [];
  const visible = () => {
    params.push(deal?.id ?? "", deal?.released ? 1 : 0);
    return `r.revealed_at IS NOT NULL AND r.hidden_at IS NULL AND (CASE WHEN d.id = ? THEN ? ELSE d.status = 'released' END)`;
  };
  const of = (role: "renter" | "lister", what: "count(*)" | "coalesce(sum(r.rating), 0)") =>
    `(SELECT ${what} FROM reviews r JOIN deals d ON d.id = r.deal_id WHERE r.subject_id = users.id AND r.role = '${role}' AND ${visible()})`;
  // Reviews by renters are of the lister, and the other way round.
  const sql = `UPDATE users SET lister_review_count = ${of("renter", "count(*)")}, lister_review_sum = ${of("renter", "coalesce(sum(r.rating), 0)")},
    renter_review_count = ${of("lister", "count(*)")}, renter_review_sum = ${of("lister", "coalesce(sum(r.rating), 0)")} WHERE id = ?`;
  params.push(userId);
  return { sql, params };
}

/** A statement of a deal's compare-and-set (applied only with it). */
export const underVersion = (s: GuardedStatement): GuardedStatement => ({ sql: `${s.sql} AND ${GUARD}`, params: s.params });

export const insertReviewStatement = (r: { id: string; dealId: string; authorId: string; subjectId: string; role: "renter" | "lister"; rating: number; text: string; flags: string | null; at: string }): GuardedStatement => ({
  sql: `INSERT INTO reviews (id, deal_id, author_id, subject_id, role, rating, text, flags, created_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${GUARD}`,
  params: [r.id, r.dealId, r.authorId, r.subjectId, r.role, r.rating, r.text, r.flags, r.at],
});

export const revealStatement = (dealId: string, at: string): GuardedStatement => ({
  sql: `UPDATE reviews SET revealed_at = ? WHERE deal_id = ? AND revealed_at IS NULL AND ${GUARD}`,
  params: [at, dealId],
});

export const replyStatement = (reviewId: string, text: string, at: string): GuardedStatement => ({
  sql: `UPDATE reviews SET reply_text = ?, reply_at = ? WHERE id = ? AND reply_at IS NULL AND ${GUARD}`,
  params: [text, at, reviewId],
});

/** A report of a review (one per person): false when this person had reported it already. */
export async function insertReviewReport(db: Db, reviewId: string, reporterId: string, reason: string, at: string): Promise<boolean> {
  const d1 = db.$client;
  const [inserted] = await d1.batch([
    d1.prepare(`INSERT INTO review_reports (review_id, reporter_id, reason, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`).bind(reviewId, reporterId, reason, at),
    // Back in staff's queue with the new count (a report made after staff looked reopens it).
    d1
      .prepare(`UPDATE reviews SET report_count = (SELECT count(*) FROM review_reports WHERE review_id = ?1), checked_at = CASE WHEN EXISTS (SELECT 1 FROM review_reports WHERE review_id = ?1 AND created_at > coalesce(reviews.checked_at, '')) THEN NULL ELSE checked_at END WHERE id = ?1`)
      .bind(reviewId),
  ]);
  return (inserted?.meta.changes ?? 0) > 0;
}

/** The audit row of a staff action on a review, written only when `changed` (the action's own statement) applied. */
const auditOf = (db: Db, actor: string, action: AuditAction, reviewId: string, details: unknown) =>
  db.$client
    .prepare(`INSERT INTO admin_audit (id, actor, action, target_table, target_id, details) SELECT ?, ?, ?, 'reviews', ?, ? WHERE changes() > 0`)
    .bind(newId(), actor, action, reviewId, JSON.stringify(details));

/** Staff hide a review: the reason, the audit row and its subject's summaries recomputed, in one batch. False when it was hidden already. */
export async function hideReview(db: Db, reviewId: string, subjectId: string | null, reason: string, at: string, actor: string): Promise<boolean> {
  const d1 = db.$client;
  const summary = subjectId ? summaryStatement(subjectId, null) : null;
  const results = await d1.batch([
    d1.prepare(`UPDATE reviews SET hidden_at = ?, hidden_reason = ?, checked_at = ? WHERE id = ? AND hidden_at IS NULL`).bind(at, reason, at, reviewId),
    auditOf(db, actor, "review_hide", reviewId, { reason }),
    ...(summary ? [d1.prepare(summary.sql).bind(...summary.params)] : []),
  ]);
  return (results[0]?.meta.changes ?? 0) > 0;
}

/** Staff looked and kept it: out of the queue until a new report (audited). */
export const keepReview = (db: Db, reviewId: string, at: string, actor: string) =>
  db.$client.batch([db.$client.prepare(`UPDATE reviews SET checked_at = ? WHERE id = ?`).bind(at, reviewId), auditOf(db, actor, "review_keep", reviewId, {})]);

export const reportsOfReviews = (db: Db, ids: string[]) =>
  ids.length
    ? db.$client
        .prepare(`SELECT review_id, reason, created_at FROM review_reports WHERE review_id IN (SELECT value FROM json_each(?)) ORDER BY created_at`)
        .bind(JSON.stringify(ids))
        .all<{ review_id: string; reason: string; created_at: string }>()
        .then((res) => res.results)
    : Promise.resolve([]);

/** Staff's lists (limit + 1 rows): the queue (reported or flagged, not yet looked at; oldest first), hidden ones, or all (newest first). */
export const reviewsForStaff = (db: Db, status: "queue" | "hidden" | "all", limit: number, after: ReviewCursor | null) => {
  const where = status === "queue" ? "r.checked_at IS NULL AND (r.report_count > 0 OR r.flags IS NOT NULL)" : status === "hidden" ? "r.hidden_at IS NOT NULL" : "1 = 1";
  const asc = status === "queue";
  const seek = after ? (asc ? " AND (r.created_at > ? OR (r.created_at = ? AND r.id > ?))" : " AND (r.created_at < ? OR (r.created_at = ? AND r.id < ?))") : "";
  return db.$client
    .prepare(`${REVIEW_SELECT} WHERE ${where}${seek} ORDER BY r.created_at ${asc ? "ASC" : "DESC"}, r.id ${asc ? "ASC" : "DESC"} LIMIT ?`)
    .bind(...(after ? [after.created_at, after.created_at, after.id] : []), limit + 1)
    .all<ReviewRow>()
    .then((res) => res.results);
};

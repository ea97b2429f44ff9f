/**
 * Condition reports (docs/decisions/040): one per deal and phase, read-only once written; the lister's
 * one comment. Written as statements of the deal's compare-and-set (the process's transition).
 */
import type { Db } from "../client";
import type { RowOf } from "../rows";
import type { conditionReports } from "../schema";
import { GUARD, type GuardedStatement } from "./deals";

export type ConditionReportRow = RowOf<typeof conditionReports>;

export const conditionReportsOfDeal = (db: Db, dealId: string) =>
  db.$client
    .prepare(`SELECT * FROM condition_reports WHERE deal_id = ? ORDER BY CASE phase WHEN 'move_in' THEN 0 ELSE 1 END`)
    .bind(dealId)
    .all<ConditionReportRow>()
    .then((r) => r.results);

/** The report, unless the deal has one of that phase already (the primary key refuses a second at once too). */
export const insertConditionReportStatement = (r: { dealId: string; phase: string; authorId: string; rooms: string; photos: string; at: string }): GuardedStatement => ({
  sql: `INSERT INTO condition_reports (deal_id, phase, author_id, rooms, photos, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE ${GUARD}`,
  params: [r.dealId, r.phase, r.authorId, r.rooms, r.photos, r.at],
});

export const commentStatement = (dealId: string, phase: string, text: string, at: string): GuardedStatement => ({
  sql: `UPDATE condition_reports SET comment_text = ?, comment_at = ? WHERE deal_id = ? AND phase = ? AND comment_at IS NULL AND ${GUARD}`,
  params: [text, at, dealId, phase],
});

/**
 * Private evidence photos (services/evidence.ts has the rules; docs/decisions/032): the uploads, and which
 * deals cite them.
 */
import type { Db } from "../client";

/** A D1 expression naming the evidence photo's url from its row `e` (the form deal records store). */
const URL_OF_ROW = `'/api/v1/evidence/' || e.name`;

/**
 * Where a deal cites evidence, one SELECT of deal ids per source, for the photo whose url is `url` and whose
 * uploader is `uploader` (SQL expressions). Each source is looked up among its uploader's own records (an
 * index on the author), never across every deal. Today: a problem report and the statements of a case
 * (`deal_statements.photos`, the report is the first statement), a condition report's photos and the lister's
 * original lease. A new source adds its SELECT here, and every rule below (who sees a photo, what the cron
 * keeps) follows.
 */
const EVIDENCE_SOURCES: ((url: string, uploader: string) => string)[] = [
  (url, uploader) => `SELECT s.deal_id FROM deal_statements s, json_each(s.photos) p WHERE s.author_id = ${uploader} AND p.value = ${url}`,
  // A condition report's rooms' photos (docs/decisions/040), kept flat beside the rooms.
  (url, uploader) => `SELECT c.deal_id FROM condition_reports c, json_each(c.photos) p WHERE c.author_id = ${uploader} AND p.value = ${url}`,
  // The lister's original lease (deals_lister_idx).
  (url, uploader) => `SELECT d.id FROM deals d WHERE d.lister_id = ${uploader} AND d.lease_url = ${url}`,
];

/** The ids of the deals that cite the evidence photo (`url`, `uploader`: SQL expressions), as a subquery. */
export const dealsCitingEvidence = (url: string, uploader: string) => EVIDENCE_SOURCES.map((source) => source(url, uploader)).join(" UNION ");

export interface EvidenceRow {
  name: string;
  uploaderId: string;
  contentType: string;
  createdAt: string;
  legacyKey: string | null;
}
const COLUMNS = `e.name, e.uploader_id AS uploaderId, e.content_type AS contentType, e.created_at AS createdAt, e.legacy_key AS legacyKey`;

/**
 * Records an upload unless its uploader has stored `cap` since `since` (one statement, so parallel uploads
 * cannot all pass a count read before them). True when it was recorded.
 */
export const insertEvidenceWithinCap = (db: Db, row: { name: string; uploaderId: string; contentType: string }, since: string, cap: number) =>
  db.$client
    .prepare(
      `INSERT INTO evidence_photos (name, uploader_id, content_type)
       SELECT ?1, ?2, ?3 WHERE (SELECT count(*) FROM evidence_photos WHERE uploader_id = ?2 AND created_at > ?4) < ?5`,
    )
    .bind(row.name, row.uploaderId, row.contentType, since, cap)
    .run()
    .then((r) => r.meta.changes > 0);

export const deleteEvidenceRows = (db: Db, names: string[]) =>
  db.$client.prepare(`DELETE FROM evidence_photos WHERE name IN (SELECT value FROM json_each(?1))`).bind(JSON.stringify(names)).run();

/**
 * The photo when `viewer` may see it: staff always; a user when they uploaded it or are a party (renter or
 * lister) to a deal that cites it. Null otherwise (and when there is no such photo).
 */
/* eslint-disable house/bounded-in-lists -- `IN (dealsCitingEvidence(...))` is a subquery's text, no bound values */
export const evidenceForViewer = (db: Db, name: string, viewer: { userId: string } | { staff: true }) =>
  "staff" in viewer
    ? db.$client.prepare(`SELECT ${COLUMNS} FROM evidence_photos e WHERE e.name = ?1`).bind(name).first<EvidenceRow>()
    : db.$client
        .prepare(
          `SELECT ${COLUMNS} FROM evidence_photos e
           WHERE e.name = ?1 AND (e.uploader_id = ?2 OR EXISTS (
             SELECT 1 FROM deals d WHERE (d.renter_id = ?2 OR d.lister_id = ?2) AND d.id IN (${dealsCitingEvidence(URL_OF_ROW, "e.uploader_id")})))`,
        )
        .bind(name, viewer.userId)
        .first<EvidenceRow>();
/* eslint-enable house/bounded-in-lists */

/** Of these photos, the user's own, each with whether a deal cites it already. */
export const ownEvidence = (db: Db, userId: string, names: string[]) =>
  db.$client
    .prepare(
      `SELECT ${COLUMNS}, (e.kept_at IS NOT NULL OR EXISTS (${dealsCitingEvidence(URL_OF_ROW, "e.uploader_id")})) AS cited
       FROM evidence_photos e WHERE e.uploader_id = ?1 AND e.name IN (SELECT value FROM json_each(?2))`,
    )
    .bind(userId, JSON.stringify(names))
    .all<EvidenceRow & { cited: number }>()
    .then((r) => r.results);

/** For the cron: uploads older than `before` not yet found cited, oldest first, each with whether a deal cites it now. */
export const uncitedEvidenceBefore = (db: Db, before: string, limit: number) =>
  db.$client
    .prepare(
      `SELECT e.name, EXISTS (${dealsCitingEvidence(URL_OF_ROW, "e.uploader_id")}) AS cited
       FROM evidence_photos e WHERE e.kept_at IS NULL AND e.created_at < ?1 ORDER BY e.created_at LIMIT ?2`,
    )
    .bind(before, limit)
    .all<{ name: string; cited: number }>()
    .then((r) => r.results);

/** Photos found cited: kept for good (the cron never looks at them again). */
export const keepEvidence = (db: Db, names: string[], now: string) =>
  db.$client
    .prepare(`UPDATE evidence_photos SET kept_at = ?2 WHERE name IN (SELECT value FROM json_each(?1)) AND kept_at IS NULL`)
    .bind(JSON.stringify(names), now)
    .run();

/** Deletes an uncited photo's row, unless a deal cites it by now. True when it was deleted. */
export const deleteUncitedEvidence = (db: Db, name: string) =>
  db.$client
    .prepare(`DELETE FROM evidence_photos AS e WHERE e.name = ?1 AND e.kept_at IS NULL AND NOT EXISTS (${dealsCitingEvidence(URL_OF_ROW, "e.uploader_id")})`)
    .bind(name)
    .run()
    .then((r) => r.meta.changes > 0);

/** Problem photos still at their old public key (migration 0039), for the copy job. */
export const legacyEvidence = (db: Db, limit: number) =>
  db.$client
    .prepare(`SELECT ${COLUMNS} FROM evidence_photos e WHERE e.legacy_key IS NOT NULL ORDER BY e.name LIMIT ?1`)
    .bind(limit)
    .all<EvidenceRow & { legacyKey: string }>()
    .then((r) => r.results);

export const legacyCopied = (db: Db, name: string) => db.$client.prepare(`UPDATE evidence_photos SET legacy_key = NULL WHERE name = ?1`).bind(name).run();

/** When the server received each of these photos (their upload): a condition report's proof. */
export const evidenceReceivedAt = (db: Db, names: string[]) =>
  names.length
    ? db.$client
        .prepare(`SELECT name, created_at FROM evidence_photos WHERE name IN (SELECT value FROM json_each(?1))`)
        .bind(JSON.stringify(names))
        .all<{ name: string; created_at: string }>()
        .then((r) => new Map(r.results.map((x) => [x.name, x.created_at])))
    : Promise.resolve(new Map<string, string>());

/**
 * Private evidence (docs/decisions/032): photos of a problem, a statement or a condition report. Checked
 * like every photo upload (services/images `checkUploadedPhoto`), stored in the private bucket (the one
 * identity documents use) under `evidence/{name}`, and served at `/api/v1/evidence/{name}` only to the
 * parties of a deal that cites them, staff, and their uploader, never with a public cache header. A deal's
 * inputs accept only the caller's own evidence (checkEvidence); listing photos and evidence never stand
 * in for each other. Uploads no deal cites are deleted after a day (the cron).
 */
import { EVIDENCE, EVIDENCE_MESSAGES as M, evidenceNameOf, evidenceUrlOf, isEvidenceUrl } from "../contract/evidence";
import type { UploadResponse } from "../contract/listings";
import type { Db } from "../db/client";
import {
  deleteEvidenceRows,
  deleteUncitedEvidence,
  evidenceForViewer,
  insertEvidenceWithinCap,
  keepEvidence,
  legacyCopied,
  legacyEvidence,
  ownEvidence,
  uncitedEvidenceBefore,
} from "../db/queries/evidence";
import { photoKeysInUse } from "../db/queries/listings";
import { tooManyRequests, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { log } from "../lib/log";
import { isoNow } from "../lib/time";
import { purgeImageCache } from "./edge-cache";
import { EXTENSIONS } from "./files";
import { checkUploadedPhoto, type PhotoEntry } from "./images";
import { deleteObjects } from "./storage";

const objectKey = (name: string) => `evidence/${name}`;

/**
 * One evidence photo: checked as every photo upload is, recorded within its uploader's daily allowance
 * (429 past it), then stored privately. Its name is pushed to `stored` once recorded, so a request refused
 * later removes it (deleteEvidence).
 */
export async function storeEvidencePhoto(
  db: Db,
  env: Env,
  uploaderId: string,
  image: PhotoEntry,
  stored: string[],
  now = Date.now(),
): Promise<{ uploaded: UploadResponse["uploaded_files"][number] } | { failed: UploadResponse["failed_files"][number] }> {
  const checked = checkUploadedPhoto(image);
  if ("error" in checked) return { failed: { filename: image.filename, error: checked.error } };
  const name = `${newId()}.${EXTENSIONS[checked.type]}`;
  const since = isoNow(now - EVIDENCE.unattachedTtlMs);
  if (!(await insertEvidenceWithinCap(db, { name, uploaderId, contentType: checked.type }, since, EVIDENCE.photosPerUserPerDay))) {
    // The allowance is a rolling day: an hour is a fair wait to suggest (a day's worth was sent recently).
    throw tooManyRequests(3600, M.dailyCap);
  }
  stored.push(name);
  await env.ID_DOCUMENTS.put(objectKey(name), checked.bytes, { httpMetadata: { contentType: checked.type } });
  return { uploaded: { url: evidenceUrlOf(name), thumbnail_url: null, filename: image.filename, size: checked.bytes.length } };
}

/** The evidence a refused upload request stored: never answered with its urls, so nothing cites it. */
export async function deleteEvidence(db: Db, env: Env, names: string[]) {
  if (!names.length) return;
  await deleteEvidenceRows(db, names);
  await deleteObjects(env.ID_DOCUMENTS, names.map(objectKey));
}

/**
 * The one check of photos a deal's input cites (a problem, a statement; later a condition report): each
 * an evidence url (a listing photo is refused), uploaded by `userId`, and either already cited by one of
 * their deals or uploaded within the last 23 hours (the cron deletes uncited uploads after a day). 422
 * naming `field` otherwise.
 */
export async function checkEvidence(db: Db, userId: string, urls: string[], field = "photos", now = Date.now()): Promise<void> {
  if (!urls.length) return;
  const refuse = (message: string): never => {
    throw validationFailed([{ path: field, message }]);
  };
  if (!urls.every(isEvidenceUrl)) refuse(M.notEvidence);
  const names = [...new Set(urls.map(evidenceNameOf))];
  const own = new Map((await ownEvidence(db, userId, names)).map((row) => [row.name, row]));
  const freshSince = isoNow(now - EVIDENCE.attachWithinMs);
  for (const name of names) {
    const row = own.get(name);
    if (!row) refuse(M.notYours);
    if (!row!.cited && row!.createdAt <= freshSince) refuse(M.stale);
  }
}

/** The photo's bytes for `viewer`, or null when it is not theirs to see (or does not exist). */
export async function readEvidence(db: Db, env: Env, name: string, viewer: { userId: string } | { staff: true }) {
  const row = await evidenceForViewer(db, name, viewer);
  if (!row) return null;
  // A problem photo the copy job has not moved yet is still read from its old public key (migration 0039).
  const object = row.legacyKey ? ((await env.ID_DOCUMENTS.get(objectKey(name))) ?? (await env.IMAGES.get(row.legacyKey))) : await env.ID_DOCUMENTS.get(objectKey(name));
  if (!object) return null;
  return { body: object.body, contentType: row.contentType };
}

/** A few each run: each is one read and one write of an object. */
const CLEANUP_PER_RUN = 100;
const LEGACY_PER_RUN = 50;

/**
 * The cron: uploads no deal cited within a day are deleted (row, then file); those a deal cites are marked
 * kept, so they are never looked at again. Returns how many were deleted.
 */
export async function deleteUncitedUploads(db: Db, env: Env, now = Date.now()): Promise<number> {
  const candidates = await uncitedEvidenceBefore(db, isoNow(now - EVIDENCE.unattachedTtlMs), CLEANUP_PER_RUN);
  const cited = candidates.filter((c) => c.cited).map((c) => c.name);
  if (cited.length) await keepEvidence(db, cited, isoNow(now));
  const deleted: string[] = [];
  for (const { name } of candidates.filter((c) => !c.cited)) if (await deleteUncitedEvidence(db, name)) deleted.push(name);
  await deleteObjects(env.ID_DOCUMENTS, deleted.map(objectKey));
  return deleted.length;
}

/**
 * The one-time job of migration 0039: each problem photo still at its public key is copied into the private
 * bucket, then its public copy (and thumbnail) is deleted and dropped from this data center's edge cache,
 * unless a listing uses that photo (it was a listing photo too: it stays public as one). Idempotent and
 * resumable: a photo is marked moved only after both steps, and a copy already made is not made again.
 * `origins`: the site's origins, whose edge-cache entries of the public copy are dropped.
 */
export async function copyLegacyEvidence(db: Db, env: Env, origins: string[] = []): Promise<number> {
  const rows = await legacyEvidence(db, LEGACY_PER_RUN);
  if (!rows.length) return 0;
  const thumbOf = (key: string) => key.replace(/\.(jpg|png|webp|gif)$/, ".thumb.jpg");
  const inUse = await photoKeysInUse(db, rows.map((r) => r.legacyKey));
  let moved = 0;
  for (const row of rows) {
    const key = objectKey(row.name);
    if (!(await env.ID_DOCUMENTS.head(key))) {
      const source = await env.IMAGES.get(row.legacyKey);
      if (!source) {
        // Neither copy exists (the public file was deleted before the job ran): nothing left to move.
        log.warn("legacy_evidence_missing", { name: row.name });
        await legacyCopied(db, row.name);
        continue;
      }
      await env.ID_DOCUMENTS.put(key, await source.arrayBuffer(), { httpMetadata: { contentType: row.contentType } });
    }
    if (!inUse.has(row.legacyKey)) {
      await deleteObjects(env.IMAGES, [row.legacyKey, thumbOf(row.legacyKey)]);
      await purgeImageCache([row.legacyKey, thumbOf(row.legacyKey)], origins);
    }
    await legacyCopied(db, row.name);
    moved++;
  }
  log.info("legacy_evidence_moved", { moved });
  return moved;
}

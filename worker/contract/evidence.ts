/**
 * Private evidence (api-contract "The deal's process, declared"; docs/decisions/032): photos of a
 * problem, a statement or a condition report, uploaded with POST upload/evidence and served at their
 * url only to the parties of a deal that cites them, staff, and (before a deal cites it) the uploader.
 * Zod-free, so the SPA's deal forms can name these without loading the schemas.
 */

/** Where an evidence photo is served: relative, on our own origin. */
export const EVIDENCE_URL_PREFIX = "/api/v1/evidence/";

/**
 * An evidence photo's url: `/api/v1/evidence/{name}`, where the name is an id and the image type's
 * extension. A listing photo (`/api/v1/images/listings/...`) never matches, nor any other host.
 */
export const EVIDENCE_URL = /^\/api\/v1\/evidence\/[A-Za-z0-9_-]{1,64}\.(jpg|png|webp|gif)$/;

export const EVIDENCE = {
  /**
   * Evidence photos one person may upload in a day (a problem and a statement carry 6 each). The
   * private bucket is not a free file host: past this, 429 until the day's oldest upload is a day old.
   */
  photosPerUserPerDay: 60,
  /** An upload no deal cites is deleted after this long (the cron). */
  unattachedTtlMs: 24 * 60 * 60 * 1000,
  /**
   * A deal accepts an uncited upload only while it is younger than this: an hour short of the cron's
   * day, so the cron never deletes a photo a deal is citing at that moment.
   */
  attachWithinMs: 23 * 60 * 60 * 1000,
} as const;

export const EVIDENCE_MESSAGES = {
  notEvidence: "Photos must be uploaded as evidence first (listing photos cannot be used here)",
  notYours: "Photos must be ones you uploaded as evidence",
  stale: "A photo was uploaded more than a day ago: please add it again",
  dailyCap: `You can upload at most ${EVIDENCE.photosPerUserPerDay} evidence photos a day. Please try again tomorrow.`,
  notFound: "Photo not found",
} as const;

export const isEvidenceUrl = (url: string) => EVIDENCE_URL.test(url);
export const evidenceNameOf = (url: string) => url.slice(EVIDENCE_URL_PREFIX.length);
export const evidenceUrlOf = (name: string) => `${EVIDENCE_URL_PREFIX}${name}`;

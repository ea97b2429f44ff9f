/**
 * The cron trigger's work (wrangler.toml [triggers]): removes what has expired, so tables stay
 * small and lookups stay cheap. Each step is one guarded statement; running it twice is harmless.
 */
import type { DevHousekeepingResponse } from "../contract/freshness";
import { createDb, type Db } from "../db/client";
import { deleteExpiredAdminRevocations } from "../db/queries/admin-tokens";
import { deleteDeadRefreshTokens } from "../db/queries/sessions";
import { deleteLiveSocketsBefore, deleteSpentTicketsBefore } from "../db/queries/sockets";
import { forgetUploads, unsubmittedUploads } from "../db/queries/verification";
import { backfillPhotoHashes } from "./photo-check";
import { isoNow } from "../lib/time";
import { log } from "../lib/log";
import { deleteEndedWindows, forgetOldAddresses } from "./auth-throttle";
import { deleteOldCodes } from "./email-codes";
import { deleteStalePlaces } from "./geo";
import { endLapsedCancelledSubscriptions, endLapsedPromotions, stopSubscriptionsOfSuspendedUsers } from "./promotions";
import { deleteObjects } from "./storage";
import { getConfig } from "../env";
import { runFreshness } from "./freshness";
import { purgeListingCache } from "./edge-cache";
import { sendSavedSearchAlerts } from "./saved-searches";
import { backfillPublicAddresses } from "./listings";
import { runDealPaymentJobs, type DealJobsResult } from "./payments";
import type { Defer } from "./messaging";
import { runPushFollowUps } from "./push/follow-ups";
import { copyLegacyEvidence, deleteUncitedUploads } from "./evidence";

/** A few listings a run: each photo is decoded whole (~8 MB for 1600x1200), and one run shares the isolate's 128 MB. */
const PHOTO_BACKFILL_LISTINGS_PER_RUN = 3;

const DAY_MS = 86_400_000;
/** Identity documents uploaded but never submitted are deleted after this long. */
export const UNSUBMITTED_DOCUMENT_TTL_MS = DAY_MS;

/** What one run did (the dev route answers it as is). */
export type HousekeepingResult = DevHousekeepingResponse;

/** Outside any request (the cron, or the dev route replaying it): one database handle for the whole run. */
export async function runHousekeeping(env: Env, now: number = Date.now()): Promise<HousekeepingResult> {
  const db = createDb(env);
  const nowIso = isoNow(now);
  const [codes, tokens, promotions] = await db.batch([
    deleteOldCodes(db, now),
    deleteDeadRefreshTokens(db, nowIso),
    endLapsedPromotions(db, nowIso),
    deleteEndedWindows(db, now),
    deleteExpiredAdminRevocations(db, nowIso),
    endLapsedCancelledSubscriptions(db, nowIso),
    deleteStalePlaces(db, now),
    forgetOldAddresses(db, now),
    deleteSpentTicketsBefore(db, now),
    deleteLiveSocketsBefore(db, now - DAY_MS),
  ]);
  // Lapsed promotions leave browse's promoted places now, not when the edge cache expires (decision 016).
  if (promotions.length) await purgeListingCache([], db);
  // Suspensions whose subscriptions Stripe could not cancel then (each failure is logged; retried next run).
  await stopSubscriptionsOfSuspendedUsers(db, env).catch((err: unknown) => log.error("suspended_subscriptions_stop_failed", { message: String(err) }));
  const unsubmittedDocuments = await deleteUnsubmittedDocuments(db, env.ID_DOCUMENTS, now);
  // Evidence uploads no deal cited within a day; problem photos still public since before 0039 (docs/decisions/032).
  const uncitedEvidence = await deleteUncitedUploads(db, env, now).catch((err: unknown) => {
    log.error("evidence_cleanup_failed", { message: String(err) });
    return 0;
  });
  const siteOrigin = getConfig(env).publicBaseUrl;
  await copyLegacyEvidence(db, env, siteOrigin ? [new URL(siteOrigin).origin] : []).catch((err: unknown) => log.error("legacy_evidence_failed", { message: String(err) }));
  // Public addresses of listings saved before they were stored (decision 024); a no-op once done.
  const publicAddresses = await backfillPublicAddresses(db).catch((err: unknown) => {
    log.error("public_address_backfill_failed", { message: String(err) });
    return 0;
  });
  // Copied-photo hashes (docs/decisions/028) of photos the upload's own check missed, and the backfill; rerunnable.
  await backfillPhotoHashes(db, env, PHOTO_BACKFILL_LISTINGS_PER_RUN, now).catch((err: unknown) => log.error("photo_hash_backfill_failed", { message: String(err) }));
  // Fresh listings (docs/decisions/015) last: a failure there (mail provider down) must not undo the cleanup above.
  const freshness = await runFreshness(db, env, getConfig(env), now).catch((err: unknown) => {
    log.error("freshness_failed", { message: String(err) });
    return { asked: 0, paused: 0 };
  });
  // Saved-search alerts (docs/decisions/020): what waited for its day's allowance, and the daily digests.
  const savedSearchAlerts = await sendSavedSearchAlerts(db, env, getConfig(env), now).catch((err: unknown) => {
    log.error("saved_search_alerts_failed", { message: String(err) });
    return 0;
  });
  // Deals (docs/decisions/026, 029): expiry, the release of held money, lapsed cancellation decisions, refunds owed.
  await runDealJobs(env, now).catch((err: unknown) => log.error("deal_jobs_failed", { message: String(err) }));
  // Push (docs/decisions/027): summaries after quiet hours, emails for messages still unread.
  const push = await runPushFollowUps(db, env, getConfig(env), now);
  const result = {
    emailCodes: codes.meta.changes ?? 0,
    refreshTokens: tokens.meta.changes ?? 0,
    expiredPromotions: promotions.length,
    unsubmittedDocuments,
    uncitedEvidence,
    availabilityAsked: freshness.asked,
    listingsPaused: freshness.paused,
    savedSearchAlerts,
    publicAddresses,
  };
  log.info("housekeeping", { ...result, pushSummaries: push.summaries, pushFallbackEmails: push.fallbackEmails });
  return result;
}

/**
 * The deal jobs alone, as of `now` (the cron, and POST dev/deals/tick): expiry, the release of held money
 * whose time has come, late cancellations the lister left undecided, and refunds still owed (docs/decisions/026,
 * 029). Their emails and room events are awaited here, or handed to `defer` (a request's waitUntil).
 */
export async function runDealJobs(env: Env, now: number, defer?: Defer): Promise<DealJobsResult> {
  const tasks: Promise<unknown>[] = [];
  const result = await runDealPaymentJobs(createDb(env), { env, config: getConfig(env), defer: defer ?? ((t) => void tasks.push(t)) }, now);
  await Promise.allSettled(tasks);
  if (result.expired || result.released || result.cancellations_decided || result.refunds_retried || result.transfers_retried) log.info("deal_jobs", { ...result });
  return result;
}

/** Identity documents uploaded more than a day ago and never submitted: files first, then their rows. */
async function deleteUnsubmittedDocuments(db: Db, documents: R2Bucket, now: number): Promise<number> {
  const stale = await unsubmittedUploads(db, isoNow(now - UNSUBMITTED_DOCUMENT_TTL_MS));
  if (!stale.length) return 0;
  const keys = stale.map((d) => d.key);
  await deleteObjects(documents, keys);
  await forgetUploads(db, keys);
  return keys.length;
}

/**
 * The cron trigger's work (wrangler.toml [triggers]), as jobs on the jobs queue (docs/decisions/037):
 * the deal jobs, the cleanup of what has expired (so tables stay small and lookups stay cheap), the photo
 * backfill, availability questions, saved-search alerts and push follow-ups.
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
import { CRON_JOBS, sendJobs, type CronJob } from "./background/messages";
import { pruneBackgroundRows } from "../db/queries/background";
import { copyLegacyEvidence, deleteUncitedUploads } from "./evidence";

const DAY_MS = 86_400_000;
/** Identity documents uploaded but never submitted are deleted after this long. */
export const UNSUBMITTED_DOCUMENT_TTL_MS = DAY_MS;
/** Delivery records outlive any retry of their message (a queue keeps a message 14 days at most). */
const DELIVERIES_KEPT_MS = 14 * DAY_MS;
/** Dead letters staff have not needed for this long go. */
const DEAD_LETTERS_KEPT_MS = 90 * DAY_MS;

/** What one run did (the dev route answers it as is). */
export type HousekeepingResult = DevHousekeepingResponse;

const EMPTY: HousekeepingResult = { emailCodes: 0, refreshTokens: 0, expiredPromotions: 0, unsubmittedDocuments: 0, uncitedEvidence: 0, availabilityAsked: 0, listingsPaused: 0, savedSearchAlerts: 0, publicAddresses: 0 };

/**
 * The cron (wrangler.toml [triggers]) only enqueues: one message a job as of the scheduled time, the deal
 * jobs first, each run by the jobs queue's consumer in an invocation of its own (docs/decisions/037), so
 * photo work, a mail outage or a slow job never holds back releases, expiries and refunds.
 */
export const enqueueCronJobs = (env: Env, now: number) => sendJobs(env, CRON_JOBS, now);

/**
 * One cron job as of `now` (the jobs queue's consumer; runHousekeeping): a failure throws, so the
 * message is retried. Each step is guarded, so running a job twice is harmless.
 */
export async function runCronJob(env: Env, job: CronJob, now: number): Promise<Partial<HousekeepingResult>> {
  const db = createDb(env);
  const config = getConfig(env);
  switch (job) {
    // Deals (docs/decisions/026, 029): expiry, the release of held money, lapsed cancellation decisions, refunds owed.
    case "deal-jobs":
      await runDealJobs(env, now);
      return {};
    case "cleanup":
      return cleanup(db, env, now);
    // Copied-photo checks (docs/decisions/028) the uploads' own did not do: queued to the photos queue, never decoded here.
    case "photo-backfill":
      await backfillPhotoHashes(db, env, undefined, now);
      return {};
    // Fresh listings (docs/decisions/015).
    case "freshness": {
      const freshness = await runFreshness(db, env, config, now);
      return { availabilityAsked: freshness.asked, listingsPaused: freshness.paused };
    }
    // Saved-search alerts (docs/decisions/020): what waited for its day's allowance, and the daily digests.
    case "saved-search-alerts":
      return { savedSearchAlerts: await sendSavedSearchAlerts(db, env, config, now) };
    // Push (docs/decisions/027): summaries after quiet hours, emails for messages still unread.
    case "push-follow-ups": {
      const push = await runPushFollowUps(db, env, config, now);
      if (push.summaries || push.fallbackEmails) log.info("push_follow_ups", { pushSummaries: push.summaries, pushFallbackEmails: push.fallbackEmails });
      return {};
    }
    default:
      // A message from another version of the worker: failing it makes it a dead letter staff see.
      throw new Error(`unknown cron job ${String(job satisfies never)}`);
  }
}

/**
 * Every job at once, in the cron's order (POST dev/housekeeping replays a run as of `at`; tests): a
 * failed job is logged and the others still run.
 */
export async function runHousekeeping(env: Env, now: number = Date.now()): Promise<HousekeepingResult> {
  const result = { ...EMPTY };
  for (const job of CRON_JOBS) {
    Object.assign(
      result,
      await runCronJob(env, job, now).catch((err: unknown) => {
        log.error("cron_job_failed", { job, message: err instanceof Error ? err.message : "unknown" });
        return {};
      }),
    );
  }
  log.info("housekeeping", { ...result });
  return result;
}

/** Removes what has expired, so tables stay small and lookups stay cheap: each step one guarded statement. */
async function cleanup(db: Db, env: Env, now: number): Promise<Partial<HousekeepingResult>> {
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
    ...pruneBackgroundRows(db, isoNow(now - DELIVERIES_KEPT_MS), isoNow(now - DEAD_LETTERS_KEPT_MS)),
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
  return { emailCodes: codes.meta.changes ?? 0, refreshTokens: tokens.meta.changes ?? 0, expiredPromotions: promotions.length, unsubmittedDocuments, uncitedEvidence, publicAddresses };
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

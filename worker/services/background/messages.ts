/**
 * Work that is not the answer goes on a queue (docs/decisions/037, architecture convention 23): every
 * message the queues carry is one member of this union, its `type` picks its consumer
 * (background/consumer.ts). Producers call the send helpers here, never a binding directly, so each
 * message lands on its queue and a list is sent in batches within the platform's limits.
 */
import type { PushPayload } from "../../contract/push";
import type { EmailMessage } from "../email";
import type { NotifyEvent, NotifyKind } from "../notify/events";
import type { PushOptions } from "../push/web-push";
import type { Db } from "../../db/client";
import { markNoticesPending } from "../../db/queries/dev-emails";
import { getConfig } from "../../env";

/** The queues (wrangler.toml [[queues]]); the dead-letter queue has a consumer and no producer of ours. */
export const QUEUES = {
  photos: "campusnest-photos",
  notices: "campusnest-notices",
  jobs: "campusnest-jobs",
  deadLetters: "campusnest-dead-letters",
} as const;

/** The cron's work, each its own message (its own invocation: CPU, 128 MB and retries of its own). */
export const CRON_JOBS = ["deal-jobs", "cleanup", "photo-backfill", "freshness", "saved-search-alerts", "push-follow-ups"] as const;
export type CronJob = (typeof CRON_JOBS)[number];

export type PhotoCheckMessage = { type: "photo-check"; listingId: string };

/** An email of notify's (notify/channels/email.ts): already rendered; `id` makes its delivery happen once. */
export interface EmailJob {
  type: "email";
  id: string;
  kind: NotifyKind;
  /** The recipient's account, when the email goes to one (null: a bare address, a landlord). */
  userId: string | null;
  email: EmailMessage;
}

/** The email that stands in when no device takes a push: rendered now; `throttled`: the kind's email throttle decides first. */
export interface StandIn {
  email: EmailMessage;
  event: NotifyEvent;
  throttled: boolean;
}

/** A push of notify's (notify/channels/push.ts), to every subscription of the user. */
export interface PushJob {
  type: "push";
  id: string;
  userId: string;
  kind: NotifyKind;
  payload: PushPayload;
  options: PushOptions;
  /** Kept once a device takes it (one push per topic until read), with the message's email fallback due 15 minutes on. */
  keep: { topic: string; event: string; emailFallback: boolean } | null;
  standIn: StandIn | null;
}
export type SavedSearchAlertsMessage = { type: "saved-search-alerts"; id: string; listingIds: string[]; at: number };
export type JobMessage = { type: "job"; job: CronJob; at: number };

export type NoticeMessage = EmailJob | PushJob | SavedSearchAlertsMessage;
export type BackgroundMessage = PhotoCheckMessage | NoticeMessage | JobMessage;

/** sendBatch's limits: 100 messages and 256 KB a call (measured as JSON here, with room for metadata). */
const BATCH_MESSAGES = 100;
const BATCH_BYTES = 200_000;

async function sendAll<T extends BackgroundMessage>(queue: Queue<T>, bodies: T[]): Promise<void> {
  let batch: MessageSendRequest<T>[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = JSON.stringify(body).length;
    if (batch.length && (batch.length === BATCH_MESSAGES || bytes + size > BATCH_BYTES)) {
      await queue.sendBatch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body, contentType: "json" });
    bytes += size;
  }
  if (batch.length) await queue.sendBatch(batch);
}

/** Photo checks, one message a listing (docs/decisions/028, 036). */
export const sendPhotoChecks = (env: Env, listingIds: string[]) =>
  sendAll(env.PHOTO_QUEUE, [...new Set(listingIds)].map((listingId): PhotoCheckMessage => ({ type: "photo-check", listingId })));

/**
 * A notice's delivery (an email, a push) or the saved-search alerts of approved listings. In development
 * each is noted as pending until its consumer tried it, so the dev mailbox answers after it (a test or a
 * person reading it right after the request that queued it sees it, as when email went during the request).
 */
export async function sendNotices(db: Db, env: Env, messages: NoticeMessage[]): Promise<void> {
  if (getConfig(env).isDevelopment) await markNoticesPending(db, messages.map((m) => m.id));
  await sendAll(env.NOTICE_QUEUE, messages);
}

/** The cron's jobs as of `at`, the deal jobs first. */
export const sendJobs = (env: Env, jobs: readonly CronJob[], at: number) => sendAll(env.JOB_QUEUE, jobs.map((job): JobMessage => ({ type: "job", job, at })));

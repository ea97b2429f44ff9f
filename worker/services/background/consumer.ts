/**
 * The worker's queue() handler (docs/decisions/037): each message of a batch is handled on its own and
 * acknowledged as soon as it is done, so a failure (or an invocation that dies: over its memory or
 * CPU) retries only the messages not done. A failed message is retried with backoff (its delay grows
 * with its attempts) and its last error is kept in queue_failures; after the queue's max_retries the
 * platform moves it to the dead-letter queue, whose consumer here marks that row dead, for staff. Every
 * handler is idempotent: a photo already hashed, a delivery already done, a guarded job, is a no-op.
 */
import { createDb, type Db } from "../../db/client";
import { forgetFailure, recordDeadLetter, recordFailure } from "../../db/queries/background";
import { noticeTried } from "../../db/queries/dev-emails";
import { getConfig } from "../../env";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { runCronJob } from "../housekeeping";
import { deliverEmailJob } from "../notify/channels/email";
import { deliverPushJob } from "../notify/channels/push";
import { hashListingPhotos } from "../photo-check";
import { matchSavedSearches } from "../saved-searches";
import { QUEUES, type BackgroundMessage } from "./messages";

/** Seconds before a failed message's next attempt: base x 4^(attempt - 1), at most an hour. */
const RETRY_BASE_SECONDS: Record<string, number> = { [QUEUES.photos]: 30, [QUEUES.notices]: 30, [QUEUES.jobs]: 60 };
export const retryDelaySeconds = (queue: string, attempts: number) => Math.min(3600, (RETRY_BASE_SECONDS[queue] ?? 30) * 4 ** Math.max(0, attempts - 1));

export async function consumeBatch(batch: MessageBatch<BackgroundMessage>, env: Env): Promise<void> {
  const db = createDb(env);
  if (batch.queue === QUEUES.deadLetters) return recordDeadLetters(db, batch);
  for (const message of batch.messages) {
    try {
      await handle(db, env, message);
      message.ack();
      if (message.attempts > 1) await forgetFailure(db, message.id).catch(() => undefined);
    } catch (err) {
      const error = err instanceof Error ? `${err.name}: ${err.message}` : "unknown error";
      log.warn("background_message_failed", { queue: batch.queue, type: message.body?.type ?? "unknown", attempts: message.attempts });
      const described = describe(message.body);
      await recordFailure(db, { id: message.id, ...described, error: error.slice(0, 500), attempts: message.attempts, sentAt: message.timestamp.toISOString(), failedAt: isoNow() }).catch(() => undefined);
      message.retry({ delaySeconds: retryDelaySeconds(batch.queue, message.attempts) });
    }
    // Tried (delivered, or failed and waiting for its retry): the development mailbox no longer waits for it.
    if (batch.queue === QUEUES.notices && isDevelopment(env) && message.body && "id" in message.body) await noticeTried(db, [message.body.id]).catch(() => undefined);
  }
}

/** Development (the dev mailbox's bookkeeping); a configuration that does not load is not development. */
function isDevelopment(env: Env): boolean {
  try {
    return getConfig(env).isDevelopment;
  } catch {
    return false;
  }
}

async function handle(db: Db, env: Env, message: Message<BackgroundMessage>): Promise<void> {
  const body = message.body;
  switch (body.type) {
    case "photo-check":
      // The message's id claims each decode: a later attempt of it knows which decode died (decision 036).
      await hashListingPhotos(db, env, body.listingId, message.id);
      return;
    case "email":
      return deliverEmailJob(db, env, getConfig(env), body);
    case "push":
      return deliverPushJob({ db, env, config: getConfig(env) }, body);
    case "saved-search-alerts":
      return matchSavedSearches(db, env, getConfig(env), body.listingIds, body.at);
    case "job":
      await runCronJob(env, body.job, body.at);
      return;
    default:
      throw new Error(`unknown message type ${String((body as { type?: unknown } | null)?.type)}`);
  }
}

/** The dead-letter queue: each message's failure row is marked dead (made now when none was kept). */
async function recordDeadLetters(db: Db, batch: MessageBatch<BackgroundMessage>): Promise<void> {
  for (const message of batch.messages) {
    await recordDeadLetter(db, { id: message.id, ...describe(message.body), sentAt: message.timestamp.toISOString(), deadAt: isoNow() });
    log.error("background_message_dead", { type: message.body?.type ?? "unknown" });
    message.ack();
  }
}

/** What staff see of a message: its type, what it was about, and its body without any email's text or address. */
export function describe(body: BackgroundMessage | null | undefined): { kind: string; subject: string | null; body: string } {
  if (!body || typeof body !== "object") return { kind: "unknown", subject: null, body: JSON.stringify(body ?? null).slice(0, 4000) };
  const shown = body.type === "email" ? { ...body, email: { subject: body.email.subject } } : body.type === "push" ? { ...body, standIn: body.standIn ? { subject: body.standIn.email.subject } : null } : body;
  const subject =
    body.type === "photo-check"
      ? `listing ${body.listingId}`
      : body.type === "email"
        ? body.userId
          ? `user ${body.userId}: ${body.kind}`
          : body.kind
        : body.type === "push"
          ? `user ${body.userId}: ${body.kind}`
          : body.type === "job"
            ? body.job
            : body.type === "saved-search-alerts"
              ? `${body.listingIds.length} listing(s)`
              : null;
  return { kind: String(body.type), subject, body: JSON.stringify(shown).slice(0, 4000) };
}

/**
 * The push channel (docs/decisions/027): renders the event's push, keeps one per topic until it is
 * read, holds it in the user's quiet hours (the cron sends one summary after). What is decided from
 * our own rows (no subscription, collapsed, held) is decided at once; the posts to the push services
 * are a job on the notices queue (docs/decisions/037), whose consumer posts to every subscription
 * once (deliverPushJob) and, when no device took it, sends the email that stands in for it.
 */
import type { PushPayload } from "../../../contract/push";
import { PUSH } from "../../../contract/push";
import { markDelivered, wasDelivered } from "../../../db/queries/background";
import { findNotice, insertNotice, subscriptionsOf } from "../../../db/queries/push";
import { newId } from "../../../lib/ids";
import { isoNow } from "../../../lib/time";
import { sendNotices, type PushJob, type StandIn } from "../../background/messages";
import { inQuietHours, parseQuietHours, pushToUser, vapidKeys } from "../../push";
import { EVENTS, type NotifyContext, type NotifyEvent, type NotifyUser } from "../events";
import { enqueueEmail } from "./email";

/**
 * sent: a push service took it; queued: the notices queue will post it; held: quiet hours; collapsed: a
 * push for the topic is still unread; none: nothing will take it.
 */
export type PushDelivery = "sent" | "queued" | "held" | "collapsed" | "none";

export const payloadOf = (notice: { title: string; body: string; url: string; topic?: string }, kind: string): PushPayload => ({
  title: notice.title,
  body: notice.body,
  url: notice.url,
  tag: notice.topic ?? kind,
});

export async function deliverPush(ctx: NotifyContext, user: NotifyUser, event: NotifyEvent, emailFallback: boolean, nowMs = Date.now(), standIn: StandIn | null = null): Promise<PushDelivery> {
  const render = EVENTS[event.kind].push as ((e: NotifyEvent, c: typeof ctx.config) => ReturnType<NonNullable<(typeof EVENTS)["new_message"]["push"]>>) | undefined;
  const keys = vapidKeys(ctx.env, ctx.config);
  if (!render || !keys) return "none";
  // Most people have no subscription: one read decides, before anything else is looked up.
  const subscriptions = await subscriptionsOf(ctx.db, user.id);
  if (subscriptions.length === 0) return "none";
  const notice = render(event, ctx.config);
  const payload = payloadOf(notice, event.kind);
  if (notice.topic && (await findNotice(ctx.db, user.id, notice.topic))) return "collapsed";
  const topic = notice.topic ?? `${event.kind}:${nowMs}:${crypto.randomUUID()}`;
  if (inQuietHours(parseQuietHours(user.quietHours), nowMs)) {
    // Held, not lost: the cron sends one summary when the quiet hours end (and the email fallback waits for it).
    await insertNotice(ctx.db, { userId: user.id, topic, kind: event.kind, payload: JSON.stringify(payload), event: JSON.stringify(event), held: true, emailDueAt: emailFallback ? isoNow(nowMs) : null });
    return "held";
  }
  await sendNotices(ctx.db, ctx.env, [
    {
      type: "push",
      id: newId(),
      userId: user.id,
      kind: event.kind,
      payload,
      options: { ttlSeconds: 24 * 3600, urgency: notice.urgency, topic: notice.topic },
      keep: notice.topic ? { topic: notice.topic, event: JSON.stringify(event), emailFallback } : null,
      standIn,
    },
  ]);
  return "queued";
}

/** The consumer's side: posts the push to every subscription unless this job was delivered already. */
export async function deliverPushJob(ctx: NotifyContext, job: PushJob, nowMs = Date.now()): Promise<void> {
  if (await wasDelivered(ctx.db, job.id)) return;
  const keys = vapidKeys(ctx.env, ctx.config);
  const accepted = keys ? (await pushToUser(ctx.db, keys, job.userId, job.payload, job.options, nowMs)).accepted : 0;
  if (accepted > 0 && job.keep) {
    await insertNotice(ctx.db, {
      userId: job.userId,
      topic: job.keep.topic,
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      event: job.keep.event,
      sentAt: isoNow(nowMs),
      emailDueAt: job.keep.emailFallback ? isoNow(nowMs + PUSH.emailFallbackMs) : null,
    });
  }
  if (accepted === 0 && job.standIn) {
    const { email, event, throttled } = job.standIn;
    const rule = EVENTS[event.kind];
    const throttle = !rule.transactional && throttled ? (rule.emailThrottle as ((c: NotifyContext, id: string, e: NotifyEvent) => Promise<boolean>) | undefined) : undefined;
    // Its own job (its own retries); the id follows the push's, so a retried push job queues it once.
    if (!throttle || (await throttle(ctx, job.userId, event))) await enqueueEmail(ctx.db, ctx.env, { id: `${job.id}.email`, kind: event.kind, userId: job.userId, email });
  }
  await markDelivered(ctx.db, job.id, isoNow(nowMs));
}

/**
 * The push channel (docs/decisions/027): renders the event's push, keeps one per topic until it is
 * read, holds it in the user's quiet hours (the cron sends one summary after), and posts it to every
 * subscription. Its result tells notify whether email must stand in.
 */
import type { PushPayload } from "../../../contract/push";
import { PUSH } from "../../../contract/push";
import { findNotice, insertNotice, subscriptionsOf } from "../../../db/queries/push";
import { isoNow } from "../../../lib/time";
import { inQuietHours, parseQuietHours, pushToUser, vapidKeys } from "../../push";
import { EVENTS, type NotifyContext, type NotifyEvent, type NotifyUser } from "../events";

/** sent: a push service took it; held: quiet hours; collapsed: a push for the topic is still unread; none: nothing took it. */
export type PushDelivery = "sent" | "held" | "collapsed" | "none";

export const payloadOf = (notice: { title: string; body: string; url: string; topic?: string }, kind: string): PushPayload => ({
  title: notice.title,
  body: notice.body,
  url: notice.url,
  tag: notice.topic ?? kind,
});

export async function deliverPush(ctx: NotifyContext, user: NotifyUser, event: NotifyEvent, emailFallback: boolean, nowMs = Date.now()): Promise<PushDelivery> {
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
  const row = { userId: user.id, topic, kind: event.kind, payload: JSON.stringify(payload), event: JSON.stringify(event) };
  if (inQuietHours(parseQuietHours(user.quietHours), nowMs)) {
    // Held, not lost: the cron sends one summary when the quiet hours end (and the email fallback waits for it).
    await insertNotice(ctx.db, { ...row, held: true, emailDueAt: emailFallback ? isoNow(nowMs) : null });
    return "held";
  }
  const result = await pushToUser(ctx.db, keys, user.id, payload, { ttlSeconds: 24 * 3600, urgency: notice.urgency, topic: notice.topic }, nowMs, subscriptions);
  if (result.accepted === 0) return "none";
  if (notice.topic) await insertNotice(ctx.db, { ...row, sentAt: isoNow(nowMs), emailDueAt: emailFallback ? isoNow(nowMs + PUSH.emailFallbackMs) : null });
  return "sent";
}

/**
 * The cron's push work (docs/decisions/027): when a user's quiet hours are over, one summary push for
 * everything held; and the email fallback for a message still unread 15 minutes after its push.
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { PushPayload } from "../../contract/push";
import { PUSH } from "../../contract/push";
import { hasUnreadIn } from "../../db/queries/conversations";
import { clearNotice, emailDone, heldNotices, noticesDueForEmail, releaseNotices, type PushNoticeRow } from "../../db/queries/push";
import { findUserById } from "../../db/queries/users";
import { isoNow } from "../../lib/time";
import { log } from "../../lib/log";
import { queuedEmailChannel } from "../notify/channels/email";
import type { NotifyEvent } from "../notify/events";
import { inQuietHours, parseQuietHours, pushToUser, vapidKeys } from ".";

/** One push standing for several held ones: the newest's page when they share one, else the home page. */
export function summaryOf(held: PushPayload[]): PushPayload {
  if (held.length === 1) return held[0]!;
  const urls = new Set(held.map((p) => p.url));
  return {
    title: `${held.length} notifications while you were away`,
    body: held
      .slice(-3)
      .map((p) => p.title)
      .join(" · "),
    url: urls.size === 1 ? held[0]!.url : "/messages",
    tag: "quiet-hours-summary",
  };
}

export async function releaseQuietHours(db: Db, env: Env, config: Config, nowMs: number): Promise<number> {
  const keys = vapidKeys(env, config);
  if (!keys) return 0;
  const byUser = new Map<string, PushNoticeRow[]>();
  for (const row of await heldNotices(db)) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row]);
  let sent = 0;
  for (const [userId, rows] of byUser) {
    const user = await findUserById(db, userId);
    if (!user || inQuietHours(parseQuietHours(user.quietHours), nowMs)) continue;
    const result = await pushToUser(db, keys, userId, summaryOf(rows.map((r) => JSON.parse(r.payload) as PushPayload)), { ttlSeconds: 24 * 3600, urgency: "normal", topic: "quiet-hours-summary" }, nowMs);
    if (result.accepted > 0) sent++;
    // Released either way: with no device that took it, the fallback email (when due) stands in now.
    await releaseNotices(db, userId, isoNow(nowMs), isoNow(result.accepted > 0 ? nowMs + PUSH.emailFallbackMs : nowMs));
    // Rows without a topic to keep (one-off events) have done their job.
    for (const row of rows) if (!row.topic.startsWith("conversation:") && !row.topic.startsWith("search:")) await clearNotice(db, userId, row.topic);
  }
  return sent;
}

export async function sendFallbackEmails(db: Db, env: Env, config: Config, nowMs: number): Promise<number> {
  let sent = 0;
  for (const row of await noticesDueForEmail(db, isoNow(nowMs))) {
    // Claimed first: a second cron run, or a failure below, never emails twice.
    await emailDone(db, row.userId, row.topic);
    const event = JSON.parse(row.event) as NotifyEvent;
    if (event.kind !== "new_message" || !(await hasUnreadIn(db, event.conversation.id, row.userId))) continue;
    const user = await findUserById(db, row.userId);
    if (!user?.emailOnMessage) continue;
    try {
      // Through the notices queue: a failed send is retried there, not lost (docs/decisions/037).
      await queuedEmailChannel.deliver({ db, env, config }, { email: user.email, firstName: user.firstName, user }, event);
      sent++;
    } catch (err) {
      log.warn("notification_failed", { kind: event.kind, channel: "email", message: err instanceof Error ? err.message : "unknown" });
    }
  }
  return sent;
}

/** Both, for the cron; a failure is logged and the next run tries again. */
export async function runPushFollowUps(db: Db, env: Env, config: Config, nowMs: number): Promise<{ summaries: number; fallbackEmails: number }> {
  const summaries = await releaseQuietHours(db, env, config, nowMs).catch((err: unknown) => {
    log.error("push_summaries_failed", { message: String(err) });
    return 0;
  });
  const fallbackEmails = await sendFallbackEmails(db, env, config, nowMs).catch((err: unknown) => {
    log.error("push_fallback_failed", { message: String(err) });
    return 0;
  });
  return { summaries, fallbackEmails };
}

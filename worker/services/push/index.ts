/**
 * Sending pushes to a user's devices (docs/decisions/027): every subscription gets the push; the push
 * service's answer decides what happens to the subscription (404/410: deleted; 429: nothing before its
 * Retry-After, recorded, never retried inline; 413: sent once more with a shorter text). Quiet hours are
 * decided here too, so the channel and the cron read them the same way.
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { PushPayload } from "../../contract/push";
import type { QuietHours } from "../../contract/users";
import { deleteSubscription, holdSubscription, sendable, subscriptionsOf, type PushSubscriptionRow } from "../../db/queries/push";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { pushRequest, type PushOptions, type VapidKeys } from "./web-push";

/** The worker's VAPID keys (secrets), or null when push is not configured. */
export function vapidKeys(env: Env, config: Config): VapidKeys | null {
  const vars = env as unknown as Partial<Record<"VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY", string>>;
  if (!vars.VAPID_PUBLIC_KEY || !vars.VAPID_PRIVATE_KEY) return null;
  // A contact the push service can reach when our pushes misbehave (RFC 8292 §2.1).
  return { publicKey: vars.VAPID_PUBLIC_KEY, privateKey: vars.VAPID_PRIVATE_KEY, subject: `mailto:${config.supportEmail}` };
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** The wall-clock minute of the day in a time zone. */
function minuteIn(timeZone: string, nowMs: number): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(nowMs));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part("hour") * 60 + part("minute");
}

/** Whether `nowMs` falls in the quiet hours (which may run past midnight: 22:00 to 07:00). */
export function inQuietHours(quiet: QuietHours | null, nowMs: number): boolean {
  if (!quiet) return false;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const now = minuteIn(quiet.time_zone, nowMs);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

export const parseQuietHours = (stored: string | null): QuietHours | null => (stored ? (JSON.parse(stored) as QuietHours) : null);

/** A shorter text for a push service that found the payload too large (413). */
const shrunk = (payload: PushPayload): PushPayload => ({ ...payload, body: payload.body.length > 60 ? `${payload.body.slice(0, 59)}…` : "" });

/** Seconds of a Retry-After header (seconds or an HTTP date); 60 when absent or unreadable. */
function retryAfterMs(header: string | null, nowMs: number): number {
  if (header && /^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = header ? Date.parse(header) : NaN;
  return Number.isNaN(date) ? 60_000 : Math.max(0, date - nowMs);
}

export interface PushResult {
  /** Subscriptions whose push service took the push (201/202). */
  accepted: number;
  attempted: number;
}

/** Posts the payload to each of the user's subscriptions at once. */
export async function pushToUser(
  db: Db,
  keys: VapidKeys,
  userId: string,
  payload: PushPayload,
  options: PushOptions,
  nowMs: number,
  known?: PushSubscriptionRow[],
): Promise<PushResult> {
  const subscriptions = sendable(known ?? (await subscriptionsOf(db, userId)), isoNow(nowMs));
  const results = await Promise.all(
    subscriptions.map(async (sub) => {
      // A connection that broke before an answer (a pooled one the push service had closed) is tried
      // once more on a fresh request: at worst the device gets the same tag twice, which replaces it.
      const send = async (p: PushPayload) => {
        try {
          return await fetch(await pushRequest(sub, JSON.stringify(p), keys, options, nowMs));
        } catch {
          return fetch(await pushRequest(sub, JSON.stringify(p), keys, options, nowMs));
        }
      };
      try {
        let res = await send(payload);
        if (res.status === 413) {
          await res.body?.cancel();
          res = await send(shrunk(payload));
        }
        await res.body?.cancel();
        if (res.status === 404 || res.status === 410) {
          // The browser dropped the subscription: so do we.
          await deleteSubscription(db, sub.id);
        } else if (res.status === 429) {
          await holdSubscription(db, sub.id, isoNow(nowMs + retryAfterMs(res.headers.get("Retry-After"), nowMs)));
        } else if (res.ok) {
          return true;
        } else {
          log.warn("push_rejected", { status: res.status });
        }
      } catch (err) {
        // The reason without the endpoint (a capability URL): "Network connection lost.", say.
        log.warn("push_failed", { error: err instanceof Error ? err.name : "unknown", message: err instanceof Error ? err.message.replace(/\bhttps?:\/\/\S+/g, "<endpoint>").slice(0, 160) : "" });
      }
      return false;
    }),
  );
  return { accepted: results.filter(Boolean).length, attempted: subscriptions.length };
}

/** Web Push subscriptions (docs/decisions/027). */
import { z } from "./zod";

export const PUSH = {
  /** The oldest subscription is dropped past this many (a person's phones, laptops and browsers). */
  maxSubscriptions: 10,
  /** A message still unread this long after its push is emailed (when the kind's email is on). */
  emailFallbackMs: 15 * 60 * 1000,
} as const;

/** Push services a subscription may point at: the worker never posts where a client chose. */
const PUSH_HOSTS = [/^fcm\.googleapis\.com$/, /^updates\.push\.services\.mozilla\.com$/, /^([a-z0-9-]+\.)*push\.apple\.com$/, /^([a-z0-9-]+\.)*notify\.windows\.com$/];

/** https on a known push service; in development also http(s) on 127.0.0.1 or localhost (a local push service). */
export function isAllowedPushEndpoint(endpoint: string, development: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (development && (url.hostname === "127.0.0.1" || url.hostname === "localhost") && (url.protocol === "http:" || url.protocol === "https:")) return true;
  return url.protocol === "https:" && (url.port === "" || url.port === "443") && PUSH_HOSTS.some((host) => host.test(url.hostname));
}

const key = (name: string) => z.string().min(1, `${name} is required`).max(200);

export const pushSubscribeSchema = z.object({
  endpoint: z.string().min(1, "endpoint is required").max(1024),
  keys: z.object({ p256dh: key("keys.p256dh"), auth: key("keys.auth") }),
});

export const pushUnsubscribeSchema = z.object({ endpoint: z.string().min(1, "endpoint is required").max(1024) });

/** GET push/vapid-public-key. */
export interface VapidKeyResponse {
  data: { key: string };
}

/** What the service worker receives (decrypted): enough to show the notification and open the page. */
export interface PushPayload {
  title: string;
  body: string;
  /** A path of the app ("/messages?userId=…"). */
  url: string;
  /** Notifications with the same tag replace each other on the device. */
  tag: string;
}

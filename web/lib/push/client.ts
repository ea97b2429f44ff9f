/**
 * The browser side of push (docs/decisions/027): what this browser can do, and subscribing it with
 * the worker's VAPID key. Loaded lazily (the prompt and the profile's settings), never on page load.
 */
import type { VapidKeyResponse } from "@contract/push";
import { apiRequest } from "../api-client";

/** supported; ios-home-screen: iOS Safari outside the Home Screen (push needs the installed app); unsupported. */
export type PushSupport = "supported" | "ios-home-screen" | "unsupported";

export function pushSupport(nav: Navigator = navigator, win: Window = window): PushSupport {
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === "MacIntel" && nav.maxTouchPoints > 1);
  const standalone = win.matchMedia?.("(display-mode: standalone)").matches || (nav as Navigator & { standalone?: boolean }).standalone === true;
  if (ios && !standalone) return "ios-home-screen";
  return "serviceWorker" in nav && "PushManager" in win && "Notification" in win ? "supported" : "unsupported";
}

const toBytes = (base64url: string) => {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
};

/** Asks the browser's permission (a click must lead here), subscribes, and tells the worker. */
export async function enablePush(): Promise<"subscribed" | "denied" | "dismissed"> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "dismissed";
  const registration = await navigator.serviceWorker.ready;
  const { data } = await apiRequest<VapidKeyResponse>("push/vapid-public-key");
  const subscription =
    (await registration.pushManager.getSubscription()) ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: toBytes(data.key) }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await apiRequest("push/subscriptions", { method: "POST", body: { endpoint: json.endpoint, keys: json.keys } });
  return "subscribed";
}

export async function disablePush(): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  await apiRequest("push/subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}

export async function isSubscribed(): Promise<boolean> {
  if (pushSupport() !== "supported") return false;
  const registration = await navigator.serviceWorker.getRegistration();
  return !!(await registration?.pushManager.getSubscription());
}

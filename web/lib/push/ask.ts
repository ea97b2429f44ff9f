/**
 * When to offer push (docs/decisions/027): never on page load; after a first message is sent or a
 * search saved (and a deal requested), once. "Not now" is remembered; a blocked permission is not
 * re-asked. This module is tiny and eager; the prompt itself loads only when it is shown.
 */
import { ASK_STORAGE_KEY, type AskMoment } from "./answer";

export type { AskMoment } from "./answer";

function alreadyAnswered(): boolean {
  try {
    return localStorage.getItem(ASK_STORAGE_KEY) !== null;
  } catch {
    return true;
  }
}

/** Shows the prompt once, if this browser could still say yes. */
export function offerPush(moment: AskMoment): void {
  if (typeof window === "undefined" || alreadyAnswered()) return;
  if ("Notification" in window && Notification.permission !== "default") return;
  void import("./prompt").then((m) => m.showPushPrompt(moment));
}


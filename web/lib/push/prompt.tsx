/** The one-time offer of push notifications (docs/decisions/027); loaded only when shown. */
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { rememberAnswer, type AskMoment } from "./answer";
import { enablePush, pushSupport } from "./client";

const WHY: Record<AskMoment, string> = {
  message_sent: "Get a notification when they reply: sublets near campus go in hours.",
  search_saved: "Get a notification when a new place matches this search.",
  deal_requested: "Get a notification at each step of this deal.",
};

export function PushPrompt({ moment, onClose }: { moment: AskMoment; onClose: () => void }) {
  const support = pushSupport();
  const [state, setState] = useState<"idle" | "working" | "denied" | "failed">("idle");
  async function turnOn() {
    setState("working");
    rememberAnswer("asked");
    try {
      const result = await enablePush();
      if (result === "denied") return setState("denied");
      onClose();
    } catch {
      setState("failed");
    }
  }
  function notNow() {
    rememberAnswer("not_now");
    onClose();
  }
  return (
    <div role="dialog" aria-labelledby="push-prompt-title" className="panel stack-sm push-prompt">
      <h2 id="push-prompt-title">Know the moment</h2>
      <p>{WHY[moment]}</p>
      {support === "ios-home-screen" ? (
        <p>Add to Home Screen to get notifications: tap Share, then “Add to Home Screen”, and open CampusNest from there.</p>
      ) : state === "denied" ? (
        <p role="status">Notifications are blocked for this site. To get them, allow notifications in your browser’s site settings.</p>
      ) : state === "failed" ? (
        <p role="status">Notifications could not be turned on. You can try again from your profile.</p>
      ) : null}
      <div className="row row-start">
        {support === "supported" && state !== "denied" && (
          <button type="button" className="button button-primary" disabled={state === "working"} onClick={() => void turnOn()}>
            Turn on notifications
          </button>
        )}
        <button type="button" className="button button-ghost" onClick={notNow}>
          {support === "supported" && state === "idle" ? "Not now" : "Close"}
        </button>
      </div>
    </div>
  );
}

/** True while one of the app's modal dialogs is open (components/ui/dialog.tsx marks <html> then). */
const dialogOpen = () => document.documentElement.classList.contains("dialog-open");

/**
 * Shows the offer in a corner of its own (`.push-prompt-host`: the top on phones, where no composer is;
 * under any modal's backdrop). Asked while a modal is open ("Request sent"), it waits until none is.
 */
export function showPushPrompt(moment: AskMoment): void {
  if (pushSupport() === "unsupported" || document.getElementById("push-prompt-root")) return;
  const host = document.createElement("div");
  host.id = "push-prompt-root";
  host.className = "push-prompt-host";
  document.body.append(host);
  const root = createRoot(host);
  const show = () =>
    root.render(
      <PushPrompt
        moment={moment}
        onClose={() => {
          root.unmount();
          host.remove();
        }}
      />,
    );
  if (!dialogOpen()) return show();
  const watch = new MutationObserver(() => {
    if (dialogOpen()) return;
    watch.disconnect();
    show();
  });
  watch.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
}

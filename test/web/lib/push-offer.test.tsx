import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ASK_STORAGE_KEY } from "../../../web/lib/push/answer";
import { offerPush } from "../../../web/lib/push/ask";
import { pushSupport } from "../../../web/lib/push/client";
import { PushPrompt } from "../../../web/lib/push/prompt";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const nav = (userAgent: string, extra: Record<string, unknown> = {}) => ({ userAgent, platform: "", maxTouchPoints: 0, ...extra }) as unknown as Navigator;
const win = (standalone: boolean, extra: Record<string, unknown> = {}) => ({ matchMedia: () => ({ matches: standalone }), ...extra }) as unknown as Window;

/** A browser that can push: Notification with a given permission, a service worker and PushManager. */
function pushCapable(permission: NotificationPermission) {
  vi.stubGlobal("Notification", Object.assign(function Notification() {}, { permission, requestPermission: vi.fn(async () => permission) }));
  vi.stubGlobal("PushManager", function PushManager() {});
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { ready: new Promise(() => {}), getRegistration: async () => undefined } });
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.classList.remove("dialog-open");
  document.getElementById("push-prompt-root")?.remove();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

describe("push support", () => {
  it("iOS Safari outside the Home Screen gets the explainer; the installed app and other browsers can push", () => {
    expect(pushSupport(nav(IPHONE, { serviceWorker: {} }), win(false, { PushManager: 1, Notification: 1 }))).toBe("ios-home-screen");
    expect(pushSupport(nav(IPHONE, { serviceWorker: {} }), win(true, { PushManager: 1, Notification: 1 }))).toBe("supported");
    expect(pushSupport(nav("Mozilla/5.0 (X11; Linux x86_64) Chrome/130", { serviceWorker: {} }), win(false, { PushManager: 1, Notification: 1 }))).toBe("supported");
    expect(pushSupport(nav("Mozilla/5.0 (X11; Linux x86_64) Firefox/130"), win(false))).toBe("unsupported");
  });
});

describe("the push offer", () => {
  it("shows once after the moment; Not now is remembered and it does not come back", async () => {
    pushCapable("default");
    offerPush("message_sent");
    const dialog = await screen.findByRole("dialog", { name: "Know the moment" });
    expect(dialog).toHaveTextContent("when they reply");
    await userEvent.click(screen.getByRole("button", { name: "Not now" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(localStorage.getItem(ASK_STORAGE_KEY)).toBe("not_now");
    // Decided before any import: nothing is loaded, nothing shown.
    offerPush("search_saved");
    expect(document.getElementById("push-prompt-root")).toBeNull();
  });

  it("waits while a modal dialog is open and shows once it closes, with the app's buttons, in its own corner", async () => {
    pushCapable("default");
    document.documentElement.classList.add("dialog-open");
    offerPush("deal_requested");
    await waitFor(() => expect(document.getElementById("push-prompt-root")).not.toBeNull());
    expect(screen.queryByRole("dialog", { name: "Know the moment" })).toBeNull();
    document.documentElement.classList.remove("dialog-open");
    const dialog = await screen.findByRole("dialog", { name: "Know the moment" });
    expect(document.getElementById("push-prompt-root")).toHaveClass("push-prompt-host");
    expect(screen.getByRole("button", { name: "Turn on notifications" })).toHaveClass("button", "button-primary");
    expect(screen.getByRole("button", { name: "Not now" })).toHaveClass("button", "button-ghost");
    expect(dialog).toHaveTextContent("each step of this deal");
  });

  it("is not offered when the permission was already decided (blocked or granted)", () => {
    for (const permission of ["denied", "granted"] as const) {
      pushCapable(permission);
      // Decided before any import: nothing is loaded, nothing shown.
      offerPush("search_saved");
      expect(document.getElementById("push-prompt-root")).toBeNull();
    }
  });

  it("a refused permission is explained, not asked again", async () => {
    pushCapable("denied");
    render(<PushPrompt moment="search_saved" onClose={() => {}} />);
    await userEvent.click(screen.getByRole("button", { name: "Turn on notifications" }));
    expect(await screen.findByRole("status")).toHaveTextContent("blocked for this site");
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).toBeNull();
    expect(localStorage.getItem(ASK_STORAGE_KEY)).toBe("asked");
  });

  it("on iOS outside the Home Screen: the Add to Home Screen explainer, no button that cannot work", () => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(IPHONE);
    render(<PushPrompt moment="message_sent" onClose={() => {}} />);
    expect(screen.getByText(/Add to Home Screen to get notifications/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).toBeNull();
  });
});

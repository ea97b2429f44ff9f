import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callsOf, dealPartsRoutes, fakeApi, makeUser, notFound, renderApp } from "../render";

/** A browser that can push, whose permission is not decided yet and has no subscription. */
function pushCapable() {
  vi.stubGlobal("Notification", Object.assign(function Notification() {}, { permission: "default", requestPermission: vi.fn(async () => "default") }));
  vi.stubGlobal("PushManager", function PushManager() {});
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { ready: new Promise(() => {}), getRegistration: async () => undefined } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

describe("push settings in the profile", () => {
  it("a kind's push switch sends only that kind; quiet hours are saved with a time zone", async () => {
    pushCapable();
    const user = makeUser();
    const calls = fakeApi({
      ...dealPartsRoutes(),
      "GET /api/v1/universities/": { data: [] },
      "GET /api/v1/users/profile": { data: user },
      "GET /api/v1/users/listings": { data: [] },
      "GET /api/v1/saved-searches/": notFound,
      "GET /api/v1/users/blocks": notFound,
      "PATCH /api/v1/users/notifications": { data: { ...user.notification_settings, deals: { push: false, email: true } } },
    });
    renderApp("/profile", { token: "t", user });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole("checkbox", { name: "Deal steps, receipts and billing" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/users/notifications")).toHaveLength(1));
    expect(callsOf(calls, "PATCH /api/v1/users/notifications")[0]!.body).toEqual({ deals: { push: false } });

    await ui.click(screen.getByRole("button", { name: "Save quiet hours" }));
    await waitFor(() => expect(callsOf(calls, "PATCH /api/v1/users/notifications")).toHaveLength(2));
    const body = callsOf(calls, "PATCH /api/v1/users/notifications")[1]!.body as { quiet_hours: { start: string; end: string; time_zone: string } };
    expect(body.quiet_hours).toMatchObject({ start: "22:00", end: "07:00" });
    expect(body.quiet_hours.time_zone.length).toBeGreaterThan(0);
  });
});

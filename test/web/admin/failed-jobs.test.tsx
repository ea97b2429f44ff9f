/** The staff panel's Failed jobs tab (docs/decisions/037): dead letters newest first, a page at a time. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { DeadLetter } from "@contract/dead-letters";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { axeViolations } from "../axe";
import { callsOf, reply } from "../fake-api";
import { fakeApi, openStaffPanel, staffPanelRoutes } from "../render";

afterEach(() => adminSession.set(null));

const letter = (n: number, over: Partial<DeadLetter> = {}): DeadLetter => ({
  id: `msg-${n}`,
  kind: "email",
  subject: `user u${n}: listing_review`,
  body: JSON.stringify({ type: "email", kind: "listing_review", userId: `u${n}`, email: { subject: "Your listing is live" } }),
  error: "Error: Email provider answered 503",
  attempts: 6,
  sent_at: "2026-12-01T10:00:00.000Z",
  dead_at: "2026-12-01T12:30:00.000Z",
  ...over,
});

describe("the Failed jobs tab", () => {
  it("lists what failed every retry with its last error, and loads the next page on demand", async () => {
    const calls = fakeApi({
      ...staffPanelRoutes(),
      "GET /api/v1/admin/dead-letters": (call: { url: string }) =>
        new URLSearchParams(call.url.split("?")[1]).get("last_evaluated_key") === "page-2"
          ? { dead_letters: [letter(3, { kind: "photo-check", subject: "listing L9", error: null, attempts: 0 })], pagination: { next_token: null, has_more: false } }
          : { dead_letters: [letter(1), letter(2, { kind: "job", subject: "saved-search-alerts", attempts: 3 })], pagination: { next_token: "page-2", has_more: true } },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Failed jobs" }));
    const first = await screen.findByRole("listitem", { name: "Failed email: user u1: listing_review" });
    expect(within(first).getByText("Error: Email provider answered 503")).toBeInTheDocument();
    expect(first).toHaveTextContent("6 attempts");
    expect(screen.getByRole("listitem", { name: "Failed scheduled job: saved-search-alerts" })).toHaveTextContent("3 attempts");
    expect(await axeViolations()).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Load more" }));
    const third = await screen.findByRole("listitem", { name: "Failed photo check: listing L9" });
    expect(third).toHaveTextContent("No error was recorded (the worker stopped during the attempt).");
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    const asked = callsOf(calls, "GET /api/v1/admin/dead-letters");
    expect(asked.map((c) => new URLSearchParams(c.url.split("?")[1]).get("last_evaluated_key"))).toEqual([null, "page-2"]);
    expect(asked.every((c) => c.authorization?.startsWith("Bearer "))).toBe(true);
  });

  it("says so when nothing failed, and offers a retry when the list cannot be read", async () => {
    let fail = true;
    fakeApi({
      ...staffPanelRoutes(),
      "GET /api/v1/admin/dead-letters": () => (fail ? reply({ detail: "Server error. Please try again later." }, 500) : { dead_letters: [], pagination: { next_token: null, has_more: false } }),
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Failed jobs" }));
    expect(await screen.findByText(/^Failed to fetch the failed jobs:/)).toHaveTextContent("Failed to fetch the failed jobs: Server error. Please try again later.");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("No failed jobs: every background job went through.")).toBeInTheDocument();
  });
});

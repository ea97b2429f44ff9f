import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { callsOf, fakeApi, openStaffPanel, renderApp, reply, staffPanelRoutes } from "../render";

afterEach(() => adminSession.set(null));

const universities = { data: [{ id: 7, name: "University of Florida", abbreviation: "UF" }] };

describe("the feedback dialog", () => {
  it("the feedback message: kept whole, flagged, and not sent while too long", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/auth/config": { google_client_id: null } });
    const user = userEvent.setup();
    renderApp("/support");
    await user.click(await screen.findByRole("button", { name: /feedback/i }));
    const dialog = await screen.findByRole("dialog", { name: "Send feedback" });
    await user.type(within(dialog).getByLabelText("Email"), "nia@ufl.edu");
    await user.click(within(dialog).getByLabelText("Message"));
    await user.paste("m".repeat(5001));
    expect(within(dialog).getByLabelText("Message")).toHaveValue("m".repeat(5001));
    expect(within(dialog).getByText("Message is 5001 characters; the limit is 5000. Shorten it to continue.")).toHaveAttribute("role", "alert");
    await user.click(within(dialog).getByRole("button", { name: "Send feedback" }));
    expect(calls.filter((c) => c.url.includes("feedback"))).toEqual([]);
  });

  it("sends the page it was opened on, its path without the query", async () => {
    const calls = fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/feedback/": reply({ id: "f1", message: "Thanks for your feedback!" }, 201),
    });
    const user = userEvent.setup();
    renderApp("/support?from=footer");
    await user.click(await screen.findByRole("button", { name: /feedback/i }));
    const dialog = await screen.findByRole("dialog", { name: "Send feedback" });
    await user.type(within(dialog).getByLabelText("Email"), "nia@ufl.edu");
    await user.type(within(dialog).getByLabelText("Message"), "The map is great");
    await user.click(within(dialog).getByRole("button", { name: "Send feedback" }));
    expect(await within(dialog).findByRole("status")).toHaveTextContent("Thanks! Your feedback was sent.");
    expect(callsOf(calls, "POST /api/v1/feedback/")[0]!.body).toEqual({ email: "nia@ufl.edu", message: "The map is great", page: "/support" });
  });
});

describe("staff's feedback list", () => {
  it("says which page each message was sent from, or that it was not recorded", async () => {
    fakeApi({
      ...staffPanelRoutes(),
      "GET /api/v1/feedback/admin": [
        { id: "f1", email: "a@ufl.edu", message: "Map pins overlap", page: "/listing/l9", timestamp: "2026-01-01T00:00:00.000Z", archived: false },
        { id: "f2", email: "b@ufl.edu", message: "Older app", page: null, timestamp: "2026-01-01T00:00:00.000Z", archived: false },
      ],
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Feedback" }));
    const first = (await screen.findByText("Map pins overlap")).closest("li")!;
    expect(first).toHaveTextContent("Sent from /listing/l9");
    expect(screen.getByText("Older app").closest("li")).toHaveTextContent("Page not recorded");
  });
});

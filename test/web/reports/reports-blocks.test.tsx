/** Reports, blocks and suspension in the SPA (docs/decisions/015). */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Conversation } from "@contract/messages";
import type { AdminReport } from "@contract/reports";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { callsOf, fakeApi, makeOwnerListing, makeUser, notFound, participantRoutes, renderApp, dealPartsRoutes } from "../render";

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });


/** Rooms never open in these tests. */
class QuietWebSocket extends EventTarget {
  readyState = 0;
  constructor(readonly url: string) {
    super();
  }
  send() {}
  close() {}
}
beforeEach(() => vi.stubGlobal("WebSocket", QuietWebSocket));
afterEach(() => {
  vi.unstubAllGlobals();
  adminSession.set(null);
});

const owner = { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true, response_time: null };
const listingRoutes = {
  "GET /api/v1/subleases/l1": { data: makeOwnerListing({ id: "l1", title: "Sunny room" }) },
  "GET /api/v1/users/owner-1": { data: owner },
  "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
};

describe("Report listing", () => {
  it("asks for a reason (details required for Other), sends the report and thanks the reporter", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(), ...listingRoutes, "POST /api/v1/reports": () => json({ data: { id: "r1" } }, 201) });
    const user = userEvent.setup();
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "renter-1" }) });
    // The first lazy route of the file loads once; under a loaded run that can take longer than a second.
    await user.click(await screen.findByRole("button", { name: "Report listing" }));
    // The dialog's code loads on first open (off the listing page's first load).
    const dialog = await screen.findByRole("dialog", { name: "Report listing" });
    const radios = within(dialog).getAllByRole("radio");
    expect(radios.map((r) => r.closest("label")!.textContent)).toEqual(["Scam or fraud", "Already taken", "Wrong information", "Inappropriate", "Discriminatory", "Other"]);

    await user.click(within(dialog).getByRole("button", { name: "Send report" }));
    expect(within(dialog).getByText("Please choose a reason")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("radio", { name: "Other" }));
    await user.click(within(dialog).getByRole("button", { name: "Send report" }));
    expect(within(dialog).getByText("Please tell us what is wrong")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/reports")).toHaveLength(0);

    await user.click(within(dialog).getByRole("radio", { name: "Scam or fraud" }));
    await user.type(within(dialog).getByLabelText("Details (optional)"), "Asked for a deposit by Zelle");
    await user.click(within(dialog).getByRole("button", { name: "Send report" }));
    expect(await screen.findByText("Thanks — our team will review this report.")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/reports")[0]!.body).toEqual({ kind: "listing", listing_id: "l1", reason: "scam", details: "Asked for a deposit by Zelle" });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Report listing" })).toBeNull());
  });

  it("is not offered to the owner, and a visitor is asked to sign in first", async () => {
    fakeApi({ ...dealPartsRoutes(), ...listingRoutes, "GET /api/v1/auth/config": { google_client_id: null } });
    const view = renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    await screen.findByRole("heading", { level: 1, name: "Sunny room" });
    expect(screen.queryByRole("button", { name: "Report listing" })).toBeNull();
    view.unmount();
    localStorage.clear();

    const user = userEvent.setup();
    renderApp("/listing/l1");
    await user.click(await screen.findByRole("button", { name: "Report listing" }));
    expect(await screen.findByRole("dialog", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "Report listing" })).toBeNull();
  });
});

describe("in a conversation", () => {
  const conv: Conversation = {
    id: "c1",
    participant_id: "u2",
    participant_name: "Jordan Kim",
    participant_avatar: null,
    latest_message_preview: null,
    last_message_timestamp: null,
    updated_at: "2026-11-20T15:00:00.000Z",
    unread_count: 0,
    listing_id: null,
    listing_title: null,
    listing_photo: null,
  };
  const base = {
    ...participantRoutes("u2"),
    "GET /api/v1/messages/conversations/c1/messages": { messages: [], pagination: { next_token: null, has_more: false } },
    "POST /api/v1/messages/conversations/c1/read": { unread_count: 0 },
  };

  it("Block asks first, then the conversation leaves the list and the thread closes", async () => {
    let blocked = false;
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/messages/conversations/c1": notFound,
      ...base,
      "GET /api/v1/messages/conversations/enriched": () => ({ data: blocked ? [] : [conv], pagination: { next_token: null, has_more: false } }),
      "POST /api/v1/users/blocks": () => {
        blocked = true;
        return json({ data: [] }, 201);
      },
    });
    const user = userEvent.setup();
    const { router } = renderApp("/messages?conversation=c1", { token: "t", user: makeUser({ id: "u1" }) });
    await user.click(await screen.findByRole("button", { name: "Block" }));
    const confirm = screen.getByRole("alertdialog", { name: "Block Jordan Kim?" });
    expect(confirm).toHaveTextContent("will no longer be able to send you messages");
    expect(callsOf(calls, "POST /api/v1/users/blocks")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Block" }));
    await waitFor(() => expect(router.state.location.search).toBe(""), { timeout: 3000 });
    expect(callsOf(calls, "POST /api/v1/users/blocks")[0]!.body).toEqual({ user_id: "u2" });
    await waitFor(() => expect(screen.queryByText("Jordan Kim")).toBeNull());
  });

  it("Report user sends a user report with the conversation; a blocked sender sees why instead of the composer", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/messages/conversations/c1": notFound,
      ...base,
      "GET /api/v1/messages/conversations/enriched": { data: [conv], pagination: { next_token: null, has_more: false } },
      "POST /api/v1/reports": () => json({ data: { id: "r1" } }, 201),
      "POST /api/v1/messages/conversations/c1/send": () => json({ detail: "You can't send messages in this conversation." }, 403),
    });
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", { token: "t", user: makeUser({ id: "u1" }) });
    await user.click(await screen.findByRole("button", { name: "Report user" }));
    const dialog = screen.getByRole("dialog", { name: "Report Jordan Kim" });
    await user.click(within(dialog).getByRole("radio", { name: "Inappropriate" }));
    await user.click(within(dialog).getByRole("button", { name: "Send report" }));
    expect(await screen.findByText("Thanks — our team will review this report.")).toBeInTheDocument();
    expect(callsOf(calls, "POST /api/v1/reports")[0]!.body).toEqual({ kind: "user", user_id: "u2", conversation_id: "c1", reason: "inappropriate", details: null });

    await user.type(screen.getByRole("textbox", { name: "Message to Jordan Kim" }), "hello{Enter}");
    expect(await screen.findByText("You can't send messages in this conversation.")).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Message to Jordan Kim" })).toBeNull();
    expect(screen.queryByText("Failed to send message")).toBeNull();
  });

  // Blocks go both ways for writing: the blocker unblocks before writing again.
  it("reopened after blocking (not in the list): the blocker sees the name, 'You blocked {name}', Unblock and no composer; Unblock brings the composer back", async () => {
    let blocked = true;
    const calls = fakeApi({ ...dealPartsRoutes(),
      ...base,
      "GET /api/v1/messages/conversations/enriched": () => ({ data: blocked ? [] : [conv], pagination: { next_token: null, has_more: false } }),
      "GET /api/v1/messages/conversations/c1": () => ({ data: conv, reply: blocked ? "you_blocked" : "open" }),
      "DELETE /api/v1/users/blocks/u2": () => {
        blocked = false;
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", { token: "t", user: makeUser({ id: "u1" }) });
    expect(await screen.findByRole("heading", { name: "Jordan Kim" })).toBeInTheDocument();
    const status = await screen.findByText("You blocked Jordan Kim");
    expect(status.closest("[role=status]")).not.toBeNull();
    expect(screen.queryByRole("textbox", { name: "Message to Jordan Kim" })).toBeNull();
    // Already blocked: no second Block, Report stays.
    expect(screen.queryByRole("button", { name: "Block" })).toBeNull();
    expect(screen.getByRole("button", { name: "Report user" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Unblock" }));
    expect(await screen.findByRole("textbox", { name: "Message to Jordan Kim" })).toBeInTheDocument();
    expect(callsOf(calls, "DELETE /api/v1/users/blocks/u2")).toHaveLength(1);
    expect(screen.queryByText("You blocked Jordan Kim")).toBeNull();
  });

  it("the blocked person sees that they cannot reply, with no composer and no reason", async () => {
    fakeApi({ ...dealPartsRoutes(),
      ...base,
      "GET /api/v1/messages/conversations/enriched": { data: [conv], pagination: { next_token: null, has_more: false } },
      "GET /api/v1/messages/conversations/c1": { data: conv, reply: "closed" },
    });
    renderApp("/messages?conversation=c1", { token: "t", user: makeUser({ id: "u1" }) });
    expect(await screen.findByText("You can't send messages in this conversation.")).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Message to Jordan Kim" })).toBeNull();
    expect(document.body.textContent).not.toMatch(/blocked/i);
  });
});

describe("profile: blocked users", () => {
  const profile = { "GET /api/v1/universities/": { data: [] }, "GET /api/v1/users/listings": { data: [] } };

  it("lists them with Unblock, and says so when there are none", async () => {
    let list = [{ id: "u2", name: "Jordan Kim", avatar_url: null, blocked_at: "2026-11-20T15:00:00.000Z" }];
    const user0 = makeUser();
    const calls = fakeApi({ ...dealPartsRoutes(), "GET /api/v1/saved-searches/": notFound,
      ...profile,
      "GET /api/v1/users/profile": { data: user0 },
      "GET /api/v1/users/blocks": () => ({ data: list }),
      "DELETE /api/v1/users/blocks/u2": () => {
        list = [];
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderApp("/profile", { token: "t", user: user0 });
    const section = (await screen.findByRole("heading", { name: "Blocked users" })).closest("section")!;
    await within(section).findByText("Jordan Kim");
    await user.click(within(section).getByRole("button", { name: "Unblock Jordan Kim" }));
    expect(await within(section).findByText("You have not blocked anyone.")).toBeInTheDocument();
    expect(callsOf(calls, "DELETE /api/v1/users/blocks/u2")).toHaveLength(1);
  });
});

describe("sign-in of a suspended account", () => {
  it("shows the suspended message", async () => {
    fakeApi({ ...dealPartsRoutes(),
      "GET /api/v1/universities/": { data: [] },
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": json({ detail: "Your account is suspended. Contact support.", code: "account_suspended" }, 403),
    });
    const user = userEvent.setup();
    renderApp("/support");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    const dialog = screen.getByRole("dialog", { name: "Sign in" });
    await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
    await user.type(within(dialog).getByLabelText("Password"), "secret-1");
    await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
    expect(await within(dialog).findByText("Your account is suspended. Contact support.")).toBeInTheDocument();
  });
});

describe("admin Reports tab", () => {
  const report = (overrides: Partial<AdminReport> = {}): AdminReport => ({
    id: "r1",
    kind: "listing",
    reason: "scam",
    reason_label: "Scam or fraud",
    details: "Wants Zelle before a viewing",
    status: "open",
    resolution: null,
    resolved_at: null,
    created_at: "2026-11-20T15:00:00.000Z",
    listing_id: "l1",
    conversation_id: null,
    reported_user_id: "owner-1",
    reporter: { id: "u1", name: "Maya Lopez" },
    reported_user: { id: "owner-1", name: "Jordan Kim", suspended: false },
    listing_title: "Sunny room",
    open_reports_on_target: 2,
    ...overrides,
  });

  it("shows open reports; Suspend user asks first, then resolves with suspend_user", async () => {
    const calls = fakeApi({ ...dealPartsRoutes(),
      "GET /api/v1/admin/tables": { tables: ["users"] },
      "GET /api/v1/admin/stats": { stats: { users: 1, listings: 1, conversations: 0, messages: 0, user_growth: [], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } },
      "GET /api/v1/admin/audit": { audit: [] },
      "GET /api/v1/admin/reports": { reports: [report()], pagination: { next_token: null, has_more: false } },
      "POST /api/v1/admin/reports/r1/resolve": { success: true, report: report({ status: "resolved", resolution: "suspend_user" }) },
    });
    adminSession.set("admin-token");
    const user = userEvent.setup();
    renderApp("/staff");
    await user.click(await screen.findByRole("tab", { name: "Reports" }));
    const card = await screen.findByRole("listitem", { name: "Report: Scam or fraud" });
    expect(card).toHaveTextContent("Listing: Sunny room");
    expect(card).toHaveTextContent("Wants Zelle before a viewing");
    expect(card).toHaveTextContent("2 open reports about this listing");
    expect(within(card).getByRole("button", { name: "Hide listing" })).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Dismiss" })).toBeInTheDocument();

    await user.click(within(card).getByRole("button", { name: "Suspend user" }));
    const confirm = screen.getByRole("alertdialog", { name: "Suspend Jordan Kim?" });
    expect(callsOf(calls, "POST /api/v1/admin/reports/r1/resolve")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Suspend" }));
    await waitFor(() => expect(callsOf(calls, "POST /api/v1/admin/reports/r1/resolve")).toHaveLength(1));
    expect(callsOf(calls, "POST /api/v1/admin/reports/r1/resolve")[0]!.body).toEqual({ action: "suspend_user" });
    expect(await screen.findByText("User suspended.")).toBeInTheDocument();
  });
});

/** The staff Safety queue: a flagged conversation's participants open their user cards. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { SafetyQueueItem } from "@contract/safety";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { fakeApi, makeUser, openStaffPanel, staffPanelRoutes, staffPage } from "../render";

afterEach(() => adminSession.set(null));

describe("the Safety queue: a flagged conversation's participants", () => {
  const item: SafetyQueueItem = {
    conversation_id: "c9",
    flagged_at: "2026-11-20T15:05:00.000Z",
    participants: [
      { id: "u2", name: "Jordan Kim" },
      { id: "u3", name: "Sam Lee" },
    ],
    reasons: ["identity_request"],
    reason_labels: ["Asks for identity documents, ID numbers or bank login"],
    messages: [{ id: "m2", sender_id: "u2", text: "Send me a photo of your passport", timestamp: "2026-11-20T15:05:00.000Z", reasons: ["identity_request"], scored: false }],
    feedback: [],
  };

  it("each name is a button opening that user's card in Users, the search filled with their id and focused; the ids stay, secondary", async () => {
    fakeApi({
      ...staffPanelRoutes(),
      "GET /api/v1/admin/safety": { conversations: [item], pagination: { next_token: null, has_more: false } },
      // The server finds a user by id (the search the button fills in).
      "GET /api/v1/admin/users": (call: { url: string }) => {
        const everyone = [makeUser({ id: "u2", first_name: "Jordan", last_name: "Kim", email: "jordan@ufl.edu" }), makeUser({ id: "u3", first_name: "Sam", last_name: "Lee", email: "sam@ufl.edu" })];
        const q = new URL(call.url, "http://localhost").searchParams.get("q");
        return staffPage("users", q ? everyone.filter((u) => u.id === q) : everyone);
      },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Safety" }));
    const card = await screen.findByRole("listitem", { name: "Flagged conversation: Jordan Kim and Sam Lee" });
    const people = within(card).getByRole("list", { name: "Participants" });
    expect(within(people).getAllByRole("button").map((b) => b.textContent)).toEqual(["Jordan Kim", "Sam Lee"]);
    const ids = within(card).getByText(/^Participant ids:/);
    expect(ids).toHaveTextContent("Participant ids: u2, u3 · Conversation c9");
    expect(ids).toHaveClass("muted", "admin-safety-ids");
    expect(within(card).getByRole("button", { name: "Mark reviewed" })).toBeInTheDocument();

    await user.click(within(people).getByRole("button", { name: "Sam Lee: open their user card" }));
    expect(screen.getAllByRole("tab", { name: "Users", selected: true })).toHaveLength(2);
    const search = await screen.findByRole("searchbox", { name: "Search users" });
    expect(search).toHaveValue("u3");
    expect(search).toHaveFocus();
    expect(await screen.findByText("1 found")).toBeInTheDocument();
    expect(screen.getAllByRole("listitem")[0]).toHaveTextContent("Sam Lee");

    // Back to Safety: the other participant's button fills the search with their id instead.
    await user.click(screen.getByRole("tab", { name: "Safety" }));
    await user.click(await screen.findByRole("button", { name: "Jordan Kim: open their user card" }));
    await waitFor(() => expect(screen.getByRole("searchbox", { name: "Search users" })).toHaveValue("u2"));
    expect(screen.getByRole("searchbox", { name: "Search users" })).toHaveFocus();
  });

  it("a deleted account has no card: its name is plain text", async () => {
    fakeApi({
      ...staffPanelRoutes(),
      "GET /api/v1/admin/safety": {
        conversations: [{ ...item, participants: [item.participants[0], { id: "u3", name: "Deleted user" }] }],
        pagination: { next_token: null, has_more: false },
      },
    });
    const user = userEvent.setup();
    await openStaffPanel();
    await user.click(screen.getByRole("tab", { name: "Safety" }));
    const card = await screen.findByRole("listitem", { name: "Flagged conversation: Jordan Kim and Deleted user" });
    const people = within(card).getByRole("list", { name: "Participants" });
    expect(within(people).getAllByRole("button").map((b) => b.textContent)).toEqual(["Jordan Kim"]);
    expect(within(people).getByText("Deleted user")).toBeInTheDocument();
  });
});

/**
 * The staff panel after a newcomer's review walkthrough: a listing the public cannot see opens its details
 * in the panel (the public page says "Listing not found"), every photo is a link to the full image, and a
 * flagged conversation's participants open their user cards.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { AdminListing } from "@contract/admin";
import type { SafetyQueueItem } from "@contract/safety";
import { adminSession } from "../../web/features/admin/api/admin-api";
import { makeAdminListing as adminListing, makeUser, mockFetch, renderApp } from "./render";

const signedInRoutes = {
  "/api/v1/admin/tables": { tables: ["users"] },
  "/api/v1/admin/stats": { stats: { users: 1, listings: 1, conversations: 1, messages: 1, user_growth: [] } },
  "/api/v1/admin/audit": { audit: [] },
};

async function openPanelSignedIn() {
  adminSession.set("admin-token");
  const view = renderApp("/staff");
  await screen.findByRole("tab", { name: "Dashboard" });
  return view;
}

afterEach(() => adminSession.set(null));

const pictures = ["https://img.test/p1-a.jpg", "https://img.test/p1-b.jpg", "https://img.test/p1-c.jpg"];

describe("Listings > All: seeing a listing the public cannot see", () => {
  it("View on a pending, rejected, paused or hidden listing opens its details in the panel; an approved public one links to the public page", async () => {
    mockFetch({
      ...signedInRoutes,
      "/api/v1/admin/listings": {
        listings: [
          adminListing("a1"),
          adminListing("p1", { verification_status: "pending", pictures, thumbnails: pictures.map((p) => p.replace(".jpg", "-thumb.jpg")) }),
          adminListing("r1", { verification_status: "rejected", rejection_reason: "Blurry photos" }),
          adminListing("s1", { status: "paused" } as Partial<AdminListing>),
          adminListing("h1", { moderation_status: "hidden" }),
        ],
      },
    });
    const user = userEvent.setup();
    const { router } = await openPanelSignedIn();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    const tile = async (title: string) => (await screen.findByText(title)).closest("li")!;

    // Approved, available and visible: the public page, in a new tab, as before.
    const publicView = within(await tile("Room a1")).getByRole("link", { name: "View (opens in a new tab)" });
    expect(publicView).toHaveAttribute("href", expect.stringMatching(/\/listing\/a1/));
    expect(publicView).toHaveAttribute("target", "_blank");

    // Every other one: a button opening the details dialog, with no navigation.
    for (const id of ["r1", "s1", "h1"]) {
      expect(within(await tile(`Room ${id}`)).queryByRole("link", { name: /View/ })).toBeNull();
      expect(within(await tile(`Room ${id}`)).getByRole("button", { name: "View" })).toBeInTheDocument();
    }
    const before = router.state.location.pathname;
    await user.click(within(await tile("Room p1")).getByRole("button", { name: "View" }));
    const dialog = screen.getByRole("dialog", { name: "Room p1" });
    expect(router.state.location.pathname).toBe(before);
    expect(within(dialog).getByText("Status").nextElementSibling).toHaveTextContent(/^Pending review · Available$/);
    expect(within(dialog).getByText("Description").nextElementSibling).toHaveTextContent("A room");
    // Pending: the footer keeps Approve, Reject and Close; no public page to open.
    expect(within(dialog).getByRole("button", { name: "Approve" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Reject" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("link", { name: /Public page/ })).toBeNull();

    // Every photo, each a link to the full image in a new tab, named by its place.
    const photos = within(dialog).getByRole("region", { name: "Photos (3)" });
    const links = within(photos).getAllByRole("link");
    expect(links.map((a) => a.getAttribute("aria-label"))).toEqual([
      "Photo 1 of 3, opens in a new tab",
      "Photo 2 of 3, opens in a new tab",
      "Photo 3 of 3, opens in a new tab",
    ]);
    const second = within(photos).getByRole("link", { name: "Photo 2 of 3, opens in a new tab" });
    expect(second).toHaveAttribute("href", pictures[1]);
    expect(second).toHaveAttribute("target", "_blank");
    expect(second).toHaveAttribute("rel", expect.stringContaining("noopener"));
    expect(second.querySelector("img")).toHaveAttribute("src", "https://img.test/p1-b-thumb.jpg");

    await user.click(within(dialog).getAllByRole("button", { name: "Close" }).at(-1)!);
    expect(screen.queryByRole("dialog")).toBeNull();
    // Focus goes back to the View button that opened it.
    expect(within(await tile("Room p1")).getByRole("button", { name: "View" })).toHaveFocus();
  });

  it("each listing's title is a button opening the same details; an approved one's details link to its public page", async () => {
    mockFetch({
      ...signedInRoutes,
      "/api/v1/admin/listings": { listings: [adminListing("a1"), adminListing("r1", { verification_status: "rejected" })] },
    });
    const user = userEvent.setup();
    await openPanelSignedIn();
    await user.click(screen.getByRole("tab", { name: "Listings" }));

    await user.click(await screen.findByRole("button", { name: "Room a1" }));
    let dialog = screen.getByRole("dialog", { name: "Room a1" });
    expect(within(dialog).getByRole("region", { name: "Photos (0)" })).toHaveTextContent("No photos.");
    // Already approved: no Approve or Reject here (as on its card); its public page instead.
    expect(within(dialog).queryByRole("button", { name: "Approve" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Reject" })).toBeNull();
    expect(within(dialog).getByRole("link", { name: "Public page (opens in a new tab)" })).toHaveAttribute("href", expect.stringMatching(/\/listing\/a1/));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByRole("button", { name: "Room a1" })).toHaveFocus();

    // The keyboard opens it too.
    screen.getByRole("button", { name: "Room r1" }).focus();
    await user.keyboard("{Enter}");
    dialog = screen.getByRole("dialog", { name: "Room r1" });
    expect(within(dialog).getByText("Status").nextElementSibling).toHaveTextContent(/^Rejected/);
    expect(within(dialog).queryByRole("link", { name: /Public page/ })).toBeNull();
  });

  it("the Pending view's title button opens the details with Approve, which approves", async () => {
    const calls = mockFetch({
      ...signedInRoutes,
      "/api/v1/admin/listings/pending": { listings: [adminListing("p1", { verification_status: "pending" })] },
      "/api/v1/admin/listings/p1/verify": { success: true, changed: true, listing: adminListing("p1") },
    });
    const user = userEvent.setup();
    await openPanelSignedIn();
    await user.click(screen.getByRole("tab", { name: "Listings" }));
    await user.click(screen.getByRole("tab", { name: "Pending" }));
    await user.click(await screen.findByRole("button", { name: "Room p1" }));
    const dialog = screen.getByRole("dialog", { name: "Room p1" });
    await user.click(within(dialog).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Listing approved successfully!")).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes("/admin/listings/p1/verify") && c.init?.method === "PATCH")).toHaveLength(1);
  });
});

describe("Safety: a flagged conversation's participants", () => {
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
    mockFetch({
      ...signedInRoutes,
      "/api/v1/admin/safety": { conversations: [item], pagination: { next_token: null, has_more: false } },
      "/api/v1/admin/users": {
        users: [makeUser({ id: "u2", first_name: "Jordan", last_name: "Kim", email: "jordan@ufl.edu" }), makeUser({ id: "u3", first_name: "Sam", last_name: "Lee", email: "sam@ufl.edu" })],
      },
    });
    const user = userEvent.setup();
    await openPanelSignedIn();
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
    expect(await screen.findByText("1 of 2 users")).toBeInTheDocument();
    expect(screen.getAllByRole("listitem")[0]).toHaveTextContent("Sam Lee");

    // Back to Safety: the other participant's button fills the search with their id instead.
    await user.click(screen.getByRole("tab", { name: "Safety" }));
    await user.click(await screen.findByRole("button", { name: "Jordan Kim: open their user card" }));
    await waitFor(() => expect(screen.getByRole("searchbox", { name: "Search users" })).toHaveValue("u2"));
    expect(screen.getByRole("searchbox", { name: "Search users" })).toHaveFocus();
  });

  it("a deleted account has no card: its name is plain text", async () => {
    mockFetch({
      ...signedInRoutes,
      "/api/v1/admin/safety": {
        conversations: [{ ...item, participants: [item.participants[0], { id: "u3", name: "Deleted user" }] }],
        pagination: { next_token: null, has_more: false },
      },
    });
    const user = userEvent.setup();
    await openPanelSignedIn();
    await user.click(screen.getByRole("tab", { name: "Safety" }));
    const card = await screen.findByRole("listitem", { name: "Flagged conversation: Jordan Kim and Deleted user" });
    const people = within(card).getByRole("list", { name: "Participants" });
    expect(within(people).getAllByRole("button").map((b) => b.textContent)).toEqual(["Jordan Kim"]);
    expect(within(people).getByText("Deleted user")).toBeInTheDocument();
  });
});

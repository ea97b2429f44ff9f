/**
 * Scam shield in the SPA (docs/decisions/015): the notice under a flagged message (its recipient only), the tip at
 * the top of a conversation, the safety page and its links, and the staff Safety tab.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message } from "@contract/messages";
import { SAFETY_NOTICE, SAFETY_TIP, type SafetyQueueItem } from "@contract/safety";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { SCORED_NOTE } from "../../../web/features/admin/components/safety-tab";
import { callsOf, makeConversation, fakeApi, IdleWebSocket, makeUser, notFound, renderApp, reply, threadRoutes } from "../render";

const ME = "u1";
const API = "/api/v1/messages";


beforeEach(() => vi.stubGlobal("WebSocket", IdleWebSocket));
afterEach(() => {
  vi.unstubAllGlobals();
  adminSession.set(null);
});

const conversation = makeConversation({ latest_message_preview: "Can you send the deposit by Zelle before the viewing?" });
const msg = (id: string, overrides: Partial<Message>): Message => ({
  id,
  sender_id: "u2",
  text: `text ${id}`,
  timestamp: "2026-11-20T15:00:00.000Z",
  is_read: true,
  conversation_id: "c1",
  safety_notice: false,
  ...overrides,
});

describe("a conversation", () => {
  it("shows the safety tip on top and the notice under the other person's flagged message only", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: { data: [conversation], pagination: { next_token: null, has_more: false } },
      [`GET ${API}/conversations/with/u2`]: { data: conversation },
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`GET ${API}/unread-count`]: { data: { unread_count: 0 } },
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
      // Newest first: a flagged message from Jordan, a clean one, and one of mine (even if flagged, never noticed to me).
      [`GET ${API}/conversations/c1/messages`]: {
        messages: [
          msg("m3", { sender_id: ME, text: "Add me on WhatsApp", timestamp: "2026-11-20T15:06:00.000Z", safety_notice: true }),
          msg("m2", { text: "Can you send the deposit by Zelle before the viewing?", timestamp: "2026-11-20T15:05:00.000Z", safety_notice: true }),
          msg("m1", { text: "Hi! It is still available." }),
        ],
        pagination: { next_token: null, has_more: false },
      },
    });
    renderApp("/messages?userId=u2", { token: "t", user: makeUser({ id: ME }) });
    const log = await screen.findByRole("log", { name: "Messages with Jordan Kim" });
    await within(log).findByText("Can you send the deposit by Zelle before the viewing?");

    const notes = within(log).getAllByRole("note");
    expect(notes).toHaveLength(1);
    expect(notes[0]).toHaveTextContent(SAFETY_NOTICE);
    expect(within(notes[0]!).getByRole("link", { name: "How to spot a scam" })).toHaveAttribute("href", "/safety");
    // Under the flagged message, not under mine.
    const flaggedRow = within(log).getByText("Can you send the deposit by Zelle before the viewing?").closest(".bubble-row")!;
    expect(flaggedRow).toContainElement(notes[0]!);

    // The tip comes before the first message.
    const tip = within(log).getByText((_, el) => el?.tagName === "SPAN" && !!el.textContent?.startsWith(SAFETY_TIP));
    expect(tip.compareDocumentPosition(within(log).getByText("Hi! It is still available.")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(tip).getByRole("link", { name: "How to spot a scam" })).toHaveAttribute("href", "/safety");
  });
});

describe("the safety page", () => {
  it("explains the four patterns, why to stay on CampusNest and how to report; footer and support link to it", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), });
    renderApp("/safety");
    expect(await screen.findByRole("heading", { level: 1, name: "Stay safe" })).toBeInTheDocument();
    for (const name of ["How to spot a scam", "Keep talking and paying through CampusNest", "How to report"]) {
      expect(screen.getByRole("heading", { level: 2, name })).toBeInTheDocument();
    }
    for (const text of ["Payment off the platform.", "Money before a viewing.", "The owner is away and cannot show the place.", "Moving the talk elsewhere.", "Too good to be true."]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByText(/Report listing:/)).toBeInTheDocument();
    expect(screen.getByText(/Report user:/)).toBeInTheDocument();
    expect(screen.getByText(`${SAFETY_NOTICE}.`)).toBeInTheDocument();
    expect(within(screen.getByRole("navigation", { name: "Footer" })).getByRole("link", { name: "Safety" })).toHaveAttribute("href", "/safety");
  });

  it("is linked from the support page", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), });
    renderApp("/support");
    expect(await screen.findByRole("link", { name: /Read the full safety guide/ })).toHaveAttribute("href", "/safety");
  });
});

describe("the staff Safety tab", () => {
  const item: SafetyQueueItem = {
    conversation_id: "c9",
    flagged_at: "2026-11-20T15:05:00.000Z",
    participants: [
      { id: "u2", name: "Jordan Kim" },
      { id: "u3", name: "Sam Lee" },
    ],
    reasons: ["off_platform_payment", "pay_before_viewing"],
    reason_labels: ["Payment off the platform (wire, payment app, gift cards, crypto)", "Money before a viewing"],
    messages: [
      { id: "m2", sender_id: "u2", text: "Can you send the deposit by Zelle before the viewing?", timestamp: "2026-11-20T15:05:00.000Z", reasons: ["off_platform_payment", "pay_before_viewing"], scored: false },
      { id: "m3", sender_id: "u2", text: "the app with the purple Z works, my bank has it", timestamp: "2026-11-20T15:06:00.000Z", reasons: ["off_platform_payment"], scored: true },
    ],
    feedback: [],
  };

  it("lists flagged conversations with reasons and lines; Mark reviewed takes one out", async () => {
    let reviewed = false;
    const calls = fakeApi({ ...threadRoutes("l1", "u2"),
      "GET /api/v1/admin/tables": { tables: ["users"] },
      "GET /api/v1/admin/stats": { stats: { users: 1, listings: 1, conversations: 1, messages: 1, user_growth: [], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } },
      "GET /api/v1/admin/audit": { audit: [] },
      "GET /api/v1/admin/safety": () => ({ conversations: reviewed ? [] : [item], pagination: { next_token: null, has_more: false } }),
      "POST /api/v1/admin/safety/c9/review": () => {
        reviewed = true;
        return { success: true, changed: true };
      },
    });
    adminSession.set("admin-token");
    const user = userEvent.setup();
    renderApp("/staff");
    await user.click(await screen.findByRole("tab", { name: "Safety" }));
    const card = await screen.findByRole("listitem", { name: "Flagged conversation: Jordan Kim and Sam Lee" });
    expect(within(card).getByText("Money before a viewing")).toBeInTheDocument();
    expect(within(card).getByText("Payment off the platform (wire, payment app, gift cards, crypto)")).toBeInTheDocument();
    expect(within(card).getByText("Can you send the deposit by Zelle before the viewing?")).toBeInTheDocument();
    // A line only the scored model flagged says so (docs/decisions/015); a rule's flag does not.
    const lines = within(card).getAllByRole("listitem").filter((li) => li.closest("[aria-label='Flagged messages']"));
    expect(lines.map((li) => within(li).queryByText(SCORED_NOTE) !== null)).toEqual([false, true]);
    await user.click(within(card).getByRole("button", { name: "Mark reviewed" }));
    expect(await screen.findByText("No flagged conversations to review.")).toBeInTheDocument();
    await waitFor(() => expect(callsOf(calls, "POST /api/v1/admin/safety/c9/review")).toHaveLength(1));
  });

  it("shows the error with Retry when the queue cannot load", { timeout: 15_000 }, async () => {
    fakeApi({ ...threadRoutes("l1", "u2"),
      "GET /api/v1/admin/tables": { tables: ["users"] },
      "GET /api/v1/admin/stats": notFound,
      "GET /api/v1/admin/audit": notFound,
      "GET /api/v1/admin/safety": () => reply({ detail: "Server error. Please try again later." }, 500),
    });
    adminSession.set("admin-token");
    const user = userEvent.setup();
    renderApp("/staff");
    await user.click(await screen.findByRole("tab", { name: "Safety" }));
    const alert = (await screen.findByText(/Failed to fetch the safety queue/, {}, { timeout: 8000 })).closest("[role=alert]")!;
    expect(alert).toHaveTextContent("Server error. Please try again later.");
    expect(within(alert as HTMLElement).getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });
});

/**
 * The scam shield's notice in the SPA (decision 015): its wording per kind (and the payment one for a
 * message without a kind), "This is fine" (its accessible name and description, the message and kind it
 * names), the confirmation with Undo, the quieted notice, the safety page's sections and the staff tab's
 * feedback.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message } from "@contract/messages";
import { SAFETY_CONFIRMED_TEXTS, SAFETY_FEEDBACK_TEXTS, SAFETY_KINDS, SAFETY_NOTICES, type SafetyKind, type SafetyQueueItem } from "@contract/safety";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { callsOf, makeConversation, fakeApi, IdleWebSocket, makeUser, notFound, renderApp, threadRoutes } from "../render";

const ME = "u1";
const API = "/api/v1/messages";

beforeEach(() => vi.stubGlobal("WebSocket", IdleWebSocket));
afterEach(() => {
  vi.unstubAllGlobals();
  adminSession.set(null);
});

const conversation = makeConversation();
const msg = (id: string, minute: number, overrides: Partial<Message> = {}): Message => ({
  id,
  sender_id: "u2",
  text: `text ${id}`,
  timestamp: `2026-11-20T15:${String(minute).padStart(2, "0")}:00.000Z`,
  is_read: true,
  conversation_id: "c1",
  safety_notice: false,
  safety_kind: null,
  ...overrides,
});
const flagged = (id: string, minute: number, kind: SafetyKind) => msg(id, minute, { safety_notice: true, safety_kind: kind });

function thread(messages: () => Message[], extra: Record<string, unknown> = {}) {
  return fakeApi({ ...threadRoutes("l1", "u2"),
    [`GET ${API}/conversations/enriched`]: { data: [conversation], pagination: { next_token: null, has_more: false } },
    [`GET ${API}/conversations/with/u2`]: { data: conversation },
    [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
    [`GET ${API}/unread-count`]: { data: { unread_count: 0 } },
    [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
    [`GET ${API}/conversations/c1`]: notFound,
    // Newest first.
    [`GET ${API}/conversations/c1/messages`]: () => ({ messages: [...messages()].reverse(), pagination: { next_token: null, has_more: false } }),
    ...extra,
  });
}
const openThread = async () => {
  renderApp("/messages?userId=u2", { token: "t", user: makeUser({ id: ME }) });
  const log = await screen.findByRole("log", { name: "Messages with Jordan Kim" });
  await within(log).findByText("text m1");
  return log;
};
const rowOf = (log: HTMLElement, text: string) => within(log).getByText(text).closest(".bubble-row") as HTMLElement;
const sentence = (t: string) => (t.endsWith(".") ? t : `${t}.`);

describe("the notice per kind", () => {
  it("says each kind's text with the link to /safety; a flagged message without a kind shows the payment text; mine shows none", async () => {
    const all = [
      ...SAFETY_KINDS.map((kind, i) => flagged(`m${i + 1}`, i + 1, kind)),
      msg("old", 10, { safety_notice: true, safety_kind: undefined }),
      msg("mine", 11, { sender_id: ME, safety_notice: true, safety_kind: "identity" }),
      msg("clean", 12),
    ];
    thread(() => all);
    const log = await openThread();
    expect(within(log).getAllByRole("note")).toHaveLength(SAFETY_KINDS.length + 1);
    SAFETY_KINDS.forEach((kind, i) => {
      const note = within(rowOf(log, `text m${i + 1}`)).getByRole("note");
      expect(note).toHaveTextContent(sentence(SAFETY_NOTICES[kind]));
      expect(within(note).getByRole("link", { name: "How to spot a scam" })).toHaveAttribute("href", "/safety");
    });
    expect(within(rowOf(log, "text m1")).getByRole("note")).toHaveTextContent(
      "Never send your ID, Social Security number or bank login to someone you have not signed a lease with. Identity theft often follows rental scams.",
    );
    expect(within(rowOf(log, "text old")).getByRole("note")).toHaveTextContent("Never pay before you have seen the place and signed a lease.");
    expect(within(rowOf(log, "text mine")).queryByRole("note")).toBeNull();
    expect(within(rowOf(log, "text clean")).queryByRole("note")).toBeNull();
  });
});

describe("a payment notice points inside (docs/decisions/030)", () => {
  it("adds 'Pay through CampusNest' with the deal's next step: the listing's request, or the deal's page", async () => {
    const steps: [string, Message["safety_pay_inside"], string, string][] = [
      ["m1", { step: "request", deal_id: null, listing_id: "l1" }, "Request to sublease", "/listing/l1"],
      ["m2", { step: "wait", deal_id: "d1", listing_id: "l1" }, "See your request", "/deals/d1"],
      ["m3", { step: "sign", deal_id: "d1", listing_id: "l1" }, "Sign the agreement", "/deals/d1"],
      ["m4", { step: "pay", deal_id: "d1", listing_id: "l1" }, "Pay the first month", "/deals/d1"],
    ];
    thread(() => [
      ...steps.map(([id, step], i) => msg(id, i + 1, { safety_notice: true, safety_kind: "payment", safety_pay_inside: step })),
      msg("m5", 5, { safety_notice: true, safety_kind: "payment", safety_pay_inside: null }),
      msg("m6", 6, { safety_notice: true, safety_kind: "keys", safety_pay_inside: { step: "pay", deal_id: "d1", listing_id: "l1" } }),
    ]);
    const log = await openThread();
    for (const [id, , name, href] of steps) {
      const note = within(rowOf(log, `text ${id}`)).getByRole("note");
      expect(note).toHaveTextContent("Pay through CampusNest: your first month is held until you move in.");
      expect(within(note).getByRole("link", { name })).toHaveAttribute("href", href);
    }
    // No step (the first month is paid here, or the reader lists the place): the notice alone.
    expect(within(rowOf(log, "text m5")).getByRole("note")).not.toHaveTextContent("Pay through CampusNest");
    // Another kind never carries it; the move-in notice says what the button does.
    const keys = within(rowOf(log, "text m6")).getByRole("note");
    expect(keys).not.toHaveTextContent("Pay through CampusNest");
    expect(keys).toHaveTextContent(SAFETY_NOTICES.keys);
  });
});

describe("This is fine", () => {
  it("is a button named for what it does and described by the notice", async () => {
    thread(() => [flagged("m1", 1, "link")]);
    const log = await openThread();
    const button = within(rowOf(log, "text m1")).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel });
    expect(button).toHaveTextContent("This is fine");
    expect(button).toHaveAccessibleDescription(SAFETY_NOTICES.link);
  });

  it("names the message and the kind; that notice goes, the server's view of the others follows, the thanks shows with Undo, which brings it back", async () => {
    // The server covers m1 and m3 (the same sender's same pattern) and not m4 (a new pattern of the kind).
    let quieted = false;
    const current = () => [
      quieted ? msg("m1", 1) : flagged("m1", 1, "payment"),
      flagged("m2", 2, "contact"),
      quieted ? msg("m3", 3) : flagged("m3", 3, "payment"),
      flagged("m4", 4, "payment"),
    ];
    const calls = thread(current, {
      [`POST ${API}/conversations/c1/safety-feedback`]: () => {
        quieted = true;
        return { success: true, kind: "payment", message_id: "m1", quieted: true, changed: true };
      },
      [`DELETE ${API}/conversations/c1/safety-feedback/m1/payment`]: () => {
        quieted = false;
        return { success: true, kind: "payment", message_id: "m1", quieted: false, changed: true };
      },
    });
    const user = userEvent.setup();
    const log = await openThread();
    expect(within(log).getAllByRole("note")).toHaveLength(4);

    await user.click(within(rowOf(log, "text m1")).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
    const status = await within(rowOf(log, "text m1")).findByRole("status");
    expect(status).toHaveTextContent("Thanks. We won't warn you about payment requests like this one from this person again.");
    expect(callsOf(calls, `POST ${API}/conversations/c1/safety-feedback`)[0]!.body).toEqual({ kind: "payment", message_id: "m1" });
    // m1's notice went, then m3's as the thread was read again; the contact one and the new pattern stay.
    await waitFor(() => expect(within(log).getAllByRole("note")).toHaveLength(2));
    expect(within(rowOf(log, "text m2")).getByRole("note")).toHaveTextContent(SAFETY_NOTICES.contact);
    expect(within(rowOf(log, "text m3")).queryByRole("note")).toBeNull();
    expect(within(rowOf(log, "text m4")).getByRole("note")).toHaveTextContent(sentence(SAFETY_NOTICES.payment));
    // Undo has the focus the pressed button had.
    const undo = within(status).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.undoLabel });
    expect(undo).toHaveFocus();

    await user.click(undo);
    await waitFor(() => expect(within(log).getAllByRole("note")).toHaveLength(4));
    expect(within(log).queryByRole("status")).toBeNull();
    expect(callsOf(calls, `DELETE ${API}/conversations/c1/safety-feedback/m1/payment`)).toHaveLength(1);
    // The focus goes back to the notice's button.
    await waitFor(() => expect(within(rowOf(log, "text m1")).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel })).toHaveFocus());
  });

  it("drops only the notice it was pressed under until the thread is read again", async () => {
    let posted = false;
    let release: () => void = () => {};
    const refetched = new Promise<void>((resolve) => (release = resolve));
    thread(() => [], {
      // Newest first; the read after the POST waits, so the screen shows what the click alone did.
      [`GET ${API}/conversations/c1/messages`]: async () => {
        if (posted) await refetched;
        return { messages: [flagged("m2", 2, "payment"), flagged("m1", 1, "payment")], pagination: { next_token: null, has_more: false } };
      },
      [`POST ${API}/conversations/c1/safety-feedback`]: () => {
        posted = true;
        return { success: true, kind: "payment", message_id: "m2", quieted: true, changed: true };
      },
    });
    const user = userEvent.setup();
    const log = await openThread();
    await user.click(within(rowOf(log, "text m2")).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
    await within(rowOf(log, "text m2")).findByRole("status");
    expect(within(rowOf(log, "text m2")).queryByRole("note")).toBeNull();
    // The other payment notice is the server's to quiet (the same pattern or not): it stays meanwhile.
    expect(within(rowOf(log, "text m1")).getByRole("note")).toHaveTextContent(sentence(SAFETY_NOTICES.payment));
    release();
  });

  it("thanks by naming the kind it quieted, one noun phrase per kind", async () => {
    expect(SAFETY_CONFIRMED_TEXTS).toEqual({
      identity: "Thanks. We won't warn you about ID requests like this one from this person again.",
      link: "Thanks. We won't warn you about links to other sites like this one from this person again.",
      keys: "Thanks. We won't warn you about requests to confirm your move-in like this one from this person again.",
      payment: "Thanks. We won't warn you about payment requests like this one from this person again.",
      away: "Thanks. We won't warn you about owners who cannot show the place like this one from this person again.",
      contact: "Thanks. We won't warn you about moving the chat off CampusNest like this one from this person again.",
    });
    const quieted = new Set<SafetyKind>();
    thread(() => SAFETY_KINDS.map((kind, i) => (quieted.has(kind) ? msg(`m${i + 1}`, i + 1) : flagged(`m${i + 1}`, i + 1, kind))), {
      [`POST ${API}/conversations/c1/safety-feedback`]: ({ body }: { body: { kind: SafetyKind; message_id: string } }) => {
        expect(body.message_id).toBe(`m${SAFETY_KINDS.indexOf(body.kind) + 1}`);
        quieted.add(body.kind);
        return { success: true, kind: body.kind, message_id: body.message_id, quieted: true, changed: true };
      },
    });
    const user = userEvent.setup();
    const log = await openThread();
    for (const [i, kind] of SAFETY_KINDS.entries()) {
      const row = rowOf(log, `text m${i + 1}`);
      await user.click(within(row).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
      const status = await within(row).findByRole("status");
      expect(status).toHaveTextContent(`${SAFETY_CONFIRMED_TEXTS[kind]} Undo`);
      await waitFor(() => expect(within(row).queryByRole("note")).toBeNull());
    }
  });

  it("under a message asking for ID and a deposit: the thanks names ID requests, and the payment notice that stays says its own thing", async () => {
    let identityQuieted = false;
    thread(() => [flagged("m1", 1, identityQuieted ? "payment" : "identity")], {
      [`POST ${API}/conversations/c1/safety-feedback`]: () => {
        identityQuieted = true;
        return { success: true, kind: "identity", message_id: "m1", quieted: true, changed: true };
      },
    });
    const user = userEvent.setup();
    const log = await openThread();
    const row = rowOf(log, "text m1");
    expect(within(row).getByRole("note")).toHaveTextContent(SAFETY_NOTICES.identity);
    await user.click(within(row).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
    expect(await within(row).findByRole("status")).toHaveTextContent("Thanks. We won't warn you about ID requests like this one from this person again. Undo");
    expect(await within(row).findByRole("note")).toHaveTextContent(sentence(SAFETY_NOTICES.payment));
    expect(within(row).getByRole("status")).not.toHaveTextContent("about this again");
  });

  it("says so when it could not be saved, and keeps the notice", async () => {
    thread(() => [flagged("m1", 1, "identity")], {
      [`POST ${API}/conversations/c1/safety-feedback`]: () => new Response(JSON.stringify({ detail: "Server error. Please try again later." }), { status: 500 }),
    });
    const user = userEvent.setup();
    const log = await openThread();
    await user.click(within(rowOf(log, "text m1")).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
    expect(await within(rowOf(log, "text m1")).findByRole("alert", {}, { timeout: 8000 })).toHaveTextContent(SAFETY_FEEDBACK_TEXTS.failed);
    expect(within(rowOf(log, "text m1")).getByRole("note")).toHaveTextContent(SAFETY_NOTICES.identity);
  }, 15_000);
});

describe("the safety page", () => {
  it("has sections on identity theft and on links, saying what CampusNest never asks for", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound });
    renderApp("/safety");
    expect(await screen.findByRole("heading", { level: 2, name: "Protect your identity" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "Links to pay, book or sign in" })).toBeInTheDocument();
    expect(screen.getByText("CampusNest never asks for your ID in a message.")).toBeInTheDocument();
    expect(screen.getByText("CampusNest never sends you a link to pay.")).toBeInTheDocument();
  });
});

describe("the staff Safety tab", () => {
  it("shows the recipients' feedback next to the reasons", async () => {
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
      feedback: [{ user_id: "u3", name: "Sam Lee", message_id: "m2", kind: "identity", kind_label: "Identity documents or numbers", created_at: "2026-11-20T15:10:00.000Z" }],
    };
    fakeApi({ ...threadRoutes("l1", "u2"),
      "GET /api/v1/admin/tables": { tables: ["users"] },
      "GET /api/v1/admin/stats": { stats: { users: 1, listings: 1, conversations: 1, messages: 1, user_growth: [], queues: { pending_ids: 0, pending_listings: 0, open_reports: 0, safety_flags: 0 } } },
      "GET /api/v1/admin/audit": { audit: [] },
      "GET /api/v1/admin/safety": { conversations: [item], pagination: { next_token: null, has_more: false } },
    });
    adminSession.set("admin-token");
    const user = userEvent.setup();
    renderApp("/staff");
    await user.click(await screen.findByRole("tab", { name: "Safety" }));
    const card = await screen.findByRole("listitem", { name: "Flagged conversation: Jordan Kim and Sam Lee" });
    expect(within(card).getByText("Asks for identity documents, ID numbers or bank login")).toBeInTheDocument();
    const feedback = within(card).getByRole("list", { name: "Recipients' feedback" });
    expect(feedback).toHaveTextContent("Sam Lee said “This is fine” about the notice for: Identity documents or numbers");
    expect(within(feedback).getByText((_, el) => el?.tagName === "TIME")).toHaveAttribute("dateTime", "2026-11-20T15:10:00.000Z");
    expect(within(card).getByRole("button", { name: "Mark reviewed" })).toBeInTheDocument();
  });
});

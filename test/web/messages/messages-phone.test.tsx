/**
 * An open conversation on a phone: the pane that fills the screen under the navbar (styles.css block
 * "messages: phone pane", which targets the classes checked here; jsdom reads no CSS, so its heights
 * were measured in Chromium at 360x740), and the log kept at its newest
 * message when a notice under it appears, changes or gives way to the thanks.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message } from "@contract/messages";
import { SAFETY_CONFIRMED_TEXTS, SAFETY_FEEDBACK_TEXTS, SAFETY_NOTICES, type SafetyKind } from "@contract/safety";
import { makeConversation, fakeApi, IdleWebSocket, makeUser, renderApp, threadRoutes } from "../render";

const ME = "u1";
const API = "/api/v1/messages";

beforeEach(() => vi.stubGlobal("WebSocket", IdleWebSocket));
afterEach(() => vi.unstubAllGlobals());

const conversation = makeConversation();
const msg = (id: string, minute: number, kind: SafetyKind | null = null): Message => ({
  id,
  sender_id: "u2",
  text: `text ${id}`,
  timestamp: `2026-11-20T15:${String(minute).padStart(2, "0")}:00.000Z`,
  is_read: true,
  conversation_id: "c1",
  safety_notice: kind !== null,
  safety_kind: kind,
});

function thread(messages: () => Message[], extra: Record<string, unknown> = {}) {
  return fakeApi({ ...threadRoutes("l1", "u2"),
    [`GET ${API}/conversations/enriched`]: { data: [conversation], pagination: { next_token: null, has_more: false } },
    [`GET ${API}/conversations/c1`]: { data: conversation, reply: "open" },
    [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
    [`GET ${API}/unread-count`]: { data: { unread_count: 0 } },
    [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
    [`GET ${API}/conversations/c1/messages`]: () => ({ messages: [...messages()].reverse(), pagination: { next_token: null, has_more: false } }),
    ...extra,
  });
}

const openThread = async () => {
  renderApp("/messages?conversation=c1", { token: "t", user: makeUser({ id: ME }) });
  const log = await screen.findByRole("log", { name: "Messages with Jordan Kim" });
  await within(log).findByText("text m1");
  return log;
};

/** jsdom lays nothing out: the log's scroll box, as tall as the elements in it (20 px each), seen through `client` px. */
function scrollBox(log: HTMLElement, client: number) {
  let top = 0;
  const height = () => log.querySelectorAll("*").length * 20;
  Object.defineProperty(log, "scrollHeight", { configurable: true, get: height });
  Object.defineProperty(log, "clientHeight", { configurable: true, get: () => client });
  Object.defineProperty(log, "scrollTop", { configurable: true, get: () => top, set: (v: number) => (top = Math.max(0, Math.min(v, height() - client))) });
  return { bottom: () => height() - client };
}

/**
 * An open thread whose newest message carries an identity notice; "This is fine" quiets it, and a
 * payment notice takes its place (with the thanks): the notice under the newest message changes height.
 */
async function threadWithQuietedNotice() {
  let identityQuieted = false;
  thread(() => [msg("m0", 0), msg("m1", 1, identityQuieted ? "payment" : "identity")], {
    [`POST ${API}/conversations/c1/safety-feedback`]: () => {
      identityQuieted = true;
      return { success: true, kind: "identity", quieted: true, changed: true };
    },
  });
  const user = userEvent.setup();
  return { user, log: await openThread() };
}

describe("an open conversation on a phone", () => {
  it("is the pane the phone styles fill the screen with: the page, the layout in its thread view, the pane, then the log and the composer", async () => {
    thread(() => [msg("m1", 1)]);
    const log = await openThread();
    const pane = log.closest(".messages-thread-pane") as HTMLElement;
    expect(pane).not.toBeNull();
    expect(pane.parentElement).toHaveClass("messages-layout", "messages-layout-thread");
    expect(pane.closest(".page")).not.toBeNull();
    const section = within(pane).getByRole("region", { name: "Jordan Kim" });
    expect(section).toHaveClass("thread");
    // The log scrolls; the composer comes after it, at the foot of the pane.
    expect(log).toHaveClass("thread-log");
    const composer = within(section).getByRole("textbox", { name: "Message to Jordan Kim" }).closest("form")!;
    expect(composer).toHaveClass("composer");
    expect(log.compareDocumentPosition(composer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("keeps the newest message's notice in view when it gives way to the thanks and another kind's notice", async () => {
    const { user, log } = await threadWithQuietedNotice();
    const box = scrollBox(log, 200);
    log.scrollTop = box.bottom();
    fireEvent.scroll(log);
    const before = box.bottom();

    // The thanks and then the payment notice make the log taller: it follows them to the bottom.
    await user.click(within(log).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
    const row = within(log).getByText("text m1").closest(".bubble-row") as HTMLElement;
    expect(await within(row).findByRole("status")).toHaveTextContent(SAFETY_CONFIRMED_TEXTS.identity);
    expect(await within(row).findByRole("note")).toHaveTextContent(SAFETY_NOTICES.payment);
    expect(box.bottom()).toBeGreaterThan(before);
    await waitFor(() => expect(log.scrollTop).toBe(box.bottom()));
  });

  it("leaves a reader who scrolled up where they are when a notice changes", async () => {
    const { user, log } = await threadWithQuietedNotice();
    scrollBox(log, 200);
    // The reader's own scroll: a wheel (or a finger) moves the log.
    fireEvent.wheel(log, { deltaY: -400 });
    log.scrollTop = 20;
    fireEvent.scroll(log);

    await user.click(within(log).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
    expect(await within(log).findByRole("note")).toHaveTextContent(SAFETY_NOTICES.payment);
    expect(log.scrollTop).toBe(20);
  });

  it("stays at the newest message through a scroll the reader did not make (the browser's scroll anchoring as a card above grows)", async () => {
    const { user, log } = await threadWithQuietedNotice();
    const box = scrollBox(log, 200);
    log.scrollTop = box.bottom();
    // No wheel, touch or key: the browser moved the log, far from its end.
    log.scrollTop = 20;
    fireEvent.scroll(log);

    await user.click(within(log).getByRole("button", { name: SAFETY_FEEDBACK_TEXTS.buttonLabel }));
    expect(await within(log).findByRole("note")).toHaveTextContent(SAFETY_NOTICES.payment);
    await waitFor(() => expect(log.scrollTop).toBe(box.bottom()));
  });
});

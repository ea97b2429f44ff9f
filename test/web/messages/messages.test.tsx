import { act, cleanup, fireEvent, renderHook, screen, waitFor, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Conversation, Message } from "@contract/messages";
import { paths } from "../../../web/config/paths";
import { applyMessageToList, listConversations, mergeMessages, type ConversationListData } from "../../../web/features/messages/lib/thread";
import { createUnreadLedger, EXPECTATION_TTL_MS } from "../../../web/features/messages/lib/unread-ledger";
import { POLL_INTERVALS, pollInterval } from "../../../web/lib/activity";
import { AUTH_CLOSE_CODES, connectParty, MAX_FAILED_CONNECTS, parseServerEvent, reconnectDelays, STABLE_OPEN_MS } from "../../../web/lib/party-connection";
import { CLOSE_CODES } from "@party/protocol";
import { createQueryClient } from "../../../web/app/providers";
import { useUnreadCount } from "../../../web/lib/unread";
import { type ApiCall, callsOf, fakeApi, makeOwnerListing, makeUser, notFound, renderApp, threadRoutes } from "../render";

const ME = "u1";
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function conv(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: "c1",
    participant_id: "u2",
    participant_name: "Jordan Kim",
    participant_avatar: null,
    latest_message_preview: "See you then",
    last_message_timestamp: "2026-11-20T15:00:00.000Z",
    updated_at: "2026-11-20T15:00:00.000Z",
    unread_count: 0,
    listing_id: "l1",
    listing_title: "Sunny 2x2 near campus",
    listing_photo: null,
    ...overrides,
  };
}

function msg(id: string, overrides: Partial<Message> = {}): Message {
  return { id, sender_id: "u2", text: `text ${id}`, timestamp: "2026-11-20T15:00:00.000Z", is_read: true, conversation_id: "c1", safety_notice: false, ...overrides };
}

const page = (messages: Message[]) => ({ messages, pagination: { next_token: null, has_more: false } });
const convPage = (data: Conversation[]) => ({ data, pagination: { next_token: null, has_more: false } });


const API = "/api/v1/messages";
const signedIn = () => ({ token: "t", user: makeUser({ id: ME }) });

/** Records the Idempotency-Key of every send through the fake API installed by fakeApi (call it after). */
function recordIdempotencyKeys(): (string | null)[] {
  const keys: (string | null)[] = [];
  const inner = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith("/send")) keys.push(new Headers(init?.headers).get("Idempotency-Key"));
    return inner(input, init);
  }) as typeof fetch;
  return keys;
}

/** A WebSocket double: records instances; the test opens, closes and speaks for the server. */
class FakeWebSocket extends EventTarget {
  static instances: FakeWebSocket[] = [];
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  readyState = 0;
  binaryType = "blob";
  sent: string[] = [];
  constructor(readonly url: string) {
    super();
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1000, reason = "") {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason, wasClean: true }));
  }
  serverOpen() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }
  serverSend(data: unknown) {
    this.dispatchEvent(new MessageEvent("message", { data: typeof data === "string" ? data : JSON.stringify(data) }));
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason: "", wasClean: false }));
  }
}

beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("polling interval", () => {
  it("is off while the socket is open, and the spec's interval (longer when idle) while it is not", () => {
    expect(pollInterval("conversations", { connected: true, idle: false })).toBe(false);
    expect(pollInterval("conversation", { connected: true, idle: true })).toBe(false);
    expect(pollInterval("conversations", { connected: false, idle: false })).toBe(30_000);
    expect(pollInterval("conversations", { connected: false, idle: true })).toBe(60_000);
    expect(pollInterval("conversation", { connected: false, idle: false })).toBe(15_000);
    expect(pollInterval("conversation", { connected: false, idle: true })).toBe(30_000);
    expect(pollInterval("unread", { connected: false, idle: false })).toBe(30_000);
    expect(POLL_INTERVALS.unread.idle).toBe(30_000);
  });
});

describe("merge by id", () => {
  it("keeps a message that arrived by socket and again by poll once, oldest first", () => {
    const a = msg("a", { timestamp: "2026-11-20T15:00:00.000Z" });
    const b = msg("b", { timestamp: "2026-11-20T15:01:00.000Z", is_read: false });
    const merged = mergeMessages([b, a], [{ ...b, is_read: true }]);
    expect(merged.map((m) => m.id)).toEqual(["a", "b"]);
    expect(merged[1]!.is_read).toBe(true);
  });
});

describe("party socket", () => {
  it("randomizes the reconnect delays per client", () => {
    expect(reconnectDelays(() => 0)).toEqual({ minReconnectionDelay: 1000, maxReconnectionDelay: 20_000, reconnectionDelayGrowFactor: 1.5 });
    expect(reconnectDelays(() => 1)).toEqual({ minReconnectionDelay: 3000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 1.5 });
    expect(reconnectDelays(() => 0.5).minReconnectionDelay).toBe(2000);
  });

  it("ignores what is not a server event", () => {
    expect(parseServerEvent("not json")).toBeNull();
    expect(parseServerEvent(JSON.stringify({ type: "nope" }))).toBeNull();
    expect(parseServerEvent(JSON.stringify({ type: "unread", unread_count: -1 }))).toBeNull();
    expect(parseServerEvent(JSON.stringify({ type: "unread", unread_count: 4 }))).toEqual({ type: "unread", unread_count: 4 });
  });

  it("connects with a fresh ticket each time, reports the state, and stops after an auth close", async () => {
    // A moved clock, not a slept one: the stable-open and reconnect delays are seconds long.
    vi.useFakeTimers();
    let n = 0;
    const getTicket = vi.fn(async () => `ticket-${++n}`);
    const events: unknown[] = [];
    const status: boolean[] = [];
    const disconnect = connectParty({ party: "conversation", room: "c1", onEvent: (e) => events.push(e), onStatus: (s) => status.push(s), getTicket, WebSocket: FakeWebSocket as unknown as typeof WebSocket, random: () => 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeWebSocket.instances).toHaveLength(1);
    const first = FakeWebSocket.instances[0]!;
    expect(first.url).toMatch(/\/parties\/conversation\/c1\?/);
    expect(new URL(first.url).searchParams.get("token")).toBe("ticket-1");
    first.serverOpen();
    first.serverSend({ type: "unread", unread_count: 2 });
    first.serverSend("garbage");
    expect(events).toEqual([{ type: "unread", unread_count: 2 }]);
    // Connected once it has stayed open for a moment.
    expect(status).toEqual([]);
    await vi.advanceTimersByTimeAsync(STABLE_OPEN_MS);
    expect(status).toEqual([true]);

    // A dropped connection reconnects (after 1-3 s) with a new ticket.
    first.serverClose(1006);
    expect(status).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    const second = FakeWebSocket.instances[1]!;
    expect(new URL(second.url).searchParams.get("token")).toBe("ticket-2");

    // A refusal is final.
    second.serverClose(4001);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(getTicket).toHaveBeenCalledTimes(2);
    expect(AUTH_CLOSE_CODES.has(1008)).toBe(true);
    disconnect();
  });

  it("closed as the user's oldest of too many sockets (4429): polls, and reconnects only when the tab is looked at again", async () => {
    vi.useFakeTimers();
    let n = 0;
    const status: boolean[] = [];
    const disconnect = connectParty({ party: "inbox", room: ME, onEvent: () => {}, onStatus: (s) => status.push(s), getTicket: async () => `t${++n}`, WebSocket: FakeWebSocket as unknown as typeof WebSocket, random: () => 0 });
    await vi.advanceTimersByTimeAsync(0);
    FakeWebSocket.instances[0]!.serverOpen();
    await vi.advanceTimersByTimeAsync(STABLE_OPEN_MS);
    FakeWebSocket.instances[0]!.serverClose(CLOSE_CODES.tooManySockets);
    await vi.advanceTimersByTimeAsync(120_000);
    // No fight with the user's newer tabs: this one stays closed (its caller polls meanwhile).
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(status).toEqual([true, false]);
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(6000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(new URL(FakeWebSocket.instances[1]!.url).searchParams.get("token")).toBe("t2");
    disconnect();
  });

  it("gives up after the upgrade fails repeatedly, and when the ticket is refused", async () => {
    vi.useFakeTimers();
    const disconnect = connectParty({ party: "inbox", room: ME, onEvent: () => {}, onStatus: () => {}, getTicket: async () => "t", WebSocket: FakeWebSocket as unknown as typeof WebSocket, random: () => 0 });
    for (let i = 0; i < MAX_FAILED_CONNECTS + 3; i++) {
      await vi.advanceTimersByTimeAsync(35_000);
      FakeWebSocket.instances.at(-1)?.serverClose(1006);
    }
    expect(FakeWebSocket.instances).toHaveLength(MAX_FAILED_CONNECTS);
    disconnect();

    FakeWebSocket.instances = [];
    const refused = vi.fn(async () => {
      throw new (await import("../../../web/lib/api-client")).ApiError(401, "Not authenticated");
    });
    const stop = connectParty({ party: "inbox", room: ME, onEvent: () => {}, onStatus: () => {}, getTicket: refused, WebSocket: FakeWebSocket as unknown as typeof WebSocket, random: () => 0 });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(refused).toHaveBeenCalledTimes(1);
    expect(FakeWebSocket.instances).toHaveLength(0);
    stop();
  });
});

describe("unread badge", () => {
  it("shows the count from unread-count", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/unread-count`]: { data: { unread_count: 7 } } });
    renderApp("/support", signedIn());
    expect(await screen.findByText("7 unread messages")).toBeInTheDocument();
  });

  it("is 0 when the fetch fails, also after a count was shown", async () => {
    let fail = false;
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/unread-count`]: () => (fail ? json({ detail: "boom" }, 500) : { data: { unread_count: 7 } }) });
    const queryClient = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useUnreadCount(ME), { wrapper });
    await waitFor(() => expect(result.current).toBe(7));
    fail = true;
    await act(() => queryClient.refetchQueries());
    await waitFor(() => expect(result.current).toBe(0));
    expect(callsOf(calls, `GET ${API}/unread-count`)).toHaveLength(2);

    renderApp("/support", signedIn());
    await waitFor(() => expect(callsOf(calls, `GET ${API}/unread-count`)).toHaveLength(3));
    expect(screen.queryByText(/unread messages/)).toBeNull();
  });

  it("follows the inbox room's unread events", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/unread-count`]: { data: { unread_count: 1 } }, [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } } });
    renderApp("/support", signedIn());
    expect(await screen.findByText("1 unread messages")).toBeInTheDocument();
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes(`/parties/inbox/${ME}?`))).toBe(true));
    const inbox = FakeWebSocket.instances.find((s) => s.url.includes("/parties/inbox/"))!;
    act(() => {
      inbox.serverOpen();
      inbox.serverSend({ type: "unread", unread_count: 120 });
    });
    expect(await screen.findByText("99+ unread messages")).toBeInTheDocument();
  });
});

describe("messages page", () => {
  it("lists conversations; opening one loads the thread and marks it read (list count and badge reset)", async () => {
    let unread = 3;
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/unread-count`]: () => ({ data: { unread_count: unread } }),
      [`GET ${API}/conversations/enriched`]: convPage([conv({ unread_count: 3, latest_message_preview: "Is it still available?" }), conv({ id: "c2", participant_id: "u3", participant_name: "Sam Lee", listing_title: "Studio downtown" })]),
      [`GET ${API}/conversations/c1/messages`]: page([msg("m2", { text: "Is it still available?", is_read: false, timestamp: "2026-11-20T15:05:00.000Z" }), msg("m1", { sender_id: ME, text: "Hi there" })]),
      [`POST ${API}/conversations/c1/read`]: () => {
        unread = 0;
        return { unread_count: 0 };
      },
    });
    const user = userEvent.setup();
    renderApp("/messages", signedIn());
    // The first render of /messages in this file loads the page's chunk: slow on a busy machine.
    const list = await screen.findByRole("list", {});
    const first = within(list).getByRole("button", { name: /Jordan Kim/ });
    expect(first).toHaveTextContent("Sunny 2x2 near campus");
    expect(first).toHaveTextContent("Is it still available?");
    expect(first).toHaveTextContent("3 unread");
    expect(within(list).getByRole("button", { name: /Sam Lee/ })).toBeInTheDocument();
    expect(await screen.findByText("3 unread messages")).toBeInTheDocument();

    await user.click(first);
    const log = await screen.findByRole("log", { name: "Messages with Jordan Kim" });
    expect(log).toHaveAttribute("aria-live", "polite");
    expect(await within(log).findByText("Hi there")).toBeInTheDocument();
    await waitFor(() => expect(callsOf(calls, `POST ${API}/conversations/c1/read`)).toHaveLength(1));
    await waitFor(() => expect(within(list).getByRole("button", { name: /Jordan Kim/ })).not.toHaveTextContent("3 unread"));
    await waitFor(() => expect(screen.queryByText(/unread messages/)).toBeNull());
    const thread = screen.getByRole("region", { name: "Jordan Kim" });
    expect(within(thread).getByRole("link", { name: /Sunny 2x2 near campus/ })).toHaveAttribute("href", expect.stringMatching(/^\/listing\/l1/));
  });

  it("shows the empty state with Browse Listings, and the error state with Try again", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/conversations/enriched`]: convPage([]) });
    renderApp("/messages", signedIn());
    expect(await screen.findByText("No conversations yet")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse Listings" })).toHaveAttribute("href", "/");
  });

  it("says 'Failed to load conversations' and retries", async () => {
    let fail = true;
    fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/conversations/enriched`]: () => (fail ? json({ detail: "no" }, 404) : convPage([conv()])) });
    const user = userEvent.setup();
    renderApp("/messages", signedIn());
    expect(await screen.findByText("Failed to load conversations")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("button", { name: /Jordan Kim/ })).toBeInTheDocument();
  });

  it("a conversation that is gone (404) says so, offers no composer and is not polled or retried", async () => {
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound, "GET /api/v1/messages/conversations/c1/messages": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
    });
    renderApp("/messages?conversation=c1", signedIn());
    await screen.findByText("This conversation is no longer available.");
    expect(screen.queryByRole("textbox", { name: /Message to/ })).toBeNull();
    const threadCalls = callsOf(calls, `GET ${API}/conversations/c1/messages`).length;
    expect(threadCalls).toBe(1);
    // The inbox room (the badge) opens; the gone conversation's room never does.
    await waitFor(() => expect(FakeWebSocket.instances.some((ws) => ws.url.includes("/parties/inbox/"))).toBe(true));
    expect(FakeWebSocket.instances.filter((ws) => ws.url.includes("/parties/conversation/"))).toEqual([]);
  });

  it("Enter sends the trimmed text, Shift+Enter makes a new line, blank text is not sent", async () => {
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/conversations/c1/send`]: (c: ApiCall) => json(msg("new1", { sender_id: ME, text: (c.body as { text: string }).text, timestamp: "2026-11-21T10:00:00.000Z" }), 201),
    });
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", signedIn());
    const box = await screen.findByRole("textbox", { name: "Message to Jordan Kim" });
    await user.type(box, "   {Enter}");
    expect(callsOf(calls, `POST ${API}/conversations/c1/send`)).toHaveLength(0);
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    await user.clear(box);
    await user.type(box, "Hello{Shift>}{Enter}{/Shift}there  ");
    expect(box).toHaveValue("Hello\nthere  ");
    expect(callsOf(calls, `POST ${API}/conversations/c1/send`)).toHaveLength(0);
    await user.keyboard("{Enter}");
    await waitFor(() => expect(callsOf(calls, `POST ${API}/conversations/c1/send`)).toHaveLength(1));
    expect(callsOf(calls, `POST ${API}/conversations/c1/send`)[0]!.body).toEqual({ text: "Hello\nthere", conversation_id: "c1" });
    expect(box).toHaveValue("");
    const log = screen.getByRole("log");
    await waitFor(() => expect(within(log).getByText((_, el) => el?.classList.contains("bubble-text") === true && el.textContent === "Hello\nthere")).toBeInTheDocument());
  });

  it("shows the bubble at once; a failed send says so with Retry, and Retry sends it", async () => {
    let attempts = 0;
    let release: (r: Response) => void = () => {};
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/conversations/c1/send`]: () => {
        attempts += 1;
        if (attempts === 1) return new Promise<Response>((r) => (release = r));
        return json(msg("sent1", { sender_id: ME, text: "Still free?", timestamp: "2026-11-21T10:00:00.000Z" }), 201);
      },
    });
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", signedIn());
    const box = await screen.findByRole("textbox", { name: /Message to/ });
    await user.type(box, "Still free?{Enter}");
    const log = screen.getByRole("log");
    expect(await within(log).findByText("Still free?")).toBeInTheDocument();
    expect(within(log).getByText("Sending…")).toBeInTheDocument();
    await act(async () => release(json({ detail: "Server error" }, 500)));
    expect(await within(log).findByText("Failed to send message")).toBeInTheDocument();
    await user.click(within(log).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(within(log).queryByText("Failed to send message")).toBeNull());
    expect(within(log).getAllByText("Still free?")).toHaveLength(1);
    expect(within(log).queryByText("Sending…")).toBeNull();
    expect(callsOf(calls, `POST ${API}/conversations/c1/send`)).toHaveLength(2);
  });

  it("a message arriving by poll and again by socket shows once; a read event shows Seen", async () => {
    const mine = msg("m2", { sender_id: ME, text: "Mine", timestamp: "2026-11-20T15:02:00.000Z", is_read: false });
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([mine, msg("m1", { text: "First" })]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
    });
    renderApp("/messages?conversation=c1", signedIn());
    const log = await screen.findByRole("log");
    expect(await within(log).findByText("Mine")).toBeInTheDocument();
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes("/parties/conversation/c1?"))).toBe(true));
    const room = FakeWebSocket.instances.find((s) => s.url.includes("/parties/conversation/c1?"))!;
    expect(new URL(room.url).searchParams.get("token")).toBe("tk");
    const theirs = msg("m3", { text: "Brand new", timestamp: "2026-11-20T15:03:00.000Z", is_read: false });
    act(() => {
      room.serverOpen();
      room.serverSend({ type: "message", message: mine });
      room.serverSend({ type: "message", message: theirs });
      room.serverSend({ type: "message", message: theirs });
    });
    expect(await within(log).findByText("Brand new")).toBeInTheDocument();
    expect(within(log).getAllByText("Mine")).toHaveLength(1);
    expect(within(log).getAllByText("Brand new")).toHaveLength(1);
    expect(within(log).queryByText("Seen")).toBeNull();
    // The other person reads the thread: Seen under my last message.
    act(() => room.serverSend({ type: "read", conversation_id: "c1", reader_id: "u2" }));
    expect(await within(log).findByText("Seen")).toBeInTheDocument();
  });

  it("Seen appearing under my last message keeps a reader at the bottom there, Seen in full view", async () => {
    const mine = msg("m2", { sender_id: ME, text: "Mine", timestamp: "2026-11-20T15:02:00.000Z", is_read: false });
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([mine, msg("m1", { text: "First" })]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
    });
    renderApp("/messages?conversation=c1", signedIn());
    const log = await screen.findByRole("log");
    await within(log).findByText("Mine");
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes("/parties/conversation/c1?"))).toBe(true));
    const room = FakeWebSocket.instances.find((s) => s.url.includes("/parties/conversation/c1?"))!;
    // jsdom lays nothing out: a scroll box as tall as the elements in it (20 px each), 60 px seen.
    let top = 0;
    const height = () => log.querySelectorAll("*").length * 20;
    Object.defineProperty(log, "scrollHeight", { configurable: true, get: height });
    Object.defineProperty(log, "clientHeight", { configurable: true, get: () => 60 });
    Object.defineProperty(log, "scrollTop", { configurable: true, get: () => top, set: (v: number) => (top = Math.max(0, Math.min(v, height() - 60))) });
    log.scrollTop = height();
    fireEvent.scroll(log);
    const before = log.scrollTop;
    act(() => room.serverSend({ type: "read", conversation_id: "c1", reader_id: "u2" }));
    await within(log).findByText("Seen");
    expect(height() - 60).toBeGreaterThan(before);
    expect(log.scrollTop).toBe(height() - 60);
  });

  it("my message echoed by the room before the send call answers shows once (matched by its key)", async () => {
    let release: (r: Response) => void = () => {};
    const stored = msg("e1", { sender_id: ME, text: "Echo me", timestamp: "2026-11-21T10:00:00.000Z", is_read: false });
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([msg("m1", { text: "Earlier", is_read: true })]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
      [`POST ${API}/conversations/c1/send`]: () => new Promise<Response>((r) => (release = r)),
    });
    const keys = recordIdempotencyKeys();
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", signedIn());
    const log = await screen.findByRole("log");
    await within(log).findByText("Earlier");
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes("/parties/conversation/c1?"))).toBe(true));
    const room = FakeWebSocket.instances.find((s) => s.url.includes("/parties/conversation/c1?"))!;
    act(() => room.serverOpen());
    await user.type(screen.getByRole("textbox", { name: /Message to/ }), "Echo me{Enter}");
    expect(await within(log).findByText("Sending…")).toBeInTheDocument();
    const mine = { ...stored, client_key: keys[0] };
    act(() => room.serverSend({ type: "message", message: mine }));
    await waitFor(() => expect(within(log).queryByText("Sending…")).toBeNull());
    expect(within(log).getAllByText("Echo me")).toHaveLength(1);
    await act(async () => release(json(mine, 201)));
    expect(within(log).getAllByText("Echo me")).toHaveLength(1);
  });

  it("a message of mine with the same text but another key is not taken for the one being sent", async () => {
    const earlier = msg("old1", { sender_id: ME, text: "ok", timestamp: "2026-11-21T09:00:00.000Z", client_key: "an-earlier-key" });
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
      [`POST ${API}/conversations/c1/send`]: () => new Promise<Response>(() => {}),
    });
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", signedIn());
    const log = await screen.findByRole("log");
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes("/parties/conversation/c1?"))).toBe(true));
    const room = FakeWebSocket.instances.find((s) => s.url.includes("/parties/conversation/c1?"))!;
    act(() => room.serverOpen());
    await user.type(screen.getByRole("textbox", { name: /Message to/ }), "ok{Enter}");
    expect(await within(log).findByText("Sending…")).toBeInTheDocument();
    act(() => room.serverSend({ type: "message", message: earlier }));
    await waitFor(() => expect(within(log).getAllByText("ok")).toHaveLength(2));
    expect(within(log).getByText("Sending…")).toBeInTheDocument();
  });

  it("a send dropped by the network and retried repeats its Idempotency-Key; the thread shows one bubble", async () => {
    let attempts = 0;
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/conversations/c1/send`]: () => {
        attempts += 1;
        // The first attempt reached the server and was stored, but its answer never came back.
        if (attempts === 1) throw new TypeError("Failed to fetch");
        return json(msg("kept1", { sender_id: ME, text: "Still free?", timestamp: "2026-11-21T10:00:00.000Z", client_key: keys[0] }), 201);
      },
    });
    const keys = recordIdempotencyKeys();
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", signedIn());
    const box = await screen.findByRole("textbox", { name: /Message to/ });
    await user.type(box, "Still free?{Enter}");
    const log = screen.getByRole("log");
    expect(await within(log).findByText("Failed to send message")).toBeInTheDocument();
    await user.click(within(log).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(within(log).queryByText("Failed to send message")).toBeNull());
    expect(callsOf(calls, `POST ${API}/conversations/c1/send`)).toHaveLength(2);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(within(log).getAllByText("Still free?")).toHaveLength(1);
    expect(within(log).queryByText("Sending…")).toBeNull();
    // Answered: nothing is kept for a reload.
    expect(Object.keys(localStorage).filter((k) => k.startsWith("campusnest_unsent:"))).toEqual([]);

    // A second message gets a key of its own.
    await user.type(box, "And parking?{Enter}");
    await waitFor(() => expect(keys).toHaveLength(3));
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("a reload keeps the unsent message and its key: Retry repeats the key; once stored it shows once", async () => {
    let online = false;
    let storedOnServer: Message | null = null;
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: () => page(storedOnServer ? [storedOnServer] : []),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/conversations/c1/send`]: () => {
        if (!online) throw new TypeError("Failed to fetch");
        storedOnServer = msg("r1", { sender_id: ME, text: "See you at 5", timestamp: "2026-11-21T10:00:00.000Z", client_key: keys[0] });
        return json(storedOnServer, 201);
      },
    });
    const keys = recordIdempotencyKeys();
    const user = userEvent.setup();
    const first = renderApp("/messages?conversation=c1", signedIn());
    await user.type(await screen.findByRole("textbox", { name: /Message to/ }), "See you at 5{Enter}");
    expect(await within(screen.getByRole("log")).findByText("Failed to send message")).toBeInTheDocument();

    // Reload: the failed message is still there, with Retry.
    first.unmount();
    renderApp("/messages?conversation=c1", signedIn());
    let log = await screen.findByRole("log");
    expect(await within(log).findByText("See you at 5")).toBeInTheDocument();
    expect(within(log).getByText("Failed to send message")).toBeInTheDocument();
    online = true;
    await user.click(within(log).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(within(log).queryByText("Failed to send message")).toBeNull());
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(within(log).getAllByText("See you at 5")).toHaveLength(1);

    // Reload again: only the stored message, no bubble left over.
    cleanup();
    renderApp("/messages?conversation=c1", signedIn());
    log = await screen.findByRole("log");
    expect(await within(log).findByText("See you at 5")).toBeInTheDocument();
    expect(within(log).getAllByText("See you at 5")).toHaveLength(1);
    expect(within(log).queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("after a reload, a kept message the server did store (found by its key in the thread) shows once, without Retry", async () => {
    let storedOnServer: Message | null = null;
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: () => page(storedOnServer ? [storedOnServer] : []),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/conversations/c1/send`]: () => {
        // Stored, then the connection dropped before the answer.
        storedOnServer = msg("d1", { sender_id: ME, text: "Dropped but kept", timestamp: "2026-11-21T10:00:00.000Z", client_key: keys[0] });
        throw new TypeError("Failed to fetch");
      },
    });
    const keys = recordIdempotencyKeys();
    const user = userEvent.setup();
    const first = renderApp("/messages?conversation=c1", signedIn());
    await user.type(await screen.findByRole("textbox", { name: /Message to/ }), "Dropped but kept{Enter}");
    expect(await within(screen.getByRole("log")).findByText("Failed to send message")).toBeInTheDocument();
    first.unmount();
    renderApp("/messages?conversation=c1", signedIn());
    const log = await screen.findByRole("log");
    expect(await within(log).findByText("Dropped but kept")).toBeInTheDocument();
    await waitFor(() => expect(Object.keys(localStorage).filter((k) => k.startsWith("campusnest_unsent:"))).toEqual([]));
    expect(within(log).getAllByText("Dropped but kept")).toHaveLength(1);
    expect(within(log).queryByText("Failed to send message")).toBeNull();
    expect(keys).toHaveLength(1);
  });

  it("?userId= of oneself says 'You cannot message yourself' and starts nothing", async () => {
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/conversations/enriched`]: convPage([]) });
    renderApp(`/messages?userId=${ME}`, signedIn());
    expect((await screen.findByText("You cannot message yourself")).closest("[role=alert]")).not.toBeNull();
    expect(callsOf(calls, `POST ${API}/conversations`)).toHaveLength(0);
  });

  it("?userId=&listingId= starts the conversation when none exists and opens it", async () => {
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c9": notFound, "GET /api/v1/messages/conversations/with/u2": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([]),
      [`POST ${API}/conversations`]: () => json({ data: conv({ id: "c9", latest_message_preview: null, last_message_timestamp: null }) }, 201),
      [`GET ${API}/conversations/c9/messages`]: page([]),
      [`POST ${API}/conversations/c9/read`]: { unread_count: 0 },
    });
    const { router } = renderApp(paths.messages("u2", "l1"), signedIn());
    expect(await screen.findByRole("log", { name: "Messages with Jordan Kim" })).toBeInTheDocument();
    expect(callsOf(calls, `GET ${API}/conversations/with/u2`)).toHaveLength(1);
    expect(callsOf(calls, `POST ${API}/conversations`)[0]!.body).toEqual({ participant_id: "u2", listing_id: "l1" });
    expect(router.state.location.search).toBe("?conversation=c9");
  });

  it("says 'You cannot message yourself' from the server, and 'Failed to start conversation' otherwise", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/with/u2": notFound, [`GET ${API}/conversations/enriched`]: convPage([]), [`POST ${API}/conversations`]: () => json({ detail: "You cannot message yourself" }, 400) });
    renderApp("/messages?userId=u2", signedIn());
    expect(await screen.findByText("You cannot message yourself")).toBeInTheDocument();
  });

  it("says 'Failed to start conversation' on a server error", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/conversations/enriched`]: convPage([]), [`GET ${API}/conversations/with/u2`]: () => json({ detail: "x" }, 500) });
    renderApp("/messages?userId=u2", signedIn());
    expect(await screen.findByText("Failed to start conversation", {})).toBeInTheDocument();
  });
});

describe("the conversation list updated in place", () => {
  const list = (convs: Conversation[][]): ConversationListData => ({ pages: convs.map(convPage), pageParams: convs.map(() => null) });

  it("moves the conversation of a new message to the top with its preview; an incoming one to a closed thread counts as unread", () => {
    const data = list([[conv({ id: "c1" }), conv({ id: "c2" })], [conv({ id: "c3", unread_count: 1 })]]);
    const m = msg("n1", { conversation_id: "c3", text: "Hello again", timestamp: "2026-11-21T09:00:00.000Z", is_read: false });
    const after = applyMessageToList(data, m, ME, false)!;
    expect(listConversations(after).map((c) => c.id)).toEqual(["c3", "c1", "c2"]);
    expect(listConversations(after)[0]).toMatchObject({ latest_message_preview: "Hello again", last_message_timestamp: m.timestamp, updated_at: m.timestamp, unread_count: 2 });
    // The thread is open (it marks the message read itself), or the message is mine: no unread.
    expect(listConversations(applyMessageToList(data, m, ME, true))[0]!.unread_count).toBe(1);
    expect(listConversations(applyMessageToList(data, { ...m, sender_id: ME }, ME, false))[0]!.unread_count).toBe(1);
  });

  it("ignores a message older than the conversation's last one, and a conversation it does not hold", () => {
    const data = list([[conv({ id: "c1" }), conv({ id: "c2" })]]);
    expect(applyMessageToList(data, msg("old", { conversation_id: "c2", timestamp: "2026-11-19T00:00:00.000Z" }), ME, false)).toBe(data);
    expect(applyMessageToList(data, msg("x", { conversation_id: "c9", timestamp: "2026-11-21T00:00:00.000Z" }), ME, false)).toBe(data);
  });
});

describe("unread ledger", () => {
  it("explains the pushed count by the messages pushed into the open thread and the reads made here, each once", () => {
    let now = 0;
    const ledger = createUnreadLedger(() => now);
    ledger.expectIncoming("m1");
    ledger.expectIncoming("m1");
    ledger.expectRead(1);
    expect(ledger.explain(4, 5)).toBe(true);
    // m1 was counted once: a second +1 is news.
    expect(ledger.explain(5, 6)).toBe(false);
    expect(ledger.explain(6, 5)).toBe(true);
    expect(ledger.explain(5, 4)).toBe(false);
    expect(ledger.explain(4, 4)).toBe(true);
    expect(ledger.explain(undefined, 4)).toBe(false);

    // More than expected: news, and what was expected is spent.
    ledger.expectIncoming("m2");
    expect(ledger.explain(4, 6)).toBe(false);
    expect(ledger.explain(6, 7)).toBe(false);

    // An expectation whose event never came does not explain a later change.
    ledger.expectIncoming("m3");
    now += EXPECTATION_TTL_MS;
    expect(ledger.explain(7, 8)).toBe(false);
  });
});

describe("messaging without redundant reads", () => {
  const readsOf = (calls: ApiCall[]) => calls.filter((c) => c.method === "GET" && /\/(conversations|messages|unread-count)/.test(c.path));
  const socketOf = (part: string) => FakeWebSocket.instances.findLast((s) => s.url.includes(part))!;

  /**
   * The receiver on /messages with conversation c1 open, its room and the inbox room connected, and
   * the refetches of connecting done. The clock is faked (moving on by itself) to pass STABLE_OPEN_MS.
   */
  async function receiverWithThreadOpen(extra: Record<string, unknown> = {}) {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let unread = 2;
    const calls = fakeApi({ ...threadRoutes("l1", "u2"),
      [`GET ${API}/unread-count`]: () => ({ data: { unread_count: unread } }),
      [`GET ${API}/conversations/enriched`]: convPage([conv({ id: "c2", participant_id: "u3", participant_name: "Sam Lee", unread_count: 2, last_message_timestamp: "2026-11-20T16:00:00.000Z" }), conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([msg("m1", { text: "Earlier" })]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
      [`GET ${API}/conversations/c1`]: notFound,
      ...extra,
    });
    renderApp("/messages?conversation=c1", signedIn());
    // The page's chunk may not be loaded yet (this test run alone).
    const log = await screen.findByRole("log", {});
    await within(log).findByText("Earlier");
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes("/parties/conversation/c1?"))).toBe(true));
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes(`/parties/inbox/${ME}?`))).toBe(true));
    const room = socketOf("/parties/conversation/c1?");
    const inbox = socketOf(`/parties/inbox/${ME}?`);
    act(() => {
      room.serverOpen();
      inbox.serverOpen();
    });
    await act(() => vi.advanceTimersByTimeAsync(STABLE_OPEN_MS));
    // Connecting refetches the thread, the list and the count once (pushes before the open were missed).
    await waitFor(() => expect(callsOf(calls, `GET ${API}/conversations/c1/messages`)).toHaveLength(2));
    await waitFor(() => expect(callsOf(calls, `GET ${API}/unread-count`).length).toBeGreaterThanOrEqual(2));
    await act(() => vi.advanceTimersByTimeAsync(50));
    calls.length = 0;
    return { calls, log, room, inbox, setUnread: (n: number) => (unread = n) };
  }

  /** Lets any refetch a push would start be sent. */
  const settle = () => act(() => vi.advanceTimersByTimeAsync(100));

  it("a message pushed into the open thread costs one POST read and no GET; the list and the badge follow the pushes", async () => {
    const { calls, log, room, inbox } = await receiverWithThreadOpen();
    const list = screen.getAllByRole("list")[0]!;
    expect(within(list).getAllByRole("button").map((b) => b.textContent)).toEqual([expect.stringContaining("Sam Lee"), expect.stringContaining("Jordan Kim")]);

    const arrived = msg("m2", { text: "Still free?", timestamp: "2026-11-21T10:00:00.000Z", is_read: false });
    act(() => room.serverSend({ type: "message", message: arrived }));
    expect(await within(log).findByText("Still free?")).toBeInTheDocument();
    await waitFor(() => expect(callsOf(calls, `POST ${API}/conversations/c1/read`)).toHaveLength(1));
    // What the server pushes next: the count with the new message, then without it (read).
    act(() => inbox.serverSend({ type: "unread", unread_count: 3 }));
    act(() => inbox.serverSend({ type: "unread", unread_count: 2 }));
    await settle();

    expect(readsOf(calls)).toEqual([]);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`POST ${API}/conversations/c1/read`]);
    // The list moved Jordan's conversation to the top with the new preview, and no unread pill.
    const first = within(list).getAllByRole("button")[0]!;
    expect(first).toHaveTextContent("Jordan Kim");
    expect(first).toHaveTextContent("Still free?");
    expect(first).not.toHaveTextContent("unread");
    expect(screen.getByText("2 unread messages")).toBeInTheDocument();
  });

  it("my message echoed by the room and answered by the send call costs no GET", async () => {
    const stored = msg("s1", { sender_id: ME, text: "On my way", timestamp: "2026-11-21T10:00:00.000Z", is_read: false });
    const keys: string[] = [];
    const { calls, log, room } = await receiverWithThreadOpen({
      [`POST ${API}/conversations/c1/send`]: () => json({ ...stored, client_key: keys[0] }, 201),
    });
    const inner = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith("/send")) keys.push(new Headers(init?.headers).get("Idempotency-Key")!);
      return inner(input, init);
    }) as typeof fetch;
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByRole("textbox", { name: /Message to/ }), "On my way{Enter}");
    await waitFor(() => expect(callsOf(calls, `POST ${API}/conversations/c1/send`)).toHaveLength(1));
    act(() => room.serverSend({ type: "message", message: { ...stored, client_key: keys[0] } }));
    await settle();
    expect(within(log).getAllByText("On my way")).toHaveLength(1);
    expect(within(log).queryByText("Sending…")).toBeNull();
    expect(readsOf(calls)).toEqual([]);
    expect(within(screen.getAllByRole("list")[0]!).getAllByRole("button")[0]).toHaveTextContent("On my way");
  });

  it("a pushed count for another conversation refetches the list once (the push does not say which one), nothing else", async () => {
    const { calls } = await receiverWithThreadOpen();
    act(() => socketOf(`/parties/inbox/${ME}?`).serverSend({ type: "unread", unread_count: 3 }));
    await settle();
    expect(readsOf(calls).map((c) => c.path)).toEqual([`${API}/conversations/enriched`]);
    expect(await screen.findByText("3 unread messages")).toBeInTheDocument();
  });

  it("a message pushed for a conversation the list does not hold refetches the list once", async () => {
    const { calls, room } = await receiverWithThreadOpen();
    act(() => room.serverSend({ type: "message", message: msg("x1", { conversation_id: "c7", timestamp: "2026-11-21T10:00:00.000Z", is_read: true }) }));
    await settle();
    expect(readsOf(calls).map((c) => c.path)).toEqual([`${API}/conversations/enriched`]);
  });

  it("away from the messages page, a pushed count costs no GET; the list is fetched when the page opens", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The router scrolls to the top on navigation; jsdom has no scrolling.
    vi.spyOn(window, "scrollTo").mockImplementation(() => {});
    const calls = fakeApi({ ...threadRoutes("l1", "u2"),
      [`GET ${API}/unread-count`]: { data: { unread_count: 1 } },
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`POST ${API}/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
    });
    const { router } = renderApp("/messages", signedIn());
    await screen.findByRole("button", { name: /Jordan Kim/ });
    await act(() => router.navigate("/support"));
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes(`/parties/inbox/${ME}?`))).toBe(true));
    const inbox = socketOf(`/parties/inbox/${ME}?`);
    act(() => inbox.serverOpen());
    await act(() => vi.advanceTimersByTimeAsync(STABLE_OPEN_MS));
    await settle();
    calls.length = 0;
    act(() => inbox.serverSend({ type: "unread", unread_count: 4 }));
    expect(await screen.findByText("4 unread messages")).toBeInTheDocument();
    await settle();
    expect(readsOf(calls)).toEqual([]);
    // Within the list's fresh time (30 s), yet stale: the page shows the conversations as they are now.
    await act(() => router.navigate("/messages"));
    await waitFor(() => expect(callsOf(calls, `GET ${API}/conversations/enriched`)).toHaveLength(1));
  });
});

describe("paths", () => {
  it("messages(userId, listingId)", () => {
    expect(paths.messages()).toBe("/messages");
    expect(paths.messages("u 2")).toBe("/messages?userId=u+2");
    expect(paths.messages("u2", "l1")).toBe("/messages?userId=u2&listingId=l1");
  });
});

describe("a long message, and the unread count in the account menu", () => {
  // item 4: the composer never cuts a message.
  it("counts near the 2,000 limit; a paste over it stays in the box, flagged, with Send disabled until shortened", async () => {
    const calls = fakeApi({ ...threadRoutes("l1", "u2"), "GET /api/v1/messages/conversations/c1": notFound,
      [`GET ${API}/conversations/enriched`]: convPage([conv()]),
      [`GET ${API}/conversations/c1/messages`]: page([]),
      [`POST ${API}/conversations/c1/read`]: { unread_count: 0 },
    });
    const user = userEvent.setup();
    renderApp("/messages?conversation=c1", signedIn());
    const box = await screen.findByRole("textbox", { name: "Message to Jordan Kim" });
    expect(box).not.toHaveAttribute("maxLength");
    await user.click(box);
    await user.paste("a".repeat(1850));
    expect(screen.getByText("1850/2000")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send" })).toBeEnabled();
    await user.paste("b".repeat(200));
    expect(box).toHaveValue("a".repeat(1850) + "b".repeat(200));
    expect(screen.getByText(/^2050\/2000/)).toBeInTheDocument();
    expect(screen.getByText("Message must be at most 2000 characters. Shorten it to send.")).toHaveAttribute("role", "alert");
    expect(box).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
    await user.keyboard("{Enter}");
    expect(callsOf(calls, `POST ${API}/conversations/c1/send`)).toHaveLength(0);
    for (let i = 0; i < 50; i++) await user.keyboard("{Backspace}");
    expect(screen.queryByText(/Shorten it to send/)).toBeNull();
    expect(screen.getByRole("button", { name: "Send" })).toBeEnabled();
  });

  // item 15: the account menu's Messages item carries the unread count.
  it("the account menu's Messages item shows the unread count, named for screen readers", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"), [`GET ${API}/unread-count`]: { data: { unread_count: 3 } } });
    const user = userEvent.setup();
    renderApp("/support", signedIn());
    await screen.findByText("3 unread messages");
    await user.click(await screen.findByRole("button", { name: /^Account menu/ }));
    expect(await screen.findByRole("menuitem", { name: "Messages (3 unread)" })).toBeInTheDocument();
  });

  // item 10: Message while signed out, then sign in: the conversation opens.
  describe("Message on a listing, signed out", () => {
    const listingRoutes = (ownerId: string) => ({
      "GET /api/v1/subleases/l1": { data: makeOwnerListing({ id: "l1", title: "Sunny room", user_id: ownerId, user_first_name: "Jordan" }) },
      [`GET /api/v1/users/${ownerId}`]: { data: { id: ownerId, first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } },
      "GET /api/v1/auth/config": { google_client_id: null },
      "POST /api/v1/auth/login": { access_token: "tok", refresh_token: "r", token_type: "bearer", user: makeUser({ id: ME }) },
      [`GET ${API}/conversations/enriched`]: convPage([]),
    });

    async function signInFromMessage() {
      const user = userEvent.setup();
      await user.click((await screen.findAllByRole("button", { name: "Message" }))[0]!);
      const dialog = await screen.findByRole("dialog", { name: "Sign in" });
      await user.type(within(dialog).getByLabelText("Email"), "maya@ufl.edu");
      await user.type(within(dialog).getByLabelText("Password"), "secret1");
      await user.click(within(dialog).getByRole("button", { name: "Sign In" }));
    }

    it("opens the conversation with the owner after signing in", async () => {
      fakeApi({
        ...threadRoutes("l1", "u2"),
        ...listingRoutes("u2"),
        "GET /api/v1/favorites": notFound,
        // The messages page it lands on: no conversation yet, so it starts one (held unanswered, so the
        // page stays on the address the sign-in led to).
        [`GET ${API}/conversations/with/u2`]: notFound,
        [`POST ${API}/conversations`]: () => new Promise<Response>(() => {}),
        [`GET ${API}/conversations/enriched`]: convPage([]),
      });
      const { router } = renderApp("/listing/l1");
      await signInFromMessage();
      await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(paths.messages("u2", "l1")));
    });

    it("stays on the listing when the person who signed in owns it", async () => {
      fakeApi(listingRoutes(ME));
      const { router } = renderApp("/listing/l1");
      await signInFromMessage();
      expect(await screen.findByRole("link", { name: "Edit listing" })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe("/listing/l1");
    });
  });
});

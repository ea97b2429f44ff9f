/**
 * Messaging (api-contract "Messages"): conversations, paging, sending, reading, unread counts,
 * throttling, socket tickets, the real-time events of the rooms and the new-message email.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Conversation, ConversationPageResponse, Message, MessagesResponse } from "../../../worker/contract/messages";
import { adminLogin, api, authed, connect, conversationOf, insertListing, json, open, post, type Session, signUp, stepClock, ticketOf, withinOneMinute } from "../helpers";

const BASE = "/api/v1/messages";

const get = (s: Session, path: string) => api(`${BASE}${path}`, authed(s.access_token));
const send = (s: Session, path: string, body: unknown) => post(`${BASE}${path}`, body, { Authorization: `Bearer ${s.access_token}` });

async function start(s: Session, participant: Session | string, listingId?: string) {
  const participant_id = typeof participant === "string" ? participant : participant.user.id;
  return send(s, "/conversations", { participant_id, ...(listingId ? { listing_id: listingId } : {}) });
}

const sendText = (s: Session, conversationId: string, text: string) => send(s, `/conversations/${conversationId}/send`, { text });

// Tests ordered by time step the clock (stepClock) and get the real one back after.
afterEach(() => vi.useRealTimers());

const inbox = async (s: Session) => open(await connect(`/parties/inbox/${s.user.id}?token=${await ticketOf(s)}`));
const room = async (s: Session, conversationId: string) => open(await connect(`/parties/conversation/${conversationId}?token=${await ticketOf(s)}`));

async function mailbox(to: string) {
  const res = await api(`/api/v1/dev/emails?to=${encodeURIComponent(to)}`);
  return (await json<{ data: { subject: string; text: string; html: string }[] }>(res)).data;
}

let n = 0;
const user = (name: string) => signUp(`${name}-${++n}@msg.test`);

let alice: Session;
let bob: Session;
let carol: Session;

beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([user("alice"), user("bob"), user("carol")]);
});

describe("starting a conversation", () => {
  it("creates one conversation per pair: 201 new, 200 for the existing one from either side", async () => {
    const [a, b] = await Promise.all([user("a"), user("b")]);
    const first = await start(a, b);
    expect(first.status).toBe(201);
    const created = (await json<{ data: Conversation }>(first)).data;
    expect(created).toMatchObject({
      participant_id: b.user.id,
      participant_name: "Test User",
      participant_avatar: null,
      latest_message_preview: null,
      last_message_timestamp: null,
      unread_count: 0,
      listing_id: null,
    });
    const again = await start(a, b);
    expect(again.status).toBe(200);
    expect((await json<{ data: Conversation }>(again)).data.id).toBe(created.id);
    const reverse = await start(b, a);
    expect(reverse.status).toBe(200);
    expect((await json<{ data: Conversation }>(reverse)).data).toMatchObject({ id: created.id, participant_id: a.user.id });
  });

  it("refuses oneself (400), unknown users (404) and bad input (422)", async () => {
    const self = await start(alice, alice);
    expect(self.status).toBe(400);
    expect(await json(self)).toEqual({ detail: "You cannot message yourself" });
    expect((await start(alice, "no-such-user")).status).toBe(404);
    expect((await send(alice, "/conversations", {})).status).toBe(422);
    expect((await api(`${BASE}/conversations`, { method: "POST", body: "{}" })).status).toBe(401);
  });

  it("refuses a deleted participant (404)", async () => {
    const gone = await user("gone");
    expect((await api("/api/v1/users/profile", authed(gone.access_token, { method: "DELETE" }))).status).toBe(204);
    expect((await start(alice, gone.user.id)).status).toBe(404);
  });

  it("takes a listing the caller can see that belongs to one of the two; shows its title and card photo", async () => {
    const [owner, student, stranger] = await Promise.all([user("owner"), user("student"), user("stranger")]);
    await insertListing(owner.user.id, "msg-l1", { title: "Sunny 2x2" });
    await env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, thumb_key, position) VALUES ('p1', 'msg-l1', 'full.jpg', 'thumb.jpg', 0)").run();
    await insertListing(owner.user.id, "msg-l2", { verification_status: "pending" });
    await insertListing(stranger.user.id, "msg-l3");

    expect((await start(student, owner, "no-such-listing")).status).toBe(404);
    // Pending: only its owner sees it.
    expect((await start(student, owner, "msg-l2")).status).toBe(404);
    // Someone else's listing.
    const foreign = await start(student, owner, "msg-l3");
    expect(foreign.status).toBe(422);
    expect(await json(foreign)).toMatchObject({ errors: [expect.objectContaining({ path: "listing_id" })] });

    const res = await start(student, owner, "msg-l1");
    expect(res.status).toBe(201);
    expect((await json<{ data: Conversation }>(res)).data).toMatchObject({
      listing_id: "msg-l1",
      listing_title: "Sunny 2x2",
      listing_photo: "/api/v1/images/thumb.jpg",
    });
    // The owner may start from the pending listing they own.
    const own = await start(owner, stranger, "msg-l2");
    expect(own.status).toBe(201);
    expect((await sendText(owner, (await json<{ data: Conversation }>(own)).data.id, "Hello")).status).toBe(201);
    // ...but the stranger does not see it in their list.
    const strangers = await json<{ data: Conversation[] }>(await get(stranger, "/conversations"));
    expect(strangers.data.find((c) => c.participant_id === owner.user.id)).toMatchObject({ listing_id: null, listing_title: null });
  });
});

describe("conversation lists", () => {
  it("lists newest activity first with unread counts, and finds the conversation with a user", async () => {
    const [me, x, y, z] = await Promise.all([user("me"), user("x"), user("y"), user("z")]);
    const cx = await conversationOf(me, x);
    const cy = await conversationOf(me, y);
    const cz = await conversationOf(z, me);
    for (const [from, id, text] of [[x, cx, "from x 1"], [x, cx, "from x 2"], [me, cy, "to y"], [z, cz, "from z"]] as const) {
      stepClock();
      expect((await sendText(from, id, text)).status).toBe(201);
    }

    const list = await json<{ data: Conversation[] }>(await get(me, "/conversations"));
    expect(list.data.map((c) => c.id)).toEqual([cz, cy, cx]);
    expect(list.data.map((c) => c.unread_count)).toEqual([1, 0, 2]);
    expect(list.data[0]).toMatchObject({ participant_id: z.user.id, latest_message_preview: "from z", last_message_timestamp: expect.any(String) });

    const withX = await get(me, `/conversations/with/${x.user.id}`);
    expect(withX.status).toBe(200);
    expect((await json<{ data: Conversation }>(withX)).data).toMatchObject({ id: cx, unread_count: 2 });
    expect((await get(me, `/conversations/with/${alice.user.id}`)).status).toBe(404);
    expect((await get(me, `/conversations/with/${me.user.id}`)).status).toBe(404);
  });

  it("pages the enriched list on (activity, id) with an opaque cursor; a malformed cursor is 400", async () => {
    const me = await user("pager");
    const others = await Promise.all(Array.from({ length: 5 }, (_, i) => user(`peer${i}`)));
    const ids: string[] = [];
    for (const o of others) {
      stepClock();
      // Started by `me`: shown to them while empty (the others see it once it holds a message).
      ids.push(await conversationOf(me, o));
    }
    const seen: string[] = [];
    let token: string | null = null;
    for (let i = 0; i < 10; i++) {
      const res = await get(me, `/conversations/enriched?limit=2${token ? `&last_evaluated_key=${token}` : ""}`);
      expect(res.status).toBe(200);
      const page: ConversationPageResponse = await json<ConversationPageResponse>(res);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((c) => c.id));
      token = page.pagination.next_token;
      expect(page.pagination.has_more).toBe(token !== null);
      if (!token) break;
    }
    expect(seen).toEqual([...ids].reverse());
    expect((await get(me, "/conversations/enriched?last_evaluated_key=not-a-cursor")).status).toBe(400);
    expect((await get(me, `/conversations/enriched?last_evaluated_key=${btoa(JSON.stringify({ t: "yesterday", id: "x" }))}`)).status).toBe(400);
    expect((await get(me, "/conversations/enriched?limit=0")).status).toBe(422);
  });
});

describe("every conversation route is 404 to anyone but its two participants", () => {
  it("answers 404 to an outsider and for an unknown id", async () => {
    const id = await conversationOf(alice, bob);
    for (const target of [id, "no-such-conversation"]) {
      expect((await get(carol, `/conversations/${target}/messages`)).status).toBe(404);
      expect((await sendText(carol, target, "hi")).status).toBe(404);
      expect((await send(carol, `/conversations/${target}/read`, {})).status).toBe(404);
    }
    expect((await get(carol, `/conversations/with/${alice.user.id}`)).status).toBe(404);
    // The participants get through.
    expect((await get(alice, `/conversations/${id}/messages`)).status).toBe(200);
    expect((await send(bob, `/conversations/${id}/read`, {})).status).toBe(200);
    // Nothing was written by the outsider.
    const { messages } = await json<MessagesResponse>(await get(alice, `/conversations/${id}/messages`));
    expect(messages.some((m) => m.sender_id === carol.user.id)).toBe(false);
  });

  it("needs a signed-in user (401)", async () => {
    expect((await api(`${BASE}/conversations`)).status).toBe(401);
    expect((await api(`${BASE}/unread-count`)).status).toBe(401);
    expect((await api(`${BASE}/socket-ticket`, { method: "POST" })).status).toBe(401);
  });
});

describe("sending", () => {
  it("stores trimmed text of 1-2000 characters and answers 201 with the message", async () => {
    const id = await conversationOf(alice, carol);
    const res = await sendText(alice, id, "  hello there  ");
    expect(res.status).toBe(201);
    const message = await json<Message>(res);
    expect(message).toEqual({ id: expect.any(String), sender_id: alice.user.id, text: "hello there", timestamp: expect.any(String), is_read: false, conversation_id: id, safety_notice: false, safety_kind: null, client_key: null, kind: "text", deal_id: null });
    expect((await sendText(alice, id, "x".repeat(2000))).status).toBe(201);

    for (const text of ["", "   \n ", "x".repeat(2001)]) {
      const bad = await sendText(alice, id, text);
      expect(bad.status).toBe(422);
      expect(await json(bad)).toMatchObject({ errors: [expect.objectContaining({ path: "text" })] });
    }
    expect((await send(alice, `/conversations/${id}/send`, { text: "hi", conversation_id: "another" })).status).toBe(422);
    expect((await send(alice, `/conversations/${id}/send`, { text: "hi", conversation_id: id })).status).toBe(201);
    expect((await send(alice, `/conversations/${id}/send`, {})).status).toBe(422);

    const view = await json<{ data: Conversation }>(await get(carol, `/conversations/with/${alice.user.id}`));
    expect(view.data.latest_message_preview).toBe("hi");
  });

  it("refuses a message to someone who deleted their account (404)", async () => {
    const [a, b] = await Promise.all([user("stay"), user("leave")]);
    const id = await conversationOf(a, b);
    expect((await sendText(b, id, "bye")).status).toBe(201);
    expect((await api("/api/v1/users/profile", authed(b.access_token, { method: "DELETE" }))).status).toBe(204);
    expect((await sendText(a, id, "are you there?")).status).toBe(404);
    // The conversation and its messages stay, shown as from a deleted user.
    const view = await json<{ data: Conversation }>(await get(a, `/conversations/with/${b.user.id}`));
    expect(view.data).toMatchObject({ participant_name: "Deleted user", unread_count: 1 });
  });

  it(`throttles a user after 30 messages a minute (429)`, async () => {
    const [a, b] = await Promise.all([user("spray"), user("target")]);
    const id = await conversationOf(a, b);
    // The whole burst happens in one minute of the limiter's clock, and the minute after it starts afresh.
    await withinOneMinute(async (nextMinute) => {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await sendText(a, id, `m${i}`)).status);
      expect(statuses.every((s) => s === 201)).toBe(true);
      const refused = await sendText(a, id, "one too many");
      expect(refused.status).toBe(429);
      expect(await json(refused)).toMatchObject({ retry_after: expect.any(Number) });
      // Per user: the other side still talks.
      expect((await sendText(b, id, "still here")).status).toBe(201);
      nextMinute();
      expect((await sendText(a, id, "a new minute")).status).toBe(201);
    });
    const { messages } = await json<MessagesResponse>(await get(a, `/conversations/${id}/messages?limit=100`));
    expect(messages).toHaveLength(32);
  }, 30_000);
});

describe("message pages", () => {
  it("walk every message exactly once, newest first, while new ones arrive", async () => {
    const [a, b] = await Promise.all([user("walk-a"), user("walk-b")]);
    const id = await conversationOf(a, b);
    // Ten messages, inserted out of order; groups sharing a timestamp straddle the page boundaries
    // (newest first in pages of 3: 04 03 03 | 03 02 01 | 01 01 01 | 00).
    const stamps = ["00", "01", "01", "01", "01", "02", "03", "03", "03", "04"];
    const rows = stamps.map((s, i) => ({ id: `w${(i * 7) % 10}-${id}`, at: `2026-01-01T00:00:${s}.000Z` }));
    await env.DB.batch(
      [...rows].reverse().map((r, i) =>
        env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, text, created_at) VALUES (?, ?, ?, ?, ?)").bind(r.id, id, i % 2 ? a.user.id : b.user.id, `text ${r.id}`, r.at),
      ),
    );
    const expected = [...rows].sort((x, y) => (x.at === y.at ? (x.id < y.id ? 1 : -1) : x.at < y.at ? 1 : -1)).map((r) => r.id);

    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const res = await get(a, `/conversations/${id}/messages?limit=3${token ? `&last_evaluated_key=${token}` : ""}`);
      expect(res.status).toBe(200);
      const page: MessagesResponse = await json<MessagesResponse>(res);
      if (pages === 0) expect(page.messages).toHaveLength(3);
      seen.push(...page.messages.map((m) => m.id));
      token = page.pagination.next_token;
      // New messages between pages belong before the first page, not in the walk.
      stepClock();
      expect((await sendText(pages % 2 ? a : b, id, `live ${pages}`)).status).toBe(201);
      pages++;
    } while (token && pages < 20);
    expect(seen).toEqual(expected);
    expect(pages).toBe(4);

    const { messages } = await json<MessagesResponse>(await get(a, `/conversations/${id}/messages?limit=100`));
    expect(messages).toHaveLength(14);
    expect(messages.slice(0, 4).map((m) => m.text)).toEqual(["live 3", "live 2", "live 1", "live 0"]);
    expect((await get(a, `/conversations/${id}/messages?last_evaluated_key=%%%`)).status).toBe(400);
    expect((await get(a, `/conversations/${id}/messages?limit=1000`)).status).toBe(422);
  });
});

describe("unread counts and reading", () => {
  it("counts messages to me that I have not read, in one number; reading resets it", async () => {
    const [me, p, q] = await Promise.all([user("reader"), user("p"), user("q")]);
    const cp = await conversationOf(p, me);
    const cq = await conversationOf(me, q);
    for (const text of ["1", "2", "3"]) expect((await sendText(p, cp, text)).status).toBe(201);
    expect((await sendText(q, cq, "4")).status).toBe(201);
    expect((await sendText(me, cq, "mine does not count")).status).toBe(201);

    const count = async (s: Session) => (await json<{ data: { unread_count: number } }>(await get(s, "/unread-count"))).data.unread_count;
    expect(await count(me)).toBe(4);
    expect(await count(q)).toBe(1);
    const stats = await json<{ data: { unread_messages: number; conversations: number } }>(await api("/api/v1/users/stats", authed(me.access_token)));
    expect(stats.data).toMatchObject({ unread_messages: 4, conversations: 2 });

    const read = await send(me, `/conversations/${cp}/read`, {});
    expect(read.status).toBe(200);
    expect(await json(read)).toEqual({ unread_count: 0 });
    expect(await count(me)).toBe(1);
    // The sender sees them read; my own message to q is still unread for q.
    const { messages } = await json<MessagesResponse>(await get(p, `/conversations/${cp}/messages`));
    expect(messages.every((m) => m.is_read)).toBe(true);
    expect(await count(q)).toBe(1);
  });
});

describe("socket tickets and real-time events", () => {
  it("issues a 60-second ticket that opens the rooms but is not an access token", async () => {
    const res = await api(`${BASE}/socket-ticket`, authed(alice.access_token, { method: "POST" }));
    expect(res.status).toBe(200);
    const { data } = await json<{ data: { ticket: string; expires_in: number } }>(res);
    expect(data.expires_in).toBe(60);
    expect((await api(`${BASE}/unread-count`, authed(data.ticket))).status).toBe(401);
    const socket = open(await connect(`/parties/inbox/${alice.user.id}?token=${data.ticket}`));
    expect(await socket.quiet()).toBe(true);
    socket.socket.close();
    // The access token does not open a room.
    expect((await connect(`/parties/inbox/${alice.user.id}?token=${alice.access_token}`)).status).toBe(401);
    // An outsider's ticket does not open someone else's conversation.
    const id = await conversationOf(alice, bob);
    expect((await connect(`/parties/conversation/${id}?token=${await ticketOf(carol)}`)).status).toBe(404);
  });

  it("pushes a message sent over HTTP to both sides' conversation sockets and the recipient's inbox; reading pushes read and unread", async () => {
    const [a, b] = await Promise.all([user("rt-a"), user("rt-b")]);
    const id = await conversationOf(a, b);
    const [roomA, roomB, inboxA, inboxB] = [await room(a, id), await room(b, id), await inbox(a), await inbox(b)];

    const res = await sendText(a, id, "real time");
    expect(res.status).toBe(201);
    const message = await json<Message>(res);
    expect(await roomA.next()).toEqual({ type: "message", message });
    expect(await roomB.next()).toEqual({ type: "message", message });
    expect(await inboxB.next()).toEqual({ type: "unread", unread_count: 1 });
    expect(await inboxA.quiet()).toBe(true);

    expect((await send(b, `/conversations/${id}/read`, {})).status).toBe(200);
    const read = { type: "read", conversation_id: id, reader_id: b.user.id };
    expect(await roomA.next()).toEqual(read);
    expect(await roomB.next()).toEqual(read);
    expect(await inboxB.next()).toEqual({ type: "unread", unread_count: 0 });
    expect(await inboxA.quiet()).toBe(true);
    for (const s of [roomA, roomB, inboxA, inboxB]) s.socket.close();
  });

  it("closes a conversation's sockets when staff delete it", async () => {
    const [a, b] = await Promise.all([user("del-a"), user("del-b")]);
    const id = await conversationOf(a, b);
    const [roomA, roomB] = [await room(a, id), await room(b, id)];
    const token = await adminLogin();
    const del = await api("/api/v1/admin/delete-item", authed(token, { method: "DELETE", body: JSON.stringify({ tableName: "conversations", itemId: id }), headers: { "content-type": "application/json" } }));
    expect(del.status).toBe(200);
    expect(await roomA.closed).toMatchObject({ code: 4404 });
    expect(await roomB.closed).toMatchObject({ code: 4404 });
    expect((await get(a, `/conversations/${id}/messages`)).status).toBe(404);
    expect((await connect(`/parties/conversation/${id}?token=${await ticketOf(a)}`)).status).toBe(404);
  });

  it("closes a deleted account's sockets; the other person's stay open", async () => {
    const [a, b] = await Promise.all([user("acct-a"), user("acct-b")]);
    const id = await conversationOf(a, b);
    const [roomA, roomB, inboxB] = [await room(a, id), await room(b, id), await inbox(b)];
    const spareTicket = await ticketOf(b);
    expect((await api("/api/v1/users/profile", authed(b.access_token, { method: "DELETE" }))).status).toBe(204);
    expect(await inboxB.closed).toMatchObject({ code: 4410 });
    expect(await roomB.closed).toMatchObject({ code: 4410 });
    expect(await roomA.quiet()).toBe(true);
    // A ticket issued before the deletion does not reopen the rooms.
    expect((await connect(`/parties/inbox/${b.user.id}?token=${spareTicket}`)).status).toBe(401);
    expect((await connect(`/parties/conversation/${id}?token=${spareTicket}`)).status).toBe(401);
    roomA.socket.close();
  });
});

describe("when the rooms cannot be reached", () => {
  it("still stores and answers the message, and emails the recipient it could not reach", async () => {
    const [a, b] = await Promise.all([user("down-a"), user("down-b")]);
    const id = await conversationOf(a, b);
    const down = () => {
      throw new Error("room unavailable");
    };
    const spies = [vi.spyOn(env.Conversation, "idFromName").mockImplementation(down), vi.spyOn(env.Inbox, "idFromName").mockImplementation(down)];
    try {
      const res = await sendText(a, id, "through the outage");
      expect(res.status).toBe(201);
      expect((await send(b, `/conversations/${id}/read`, {})).status).toBe(200);
      expect(spies[0]!.mock.calls.length).toBeGreaterThan(0);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    const { messages } = await json<MessagesResponse>(await get(b, `/conversations/${id}/messages`));
    expect(messages.map((m) => m.text)).toEqual(["through the outage"]);
    expect((await mailbox(b.user.email)).filter((m) => m.subject.includes("New message"))).toHaveLength(1);
  });
});

describe("new-message email", () => {
  it("emails a recipient without an open socket once per 15 minutes per conversation, with a link to the sender", async () => {
    const [a, b] = await Promise.all([user("mail-a"), user("mail-b")]);
    const id = await conversationOf(a, b);
    for (const text of ["first", "second", "third"]) expect((await sendText(a, id, text)).status).toBe(201);
    let mails = (await mailbox(b.user.email)).filter((m) => m.subject.includes("New message"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`http://localhost/messages?userId=${a.user.id}`);
    expect(mails[0]!.html).toContain(`http://localhost/messages?userId=${a.user.id}`);
    // The sender is not emailed about their own messages.
    expect((await mailbox(a.user.email)).filter((m) => m.subject.includes("New message"))).toHaveLength(0);

    // 16 minutes later, the next message emails again.
    await env.DB.prepare("UPDATE conversations SET user_a_emailed_at = ?1, user_b_emailed_at = ?1 WHERE id = ?2")
      .bind(new Date(Date.now() - 16 * 60_000).toISOString(), id)
      .run();
    expect((await sendText(a, id, "later")).status).toBe(201);
    mails = (await mailbox(b.user.email)).filter((m) => m.subject.includes("New message"));
    expect(mails).toHaveLength(2);
  });

  it("is not sent while the recipient has a socket open, nor when they turned it off", async () => {
    const [a, online, off] = await Promise.all([user("mail-s"), user("mail-online"), user("mail-off")]);
    const toOnline = await conversationOf(a, online);
    const socket = await inbox(online);
    expect((await sendText(a, toOnline, "you are here")).status).toBe(201);
    expect(await socket.next()).toEqual({ type: "unread", unread_count: 1 });
    expect((await mailbox(online.user.email)).filter((m) => m.subject.includes("New message"))).toHaveLength(0);
    socket.socket.close();

    const patch = await api("/api/v1/users/notifications", authed(off.access_token, { method: "PATCH", body: JSON.stringify({ email_on_message: false }), headers: { "content-type": "application/json" } }));
    expect(patch.status).toBe(200);
    const toOff = await conversationOf(a, off);
    expect((await sendText(a, toOff, "no email please")).status).toBe(201);
    expect((await mailbox(off.user.email)).filter((m) => m.subject.includes("New message"))).toHaveLength(0);
  });
});

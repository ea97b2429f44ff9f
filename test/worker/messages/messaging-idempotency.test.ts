/**
 * Idempotent sends (api-contract "Retries"; docs/decisions/012): POST messages/conversations/{id}/send
 * with an `Idempotency-Key` stores one message per sender and key within 24 hours, answers every
 * repeat with the same 201 and message, and has its side effects (room push, unread count) once.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Conversation, Message, MessagesResponse } from "../../../worker/contract/messages";
import { MESSAGING_MESSAGES } from "../../../worker/contract/messages";
import { IDEMPOTENCY_KEY_MAX } from "../../../worker/lib/idempotency";
import { api, authed, connect, conversationOf, json, open, post, type Session, signUp, ticketOf } from "../helpers";

const BASE = "/api/v1/messages";

let n = 0;
const user = (name: string) => signUp(`${name}-${++n}@idem.test`);

const get = (s: Session, path: string) => api(`${BASE}${path}`, authed(s.access_token));

const sendWithKey = (s: Session, conversationId: string, text: string, key?: string) =>
  post(`${BASE}/conversations/${conversationId}/send`, { text }, { Authorization: `Bearer ${s.access_token}`, ...(key === undefined ? {} : { "Idempotency-Key": key }) });

async function storedMessages(s: Session, conversationId: string): Promise<Message[]> {
  const res = await get(s, `/conversations/${conversationId}/messages?limit=100`);
  expect(res.status).toBe(200);
  return (await json<MessagesResponse>(res)).messages;
}

const unreadOf = async (s: Session) => (await json<{ data: { unread_count: number } }>(await get(s, "/unread-count"))).data.unread_count;

describe("the same key twice", () => {
  it("in sequence: one message; the repeat answers the same 201 with the same message", async () => {
    const [a, b] = await Promise.all([user("seq-a"), user("seq-b")]);
    const id = await conversationOf(a, b);
    const first = await sendWithKey(a, id, "  Is it still free?  ", "key-seq-1");
    expect(first.status).toBe(201);
    const stored = await json<Message>(first);
    expect(stored).toMatchObject({ text: "Is it still free?", sender_id: a.user.id, client_key: "key-seq-1" });

    const again = await sendWithKey(a, id, "Is it still free?", "key-seq-1");
    expect(again.status).toBe(201);
    expect(await json<Message>(again)).toEqual(stored);

    expect((await storedMessages(a, id)).map((m) => m.id)).toEqual([stored.id]);
    expect(await unreadOf(b)).toBe(1);
    const list = await json<{ data: Conversation[] }>(await get(b, "/conversations"));
    expect(list.data.find((c) => c.id === id)).toMatchObject({ unread_count: 1, latest_message_preview: "Is it still free?" });
  });

  it("at the same instant, round after round: one message each, every answer 201 with its id; pushed once", { timeout: 60_000 }, async () => {
    const [a, b] = await Promise.all([user("race-a"), user("race-b")]);
    const id = await conversationOf(a, b);
    const roomOfB = open(await connect(`/parties/conversation/${id}?token=${await ticketOf(b)}`));
    const inboxOfB = open(await connect(`/parties/inbox/${b.user.id}?token=${await ticketOf(b)}`));
    const ROUNDS = 5;
    const AT_ONCE = 4;
    for (let round = 0; round < ROUNDS; round++) {
      const key = `race-key-${round}`;
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => sendWithKey(a, id, `round ${round}`, key)));
      expect(answers.map((r) => r.status)).toEqual(Array(AT_ONCE).fill(201));
      const bodies = await Promise.all(answers.map((r) => json<Message>(r)));
      expect(new Set(bodies.map((m) => m.id)).size).toBe(1);
      expect(bodies.every((m) => m.text === `round ${round}` && m.client_key === key)).toBe(true);
      // The recipient's room got this message once, and the inbox one new count (a generous wait: the
      // push runs after the answer, and the machine may be busy).
      const pushed = await roomOfB.next(15_000);
      expect(pushed).toMatchObject({ type: "message", message: { id: bodies[0]!.id, client_key: null } });
      expect(await inboxOfB.next(15_000)).toEqual({ type: "unread", unread_count: round + 1 });
    }
    expect(await roomOfB.quiet()).toBe(true);
    expect(await inboxOfB.quiet()).toBe(true);

    const stored = await storedMessages(b, id);
    expect(stored.map((m) => m.text).sort()).toEqual(Array.from({ length: ROUNDS }, (_, i) => `round ${i}`));
    expect(await unreadOf(b)).toBe(ROUNDS);
    const list = await json<{ data: Conversation[] }>(await get(b, "/conversations"));
    expect(list.data.find((c) => c.id === id)).toMatchObject({ unread_count: ROUNDS });
    roomOfB.socket.close();
    inboxOfB.socket.close();
  });

  it("a flagged text sent twice at once: one message flagged, the conversation queued for staff once", async () => {
    const [a, b] = await Promise.all([user("flag-a"), user("flag-b")]);
    const id = await conversationOf(a, b);
    const text = "Can you send the deposit by Zelle before the viewing?";
    const answers = await Promise.all([sendWithKey(a, id, text, "flag-key"), sendWithKey(a, id, text, "flag-key")]);
    expect(answers.map((r) => r.status)).toEqual([201, 201]);
    const before = await env.DB.prepare("SELECT safety_flagged_at AS at FROM conversations WHERE id = ?").bind(id).first<{ at: string }>();
    expect(before?.at).toEqual(expect.any(String));
    // A late retry changes nothing either.
    expect((await sendWithKey(a, id, text, "flag-key")).status).toBe(201);
    const rows = await env.DB.prepare("SELECT count(*) AS n, count(safety_flags) AS flagged FROM messages WHERE conversation_id = ?").bind(id).first<{ n: number; flagged: number }>();
    expect(rows).toEqual({ n: 1, flagged: 1 });
    const after = await env.DB.prepare("SELECT safety_flagged_at AS at FROM conversations WHERE id = ?").bind(id).first<{ at: string }>();
    expect(after?.at).toBe(before?.at);
  });

  it("from two senders at once: keys are per sender, so each stores their own message", async () => {
    const [a, b] = await Promise.all([user("pair-a"), user("pair-b")]);
    const id = await conversationOf(a, b);
    const [fromA, fromB] = await Promise.all([sendWithKey(a, id, "hello", "shared-key"), sendWithKey(b, id, "hello", "shared-key")]);
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    const [mA, mB] = [await json<Message>(fromA), await json<Message>(fromB)];
    expect(mA.id).not.toBe(mB.id);
    expect([mA.sender_id, mB.sender_id]).toEqual([a.user.id, b.user.id]);
    expect(await storedMessages(a, id)).toHaveLength(2);
  });
});

describe("different keys and no key", () => {
  it("a different key is a different message; sends without a key are never merged", async () => {
    const [a, b] = await Promise.all([user("diff-a"), user("diff-b")]);
    const id = await conversationOf(a, b);
    const answers = await Promise.all([sendWithKey(a, id, "same text", "k-1"), sendWithKey(a, id, "same text", "k-2"), sendWithKey(a, id, "same text"), sendWithKey(a, id, "same text")]);
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const bodies = await Promise.all(answers.map((r) => json<Message>(r)));
    expect(new Set(bodies.map((m) => m.id)).size).toBe(4);
    expect(bodies.map((m) => m.client_key)).toEqual(["k-1", "k-2", null, null]);
    expect(await storedMessages(a, id)).toHaveLength(4);
    expect(await unreadOf(b)).toBe(4);
  });

  it("the key is only the sender's: the recipient's view of the message does not carry it", async () => {
    const [a, b] = await Promise.all([user("view-a"), user("view-b")]);
    const id = await conversationOf(a, b);
    expect((await sendWithKey(a, id, "private key", "only-mine")).status).toBe(201);
    expect((await storedMessages(b, id))[0]).toMatchObject({ text: "private key", client_key: null });
    expect((await storedMessages(a, id))[0]).toMatchObject({ text: "private key", client_key: "only-mine" });
  });
});

describe("a key reused for something else, and bad keys", () => {
  it("another text or another conversation with a used key: 422 with a detail, nothing stored", async () => {
    const [a, b, c] = await Promise.all([user("reuse-a"), user("reuse-b"), user("reuse-c")]);
    const ab = await conversationOf(a, b);
    const ac = await conversationOf(a, c);
    expect((await sendWithKey(a, ab, "first text", "reused")).status).toBe(201);

    const otherText = await sendWithKey(a, ab, "second text", "reused");
    expect(otherText.status).toBe(422);
    expect(await json(otherText)).toEqual({ detail: MESSAGING_MESSAGES.keyReused, errors: [{ path: "Idempotency-Key", message: MESSAGING_MESSAGES.keyReused }] });
    const otherConversation = await sendWithKey(a, ac, "first text", "reused");
    expect(otherConversation.status).toBe(422);
    expect((await json(otherConversation)).detail).toBe(MESSAGING_MESSAGES.keyReused);

    expect((await storedMessages(a, ab)).map((m) => m.text)).toEqual(["first text"]);
    expect(await storedMessages(a, ac)).toEqual([]);
  });

  it("an empty or over-long key: 400 with a detail, nothing stored", async () => {
    const [a, b] = await Promise.all([user("bad-a"), user("bad-b")]);
    const id = await conversationOf(a, b);
    for (const key of ["   ", "k".repeat(IDEMPOTENCY_KEY_MAX + 1)]) {
      const res = await sendWithKey(a, id, "hi", key);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ detail: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters` });
    }
    expect((await sendWithKey(a, id, "hi", "k".repeat(IDEMPOTENCY_KEY_MAX))).status).toBe(201);
    expect(await storedMessages(a, id)).toHaveLength(1);
  });

  it("a configured origin may send the header (CORS preflight)", async () => {
    const preflight = await api(`${BASE}/conversations/x/send`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.campusnest.test", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type,idempotency-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
  });

  it("a key does not open someone else's conversation (404, as without one)", async () => {
    const [a, b, outsider] = await Promise.all([user("out-a"), user("out-b"), user("out-x")]);
    const id = await conversationOf(a, b);
    expect((await sendWithKey(a, id, "mine", "k-out")).status).toBe(201);
    expect((await sendWithKey(outsider, id, "mine", "k-out")).status).toBe(404);
    expect(await storedMessages(a, id)).toHaveLength(1);
  });
});

describe("the 24-hour window", () => {
  it("a key older than 24 hours may be used again: a new message, the old one keeps its text", async () => {
    const [a, b] = await Promise.all([user("old-a"), user("old-b")]);
    const id = await conversationOf(a, b);
    const first = await json<Message>(await sendWithKey(a, id, "yesterday", "daily-key"));
    // Within the window (23 h 59 min old) the key still answers the stored message.
    await env.DB.prepare("UPDATE messages SET created_at = ? WHERE id = ?").bind(new Date(Date.now() - 24 * 3_600_000 + 60_000).toISOString(), first.id).run();
    expect((await json<Message>(await sendWithKey(a, id, "yesterday", "daily-key"))).id).toBe(first.id);
    // Past the window it stores a new message, also with a different text.
    await env.DB.prepare("UPDATE messages SET created_at = ? WHERE id = ?").bind(new Date(Date.now() - 24 * 3_600_000 - 60_000).toISOString(), first.id).run();
    const [x, y] = await Promise.all([sendWithKey(a, id, "today", "daily-key"), sendWithKey(a, id, "today", "daily-key")]);
    expect([x.status, y.status]).toEqual([201, 201]);
    const [mx, my] = [await json<Message>(x), await json<Message>(y)];
    expect(mx.id).toBe(my.id);
    expect(mx.id).not.toBe(first.id);
    const stored = await storedMessages(a, id);
    expect(stored.map((m) => [m.text, m.client_key])).toEqual([
      ["today", "daily-key"],
      ["yesterday", null],
    ]);
  });
});

/**
 * The recipient's notice per kind and "This is fine" (decision 015). Most flags are written straight into
 * the stored message (as insertMessage would), so the rule is tested apart from the detector's wording;
 * the scammer's sequence and the live push go through scanMessage. These tests check the payload per
 * kind and per viewer (lists, send answer, room push), what one "This is fine" covers (that message and
 * the same sender's same pattern, never a new pattern or a worse kind), the feedback route (who may call
 * it, idempotent under a concurrent double send, Undo), and the staff queue's feedback.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { messageSchema, type Message, type MessagesResponse } from "../../../worker/contract/messages";
import { noticeKindAfter, safetyKindOf, SAFETY_KINDS, type SafetyFeedbackResponse, type SafetyKind, type SafetyQueueResponse, type ScamReason } from "../../../worker/contract/safety";
import { scanMessage } from "../../../worker/services/scam-shield";
import { adminLogin, api, authed, connect, conversationOf, json, open, post, type Session, signUp, ticketOf } from "../helpers";

const BASE = "/api/v1/messages";
/** Flagged as a payment scam by any version of the rules (the first example the shield was built for). */
const SCAM = "Can you send the deposit by Zelle before the viewing?";
let texts = 0;
const plain = () => `Hi! Is Saturday ok for a viewing? (${++texts})`;

const get = (s: Session, path: string) => api(`${BASE}${path}`, authed(s.access_token));
const send = (s: Session, path: string, body: unknown) => post(`${BASE}${path}`, body, { Authorization: `Bearer ${s.access_token}` });
const sendText = async (s: Session, id: string, text: string) => {
  const res = await send(s, `/conversations/${id}/send`, { text });
  expect(res.status).toBe(201);
  return json<Message>(res);
};
/** A clean message, then stored as flagged with `reasons` (and its conversation queued), as insertMessage does. */
async function sendFlagged(s: Session, id: string, ...reasons: ScamReason[]): Promise<Message> {
  const sent = await sendText(s, id, plain());
  const json = JSON.stringify(reasons);
  await env.DB.batch([
    env.DB.prepare("UPDATE messages SET safety_flags = ? WHERE id = ?").bind(json, sent.id),
    env.DB.prepare("UPDATE conversations SET safety_flagged_at = ?, safety_reasons = ? WHERE id = ?").bind(new Date().toISOString(), json, id),
  ]);
  return sent;
}
const fine = (s: Session, id: string, messageId: string, kind: string) => send(s, `/conversations/${id}/safety-feedback`, { kind, message_id: messageId });
const undo = (s: Session, id: string, messageId: string, kind: string) =>
  api(`${BASE}/conversations/${id}/safety-feedback/${messageId}/${kind}`, authed(s.access_token, { method: "DELETE" }));
async function messagesAs(s: Session, id: string): Promise<Message[]> {
  const res = await get(s, `/conversations/${id}/messages`);
  expect(res.status).toBe(200);
  return (await json<MessagesResponse>(res)).messages;
}
const byId = async (s: Session, conversationId: string, messageId: string) => (await messagesAs(s, conversationId)).find((m) => m.id === messageId)!;
const room = async (s: Session, id: string) => open(await connect(`/parties/conversation/${id}?token=${await ticketOf(s)}`));

let n = 0;
const user = (name: string) => signUp(`${name}-${++n}@feedback.test`);
let adminToken: string;
const queueItem = async (id: string) => {
  const res = await api("/api/v1/admin/safety?limit=100", authed(adminToken));
  expect(res.status).toBe(200);
  return (await json<SafetyQueueResponse>(res)).conversations.find((x) => x.conversation_id === id);
};

beforeAll(async () => {
  adminToken = await adminLogin();
});

describe("the notice kind", () => {
  it("is the most serious kind of the reasons, skipping quieted kinds", () => {
    expect(safetyKindOf([])).toBeNull();
    expect(safetyKindOf(["moves_off_platform"])).toBe("contact");
    expect(safetyKindOf(["owner_unavailable", "moves_off_platform"])).toBe("away");
    expect(safetyKindOf(["off_platform_payment", "owner_unavailable"])).toBe("payment");
    expect(safetyKindOf(["pay_before_viewing"])).toBe("payment");
    expect(safetyKindOf(["off_platform_payment", "suspicious_link"])).toBe("link");
    expect(safetyKindOf(["suspicious_link", "identity_request", "moves_off_platform"])).toBe("identity");
    expect(safetyKindOf(["identity_request", "off_platform_payment"], new Set(["identity"]))).toBe("payment");
    expect(safetyKindOf(["identity_request"], new Set(["identity"]))).toBeNull();
    expect(SAFETY_KINDS).toEqual(["identity", "link", "payment", "away", "contact"]);
    // The message schema (which repeats the list) accepts every kind and nothing else.
    for (const kind of [...SAFETY_KINDS, null]) expect(messageSchema.shape.safety_kind.parse(kind)).toBe(kind);
    expect(messageSchema.shape.safety_kind.safeParse("other").success).toBe(false);
  });
});

describe("what a \"This is fine\" covers", () => {
  const zelle = { kind: "payment" as const, senderId: "scammer", reasons: ["off_platform_payment"] as ScamReason[] };
  it("the same sender's same pattern (or less of it), never a new pattern of the kind, another kind or another sender", () => {
    expect(noticeKindAfter(["off_platform_payment"], "scammer", [zelle])).toBeNull();
    expect(noticeKindAfter(["off_platform_payment", "pay_before_viewing"], "scammer", [zelle])).toBe("payment");
    expect(noticeKindAfter(["pay_before_viewing"], "scammer", [zelle])).toBe("payment");
    expect(noticeKindAfter(["off_platform_payment", "identity_request"], "scammer", [zelle])).toBe("identity");
    expect(noticeKindAfter(["off_platform_payment", "moves_off_platform"], "scammer", [zelle])).toBe("contact");
    expect(noticeKindAfter(["off_platform_payment"], "someone-else", [zelle])).toBe("payment");
    // A dismissal of the whole pattern covers its parts; one of another kind covers nothing here.
    const both = { ...zelle, reasons: ["off_platform_payment", "pay_before_viewing"] as ScamReason[] };
    expect(noticeKindAfter(["pay_before_viewing"], "scammer", [both])).toBeNull();
    expect(noticeKindAfter(["off_platform_payment"], "scammer", [{ kind: "contact", senderId: "scammer", reasons: ["moves_off_platform"] }])).toBe("payment");
    expect(noticeKindAfter(["identity_request", "off_platform_payment"], "scammer", [zelle, { kind: "identity", senderId: "scammer", reasons: ["identity_request"] }])).toBeNull();
  });
});

describe("the message payload", () => {
  it("gives the recipient the kind of each flagged message; the sender never sees kind or notice", async () => {
    const [lister, renter] = await Promise.all([user("lister"), user("renter")]);
    const id = await conversationOf(renter, lister);
    const cases: [ScamReason[], SafetyKind | null][] = [
      [["identity_request"], "identity"],
      [["suspicious_link", "off_platform_payment"], "link"],
      [["pay_before_viewing"], "payment"],
      [["off_platform_payment", "owner_unavailable"], "payment"],
      [["owner_unavailable", "moves_off_platform"], "away"],
      [["moves_off_platform"], "contact"],
      [[], null],
    ];
    for (const [reasons, kind] of cases) {
      const sent = reasons.length ? await sendFlagged(lister, id, ...reasons) : await sendText(lister, id, plain());
      expect(await byId(renter, id, sent.id), reasons.join()).toMatchObject({ safety_notice: kind !== null, safety_kind: kind });
      const own = await byId(lister, id, sent.id);
      expect(own).toMatchObject({ safety_notice: false, safety_kind: null });
      expect(JSON.stringify(own)).not.toMatch(/identity|link|payment|away|contact|off_platform/);
    }
  });

  it("pushes the same views live: the recipient's kind, nothing for the sender", async () => {
    const [lister, renter] = await Promise.all([user("live-lister"), user("live-renter")]);
    const id = await conversationOf(renter, lister);
    const expected = safetyKindOf(scanMessage(SCAM));
    expect(expected).not.toBeNull();
    const [renterRoom, listerRoom] = [await room(renter, id), await room(lister, id)];
    const sent = await sendText(lister, id, SCAM);
    expect(sent).toMatchObject({ safety_notice: false, safety_kind: null });
    expect(await renterRoom.next()).toMatchObject({ type: "message", message: { id: sent.id, safety_notice: true, safety_kind: expected } });
    expect(await listerRoom.next()).toMatchObject({ type: "message", message: { id: sent.id, safety_notice: false, safety_kind: null } });
    renterRoom.socket.close();
    listerRoom.socket.close();
  });
});

describe("This is fine", () => {
  it("plays the scammer's sequence: a mild Zelle notice dismissed, then wiring the deposit before a viewing still warns, live and in the list", async () => {
    const [scammer, renter] = await Promise.all([user("seq-scammer"), user("seq-renter")]);
    const id = await conversationOf(renter, scammer);
    const mild = await sendText(scammer, id, "Can you pay me with Zelle?");
    expect(await byId(renter, id, mild.id)).toMatchObject({ safety_notice: true, safety_kind: "payment" });
    const res = await fine(renter, id, mild.id, "payment");
    expect(res.status).toBe(200);
    expect(await json<SafetyFeedbackResponse>(res)).toEqual({ success: true, kind: "payment", message_id: mild.id, quieted: true, changed: true });
    expect(await byId(renter, id, mild.id)).toMatchObject({ safety_notice: false, safety_kind: null });

    const renterRoom = await room(renter, id);
    const worse = await sendText(scammer, id, "Wire the deposit before you see it.");
    expect(await renterRoom.next()).toMatchObject({ type: "message", message: { id: worse.id, safety_notice: true, safety_kind: "payment" } });
    expect(await byId(renter, id, worse.id)).toMatchObject({ safety_notice: true, safety_kind: "payment" });
    // Asking the same mild thing again is what was said to be fine; asking for ID is not.
    const again = await sendText(scammer, id, "Can you pay me with Zelle?");
    expect(await renterRoom.next()).toMatchObject({ type: "message", message: { id: again.id, safety_notice: false, safety_kind: null } });
    const identity = await sendText(scammer, id, "Send me a copy of your driver's license and SSN");
    expect(await renterRoom.next()).toMatchObject({ type: "message", message: { id: identity.id, safety_notice: true, safety_kind: "identity" } });
    renterRoom.socket.close();
    const list = await messagesAs(renter, id);
    expect(list.filter((m) => m.safety_notice).map((m) => m.id).sort()).toEqual([worse.id, identity.id].sort());
  });

  it("covers that message and the sender's same pattern, for that user in that conversation; another kind still shows; Undo brings it back", async () => {
    const [lister, renter, other] = await Promise.all([user("q-lister"), user("q-renter"), user("q-other")]);
    const id = await conversationOf(renter, lister);
    const elsewhere = await conversationOf(other, lister);
    const first = await sendFlagged(lister, id, "off_platform_payment");
    const both = await sendFlagged(lister, id, "identity_request", "off_platform_payment");
    const contact = await sendFlagged(lister, id, "moves_off_platform");
    const newer = await sendFlagged(lister, id, "pay_before_viewing");
    const away = await sendFlagged(lister, elsewhere, "off_platform_payment");
    // The lister's own view of the renter's flagged message is untouched by the renter's feedback.
    const fromRenter = await sendFlagged(renter, id, "off_platform_payment");

    expect((await fine(renter, id, first.id, "payment")).status).toBe(200);
    expect(await byId(renter, id, first.id)).toMatchObject({ safety_notice: false, safety_kind: null });
    // The identity reason still shows; the same payment pattern under it is covered, so identity is all it shows.
    expect(await byId(renter, id, both.id)).toMatchObject({ safety_notice: true, safety_kind: "identity" });
    expect(await byId(renter, id, contact.id)).toMatchObject({ safety_notice: true, safety_kind: "contact" });
    // A new pattern of the same kind still shows; other conversations and the other person are untouched.
    expect(await byId(renter, id, newer.id)).toMatchObject({ safety_notice: true, safety_kind: "payment" });
    expect(await byId(other, elsewhere, away.id)).toMatchObject({ safety_notice: true, safety_kind: "payment" });
    expect(await byId(lister, id, fromRenter.id)).toMatchObject({ safety_notice: true, safety_kind: "payment" });
    // Quieting identity on that message too: it has no notice left.
    expect((await fine(renter, id, both.id, "identity")).status).toBe(200);
    expect(await byId(renter, id, both.id)).toMatchObject({ safety_notice: false, safety_kind: null });

    // Undo.
    const back = await undo(renter, id, first.id, "payment");
    expect(back.status).toBe(200);
    expect(await json<SafetyFeedbackResponse>(back)).toEqual({ success: true, kind: "payment", message_id: first.id, quieted: false, changed: true });
    expect(await byId(renter, id, first.id)).toMatchObject({ safety_notice: true, safety_kind: "payment" });
    expect(await byId(renter, id, both.id)).toMatchObject({ safety_notice: true, safety_kind: "payment" });
    expect(await json<SafetyFeedbackResponse>(await undo(renter, id, first.id, "payment"))).toMatchObject({ changed: false });
  });

  it("is idempotent: two sent at once store one row", async () => {
    const [lister, renter] = await Promise.all([user("i-lister"), user("i-renter")]);
    const id = await conversationOf(renter, lister);
    const flaggedMessage = await sendFlagged(lister, id, "identity_request");
    const answers = await Promise.all([fine(renter, id, flaggedMessage.id, "identity"), fine(renter, id, flaggedMessage.id, "identity")]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const bodies = await Promise.all(answers.map((r) => json<SafetyFeedbackResponse>(r)));
    expect(bodies.map((b) => b.changed).sort()).toEqual([false, true]);
    const again = await json<SafetyFeedbackResponse>(await fine(renter, id, flaggedMessage.id, "identity"));
    expect(again.changed).toBe(false);
    const { results } = await env.DB.prepare("SELECT * FROM safety_feedback WHERE conversation_id = ?").bind(id).all();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ user_id: renter.user.id, message_id: flaggedMessage.id, kind: "identity" });
  });

  it("refuses anyone who may not: a stranger (404), the sender (403), a message without that kind (403) or not in the conversation (404), no token (401), bad input (422)", async () => {
    const [lister, renter, stranger] = await Promise.all([user("r-lister"), user("r-renter"), user("r-stranger")]);
    const id = await conversationOf(renter, lister);
    const elsewhere = await conversationOf(stranger, lister);
    const link = await sendFlagged(lister, id, "suspicious_link");
    const clean = await sendText(lister, id, plain());
    const notHere = await sendFlagged(lister, elsewhere, "suspicious_link");

    const outsider = await fine(stranger, id, link.id, "link");
    expect(outsider.status).toBe(404);
    expect(await json(outsider)).toEqual({ detail: "Conversation not found" });
    expect((await undo(stranger, id, link.id, "link")).status).toBe(404);

    const sender = await fine(lister, id, link.id, "link");
    expect(sender.status).toBe(403);
    expect(await json(sender)).toEqual({ detail: "You have no safety notice of this kind on this message." });
    // The renter has no notice of another kind on it, nor any on a clean message.
    expect((await fine(renter, id, link.id, "payment")).status).toBe(403);
    expect((await fine(renter, id, clean.id, "link")).status).toBe(403);
    // A message of another conversation, or none at all.
    const other = await fine(renter, id, notHere.id, "link");
    expect(other.status).toBe(404);
    expect(await json(other)).toEqual({ detail: "Message not found" });
    expect((await fine(renter, id, "no-such-message-id-xx", "link")).status).toBe(404);

    expect((await post(`${BASE}/conversations/${id}/safety-feedback`, { kind: "link", message_id: link.id })).status).toBe(401);
    expect((await fine(renter, id, link.id, "everything")).status).toBe(422);
    expect((await send(renter, `/conversations/${id}/safety-feedback`, { kind: "link" })).status).toBe(422);
    expect((await undo(renter, id, link.id, "everything")).status).toBe(404);
    expect((await fine(renter, "no-such-conversation", link.id, "link")).status).toBe(404);

    const { results } = await env.DB.prepare("SELECT * FROM safety_feedback WHERE conversation_id IN (?, ?)").bind(id, elsewhere).all();
    expect(results).toHaveLength(0);
  });
});

describe("the staff Safety queue", () => {
  it("shows who said which kind was fine and when, next to the reasons; the item stays in the queue", async () => {
    const [lister, renter] = await Promise.all([user("s-lister"), user("s-renter")]);
    const id = await conversationOf(renter, lister);
    const flaggedMessage = await sendFlagged(lister, id, "identity_request", "suspicious_link");
    expect((await queueItem(id))?.feedback).toEqual([]);

    expect((await fine(renter, id, flaggedMessage.id, "identity")).status).toBe(200);
    const item = await queueItem(id);
    expect(item).toBeDefined();
    expect(item!.reasons).toEqual(["identity_request", "suspicious_link"]);
    expect(item!.reason_labels).toEqual(["Asks for identity documents, ID numbers or bank login", "Link to a payment or booking page that is not ours"]);
    expect(item!.feedback).toEqual([{ user_id: renter.user.id, name: "Test User", message_id: flaggedMessage.id, kind: "identity", kind_label: "Identity documents or numbers", created_at: expect.any(String) }]);
    expect(Date.parse(item!.feedback[0]!.created_at)).not.toBeNaN();
  });
});

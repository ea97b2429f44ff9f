/**
 * The scam shield in a deal's conversation (docs/decisions/030), through the API as the recipient reads
 * it: a payment notice to the one who would rent carries the deal's next step inside CampusNest (request,
 * wait, sign, pay), in the list and in the room's push; a paid deal's later months by a payment app are
 * not flagged; asking the renter to tap "I have the keys" early is a notice of its own.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Message, MessagesResponse } from "../../../worker/contract/messages";
import { api, authed, connect, insertListing, json, open, post, type Session, signUp, ticketOf } from "../helpers";

let seq = 0;
async function people() {
  const n = ++seq;
  const lister = await signUp(`shield-lister${n}@deals.test`, "secret-pass-1", { first_name: "Lena", last_name: "Lister" });
  const renter = await signUp(`shield-renter${n}@deals.test`, "secret-pass-1", { first_name: "René", last_name: "Renter" });
  const listingId = `sd${n}`;
  await insertListing(lister.user.id, listingId, { address: "221 Bleecker St, Apt 4B, New York, NY 10012", available_from: "2027-01-01", available_to: "2027-06-30", monthly_rent: 1200 });
  return { lister, renter, listingId };
}

const bearer = (s: Session) => ({ Authorization: `Bearer ${s.access_token}` });

/** The renter opens the conversation about the listing. */
async function conversationAbout(renter: Session, lister: Session, listingId: string): Promise<string> {
  const res = await post("/api/v1/messages/conversations", { participant_id: lister.user.id, listing_id: listingId }, bearer(renter));
  expect([200, 201]).toContain(res.status);
  return (await json<{ data: { id: string } }>(res)).data.id;
}

async function send(s: Session, conversationId: string, text: string): Promise<Message> {
  const res = await post(`/api/v1/messages/conversations/${conversationId}/send`, { text }, bearer(s));
  expect(res.status).toBe(201);
  return json<Message>(res);
}

/** The message as `viewer` reads it in the conversation's list. */
async function asRead(viewer: Session, conversationId: string, messageId: string): Promise<Message> {
  const res = await api(`/api/v1/messages/conversations/${conversationId}/messages`, authed(viewer.access_token));
  expect(res.status).toBe(200);
  return (await json<MessagesResponse>(res)).messages.find((m) => m.id === messageId)!;
}

async function requestDeal(renter: Session, listingId: string): Promise<string> {
  const res = await post("/api/v1/deals", { listing_id: listingId, move_in: "2027-01-05", move_out: "2027-05-20" }, bearer(renter));
  expect(res.status).toBe(201);
  return (await json<{ data: { id: string } }>(res)).data.id;
}

/** Signing and paying have their own flows and tests; here the deal is put in the state the shield reads. */
const setStatus = (dealId: string, status: string) => env.DB.prepare("UPDATE deals SET status = ? WHERE id = ?").bind(status, dealId).run();

const DEPOSIT_ASK = "Zelle me the $600 deposit today to hold the room";
const RENTER_OFFER = "Can I just wire you the deposit instead?";

describe("a payment notice points inside", () => {
  it("before any deal: the renter is offered the request; the lister, reading the renter's own ask, is not", async () => {
    const { lister, renter, listingId } = await people();
    const conversation = await conversationAbout(renter, lister, listingId);
    const ask = await send(lister, conversation, DEPOSIT_ASK);
    // The sender never sees a notice.
    expect(ask).toMatchObject({ safety_notice: false, safety_kind: null, safety_pay_inside: null });
    expect(await asRead(renter, conversation, ask.id)).toMatchObject({
      safety_notice: true,
      safety_kind: "payment",
      safety_pay_inside: { step: "request", deal_id: null, listing_id: listingId },
    });
    // The renter offering a wire (always off the platform; an offer by app is no ask of the reader: decision 033).
    const offer = await send(renter, conversation, RENTER_OFFER);
    expect(await asRead(lister, conversation, offer.id)).toMatchObject({ safety_kind: "payment", safety_pay_inside: null });
  });

  it("follows the deal: wait for the lister, sign, pay; nothing once the first month is paid", async () => {
    const { lister, renter, listingId } = await people();
    const dealId = await requestDeal(renter, listingId);
    const conversation = await conversationAbout(renter, lister, listingId);
    const ask = await send(lister, conversation, DEPOSIT_ASK);
    const step = async () => (await asRead(renter, conversation, ask.id)).safety_pay_inside;
    expect(await step()).toEqual({ step: "wait", deal_id: dealId, listing_id: listingId });
    expect((await api(`/api/v1/deals/${dealId}/accept`, authed(lister.access_token, { method: "POST" }))).status).toBe(200);
    expect(await step()).toEqual({ step: "sign", deal_id: dealId, listing_id: listingId });
    await setStatus(dealId, "signed");
    expect(await step()).toEqual({ step: "pay", deal_id: dealId, listing_id: listingId });
    await setStatus(dealId, "paid");
    // Still flagged (a deposit off the platform), but the first month is paid here: no step to offer.
    expect(await asRead(renter, conversation, ask.id)).toMatchObject({ safety_kind: "payment", safety_pay_inside: null });
    // The lister of the deal is never offered the renter's step.
    const offer = await send(renter, conversation, RENTER_OFFER);
    expect(await asRead(lister, conversation, offer.id)).toMatchObject({ safety_kind: "payment", safety_pay_inside: null });
  });

  it("the room pushes the recipient's view with the step", async () => {
    const { lister, renter, listingId } = await people();
    const conversation = await conversationAbout(renter, lister, listingId);
    await send(renter, conversation, "Hi! Is the room still free in January?");
    const room = open(await connect(`/parties/conversation/${conversation}?token=${await ticketOf(renter)}`));
    const ask = await send(lister, conversation, DEPOSIT_ASK);
    let pushed = await room.next();
    while (pushed.type !== "message") pushed = await room.next();
    expect(pushed.message).toMatchObject({ id: ask.id, safety_kind: "payment", safety_pay_inside: { step: "request", listing_id: listingId } });
    room.socket.close();
  });
});

describe("later months of a paid deal", () => {
  it("are paid between the parties: not flagged once the first month is paid, flagged before", async () => {
    const { lister, renter, listingId } = await people();
    const dealId = await requestDeal(renter, listingId);
    const conversation = await conversationAbout(renter, lister, listingId);
    const before = await send(lister, conversation, "can you Zelle me the rent for February?");
    expect((await asRead(renter, conversation, before.id)).safety_kind).toBe("payment");
    await setStatus(dealId, "paid");
    for (const text of ["I'll Venmo you March's rent", "can you Zelle me the rent for February?"]) {
      const later = await send(text.startsWith("I'll") ? renter : lister, conversation, text);
      const reader = text.startsWith("I'll") ? lister : renter;
      expect(await asRead(reader, conversation, later.id), text).toMatchObject({ safety_notice: false, safety_kind: null });
      const stored = await env.DB.prepare("SELECT safety_flags FROM messages WHERE id = ?").bind(later.id).first<{ safety_flags: string | null }>();
      expect(stored?.safety_flags ?? null, text).toBeNull();
    }
    // A deposit is not a later month: still flagged.
    const deposit = await send(lister, conversation, "also Zelle me a $500 security deposit");
    expect((await asRead(renter, conversation, deposit.id)).safety_kind).toBe("payment");
  });
});

describe("asking the renter to confirm move-in early", () => {
  it("is a notice of its own kind to the renter, with no pay-inside step", async () => {
    const { lister, renter, listingId } = await people();
    const dealId = await requestDeal(renter, listingId);
    await setStatus(dealId, "paid");
    const conversation = await conversationAbout(renter, lister, listingId);
    const ask = await send(lister, conversation, 'Please tap "I have the keys" now so the money is released, I will mail you the keys');
    expect(await asRead(renter, conversation, ask.id)).toMatchObject({ safety_notice: true, safety_kind: "keys", safety_pay_inside: null });
    const honest = await send(lister, conversation, "Tap 'I have the keys' once you're inside, see you on the 5th");
    expect((await asRead(renter, conversation, honest.id)).safety_notice).toBe(false);
    // Staff read the reason in the queue.
    const stored = await env.DB.prepare("SELECT safety_flags FROM messages WHERE id = ?").bind(ask.id).first<{ safety_flags: string }>();
    expect(JSON.parse(stored!.safety_flags)).toContain("early_move_in");
  });
});

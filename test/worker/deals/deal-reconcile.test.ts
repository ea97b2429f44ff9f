/**
 * A deal's money against Stripe (docs/decisions/035): a lister holding more than the rent less what went
 * back (a refund from Stripe's dashboard after the release, a transfer made outside CampusNest) is reversed
 * where Stripe allows and opened as a staff case either way; decisions carry a reason both parties read,
 * with each side's amounts on the deal; the problem and each party's one statement are read by both.
 * The real routes and Stripe SDK against the fake Stripe API.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  STRIPE_KEYS,
  adminLogin,
  api,
  chargeRefundedEvent,
  dealRow,
  deliverPlatform,
  fakeStripe,
  fetchWithBindings,
  insertPaidDeal,
  insertParty,
  json,
  moneyAtStripe,
  readyPayouts,
  stripeEvent,
  type DealJson,
  type FakeStripe,
} from "../helpers";

let admin: string;
beforeAll(async () => {
  admin = await adminLogin();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const send = (event: object) => deliverPlatform(event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
const as = (token: string, path: string, body?: unknown) =>
  fetchWithBindings(STRIPE_KEYS, path, { method: body === undefined ? "GET" : "POST", headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" }, ...(body !== undefined && { body: JSON.stringify(body) }) });
const tick = (at: number) => fetchWithBindings(STRIPE_KEYS, "/api/v1/dev/deals/tick", { method: "POST", body: JSON.stringify({ now: new Date(at).toISOString() }), headers: { "content-type": "application/json" } });
const supportMail = async () => (await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent("support@campusnest.app")}`))).data;

async function released(stripe: FakeStripe) {
  const [renter, lister] = await Promise.all([insertParty("Rene"), insertParty("Lena")]);
  await readyPayouts(lister.id);
  const deal = await insertPaidDeal(stripe, renter.id, lister.id, { heldPast: true });
  expect((await tick(Date.now())).status).toBe(200);
  expect(moneyAtStripe(stripe, deal.dealId, deal.paymentIntentId)).toEqual({ refunded: 0, transferred: 90_000 });
  return { ...deal, renter, lister };
}

describe("a lister holding more than their share", () => {
  it("a refund from Stripe's dashboard after the release comes out of the rent: reversed from the lister, and (more out than in) a staff case", async () => {
    const stripe = fakeStripe();
    const d = await released(stripe);
    const charge = stripe.charges.get(d.chargeId)!;
    charge.amount_refunded = 10_000;
    stripe.refunds.push({ id: "re_dashboard_1", object: "refund", amount: 10_000, payment_intent: d.paymentIntentId, status: "succeeded" });
    expect((await send(chargeRefundedEvent({ id: d.chargeId, amount: 94_500, amount_refunded: 10_000, payment_intent: d.paymentIntentId, transfer_group: d.dealId }))).status).toBe(200);
    expect(moneyAtStripe(stripe, d.dealId, d.paymentIntentId)).toEqual({ refunded: 10_000, transferred: 80_000 });
    const row = (await dealRow(d.dealId))!;
    expect([row.status, row.case_reason, row.refunded_cents, row.transfer_reversed_cents]).toEqual(["released", "surplus", 10_000, 10_000]);
    const found = await env.DB.prepare("SELECT details FROM deal_events WHERE deal_id = ? AND type = 'surplus_found'").bind(d.dealId).first<{ details: string }>();
    expect(JSON.parse(found!.details)).toMatchObject({ surplus_cents: 5_500, paid_cents: 94_500 });
    expect((await supportMail()).some((m) => m.subject.includes("surplus"))).toBe(true);
    const cases = await json<{ data: { id: string; case_reason: string }[] }>(await as(admin, "/api/v1/admin/deals?status=cases&limit=50"));
    expect(cases.data.find((c) => c.id === d.dealId)?.case_reason).toBe("surplus");
    // Staff close the case: nothing more moves, the case is gone.
    const resolved = await as(admin, `/api/v1/admin/deals/${d.dealId}/resolve`, { refund_cents: 10_000, reason: "Refunded by support for a broken lock" });
    expect(resolved.status).toBe(200);
    expect((await json<{ data: DealJson & { case_reason: string | null } }>(resolved)).data).toMatchObject({ status: "released", case_reason: null, payment: { refunded_cents: 10_000, transferred_cents: 80_000 } });
    expect(moneyAtStripe(stripe, d.dealId, d.paymentIntentId)).toEqual({ refunded: 10_000, transferred: 80_000 });
  });

  it("a small refund after the release (no more out than in) is taken from the lister's share without a case", async () => {
    const stripe = fakeStripe();
    const d = await released(stripe);
    stripe.charges.get(d.chargeId)!.amount_refunded = 4_000;
    stripe.refunds.push({ id: "re_dashboard_2", object: "refund", amount: 4_000, payment_intent: d.paymentIntentId, status: "succeeded" });
    await send(chargeRefundedEvent({ id: d.chargeId, amount: 94_500, amount_refunded: 4_000, payment_intent: d.paymentIntentId, transfer_group: d.dealId }));
    expect(moneyAtStripe(stripe, d.dealId, d.paymentIntentId)).toEqual({ refunded: 4_000, transferred: 86_000 });
    expect((await dealRow(d.dealId))!.case_reason).toBeNull();
  });

  it("a transfer made outside CampusNest (its event): the extra is reversed and a staff case opened; when Stripe refuses the reversal, the case still opens with the amount", async () => {
    const stripe = fakeStripe();
    const d = await released(stripe);
    const rogue = { id: "tr_outside_1", object: "transfer" as const, amount: 20_000, amount_reversed: 0, currency: "usd", destination: `acct_${d.lister.id.slice(0, 12)}`, transfer_group: d.dealId, source_transaction: d.chargeId, metadata: {} };
    stripe.transfers.push(rogue);
    expect((await send(stripeEvent("transfer.created", { ...rogue }))).status).toBe(200);
    expect(moneyAtStripe(stripe, d.dealId, d.paymentIntentId)).toEqual({ refunded: 0, transferred: 90_000 });
    expect((await dealRow(d.dealId))!.case_reason).toBe("surplus");

    const other = await released(stripe);
    stripe.refuseReversals = true;
    const rogue2 = { ...rogue, id: "tr_outside_2", amount_reversed: 0, transfer_group: other.dealId, destination: `acct_${other.lister.id.slice(0, 12)}` };
    stripe.transfers.push(rogue2);
    expect((await send(stripeEvent("transfer.created", { ...rogue2 }))).status).toBe(200);
    expect(moneyAtStripe(stripe, other.dealId, other.paymentIntentId)).toEqual({ refunded: 0, transferred: 110_000 });
    const row = (await dealRow(other.dealId))!;
    expect([row.case_reason, row.transferred_cents, row.claim_id]).toEqual(["surplus", 110_000, null]);
    const found = await env.DB.prepare("SELECT details FROM deal_events WHERE deal_id = ? AND type = 'surplus_found'").bind(other.dealId).first<{ details: string }>();
    expect(JSON.parse(found!.details).surplus_cents).toBe(20_000);
  });

  it("a release that finds the group already holding more than the rent pays nothing more, takes the extra back and opens a case", async () => {
    const stripe = fakeStripe();
    const [renter, lister] = await Promise.all([insertParty("Rita"), insertParty("Lars")]);
    await readyPayouts(lister.id);
    const d = await insertPaidDeal(stripe, renter.id, lister.id, { heldPast: true });
    stripe.transfers.push({ id: "tr_early", object: "transfer", amount: 120_000, amount_reversed: 0, currency: "usd", destination: `acct_${lister.id.slice(0, 12)}`, transfer_group: d.dealId, source_transaction: d.chargeId, metadata: {} });
    await tick(Date.now());
    expect(moneyAtStripe(stripe, d.dealId, d.paymentIntentId)).toEqual({ refunded: 0, transferred: 90_000 });
    expect(stripe.transfers.filter((t) => t.transfer_group === d.dealId)).toHaveLength(1);
    expect((await dealRow(d.dealId))!).toMatchObject({ status: "released", case_reason: "surplus" });
  });
});

describe("decisions explained, each side's amounts on the deal", () => {
  it("the lister's late-cancellation decision carries a reason both parties read (and their emails), with the refund and the transfer", async () => {
    const stripe = fakeStripe();
    const [renter, lister] = await Promise.all([insertParty("Remy"), insertParty("Lola")]);
    await readyPayouts(lister.id);
    const d = await insertPaidDeal(stripe, renter.id, lister.id, { cancellationDueInMs: 3_600_000 });
    const tooLong = await as(lister.token, `/api/v1/deals/${d.dealId}/cancellation-refund`, { refund_cents: 30_000, reason: "x".repeat(501) });
    expect(tooLong.status).toBe(422);
    const decided = await as(lister.token, `/api/v1/deals/${d.dealId}/cancellation-refund`, { refund_cents: 30_000, reason: "I found someone for two weeks" });
    expect(decided.status).toBe(200);
    for (const token of [renter.token, lister.token]) {
      const seen = (await json<{ data: DealJson & { decision: unknown } }>(await as(token, `/api/v1/deals/${d.dealId}`))).data;
      expect(seen.decision).toMatchObject({ by: "lister", refund_cents: 30_000, transfer_cents: 60_000, reason: "I found someone for two weeks" });
      expect(seen.payment).toMatchObject({ refunded_cents: 30_000, transferred_cents: 60_000, fee_cents: 4_500 });
    }
    for (const id of [renter.id, lister.id]) {
      const mail = (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(`${id}@deals.test`)}`))).data;
      expect(mail.find((m) => m.subject.startsWith("Cancellation decided"))?.text).toContain("Reason: I found someone for two weeks");
    }
  });

  it("staff's resolution carries a reason both parties read; between the rent and the total it is refused (the fee goes back only with all of it)", async () => {
    const stripe = fakeStripe();
    const [renter, lister] = await Promise.all([insertParty("Rosa"), insertParty("Luis")]);
    await readyPayouts(lister.id);
    const d = await insertPaidDeal(stripe, renter.id, lister.id, { disputed: true });
    const between = await as(admin, `/api/v1/admin/deals/${d.dealId}/resolve`, { refund_cents: 92_000 });
    expect(between.status).toBe(422);
    expect((await json<{ detail: string }>(between)).detail).toMatch(/fee goes back only with a full refund/);
    expect(stripe.refunds).toHaveLength(0);
    const res = await as(admin, `/api/v1/admin/deals/${d.dealId}/resolve`, { refund_cents: 25_000, reason: "The heating was broken for a week" });
    expect(res.status).toBe(200);
    const seen = (await json<{ data: DealJson & { decision: unknown } }>(await as(renter.token, `/api/v1/deals/${d.dealId}`))).data;
    expect(seen).toMatchObject({ status: "released", decision: { by: "staff", refund_cents: 25_000, transfer_cents: 65_000, reason: "The heating was broken for a week" } });
    expect(seen.payment).toMatchObject({ refunded_cents: 25_000, transferred_cents: 65_000 });
    const mail = (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(`${lister.id}@deals.test`)}`))).data;
    expect(mail.find((m) => m.subject.startsWith("Decided"))?.text).toContain("Reason: The heating was broken for a week");
  });
});

describe("a problem both parties read", () => {
  it("the report, its text and each party's one statement are on the deal for both (a second statement is 409)", async () => {
    const stripe = fakeStripe();
    const [renter, lister] = await Promise.all([insertParty("Rhea"), insertParty("Leo")]);
    await readyPayouts(lister.id);
    const d = await insertPaidDeal(stripe, renter.id, lister.id);
    expect((await as(renter.token, `/api/v1/deals/${d.dealId}/problem`, { kind: "cant_get_in", text: "The code does not open the door" })).status).toBe(200);
    expect((await as(lister.token, `/api/v1/deals/${d.dealId}/statement`, { text: "I sent a new code" })).status).toBe(201);
    expect((await as(renter.token, `/api/v1/deals/${d.dealId}/statement`, { text: "It still does not work" })).status).toBe(201);
    const again = await as(lister.token, `/api/v1/deals/${d.dealId}/statement`, { text: "One more thing" });
    expect(again.status).toBe(409);
    expect((await json<{ detail: string }>(again)).detail).toMatch(/already added your statement/);
    for (const token of [renter.token, lister.token]) {
      const { problem, actions } = (await json<{ data: { problem: { kind: string; text: string; statements: { author_id: string; text: string }[] }; actions: string[] } }>(await as(token, `/api/v1/deals/${d.dealId}`))).data;
      expect(problem).toMatchObject({ kind: "cant_get_in", text: "The code does not open the door" });
      expect(problem.statements.map((s) => [s.author_id, s.text])).toEqual([
        [lister.id, "I sent a new code"],
        [renter.id, "It still does not work"],
      ]);
      expect(actions).not.toContain("statement");
    }
  });
});

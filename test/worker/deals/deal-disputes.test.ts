/**
 * Card disputes of a deal's first payment (docs/decisions/029): a dispute freezes the deal into a staff
 * case (staff cannot decide while the bank does), `.closed` settles it by its outcome, and a dispute
 * after release reverses the transfer at Stripe (the real SDK against the fake Stripe API).
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb } from "../../../worker/db/client";
import { getConfig } from "../../../worker/env";
import { releaseHeld } from "../../../worker/services/payments";
import {
  STRIPE_KEYS,
  adminLogin,
  dealRow,
  deliverPlatform,
  disputeEvent,
  fakeStripe,
  fetchWithBindings,
  insertSignedDeal,
  json,
  readyPayouts,
  type FakeStripe,
  type Session,
  signUp,
} from "../helpers";

let lister: Session;
let renter: Session;
let admin: string;

beforeAll(async () => {
  [lister, renter] = await Promise.all([signUp("dispute-lister@deals.test"), signUp("dispute-renter@deals.test")]);
  admin = await adminLogin();
  await readyPayouts(lister.user.id);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const send = (event: object) => deliverPlatform(event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
const asStaff = (path: string, body: unknown) =>
  fetchWithBindings(STRIPE_KEYS, path, { method: "POST", body: JSON.stringify(body), headers: { Authorization: `Bearer ${admin}`, "content-type": "application/json" } });

async function paidDeal(stripe: FakeStripe) {
  const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
  const res = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
  const p = stripe.pay((await json<{ data: { session_id: string } }>(res)).data.session_id);
  expect((await send(p.event)).status).toBe(200);
  const dispute = (type: "charge.dispute.created" | "charge.dispute.closed", status?: string) =>
    disputeEvent(type, { id: `dp_${dealId}`, charge: p.chargeId, paymentIntent: p.paymentIntentId, amount: 94_500, status });
  const heldUntil = Date.parse(String((await dealRow(dealId))!.held_until));
  return { dealId, ...p, dispute, heldUntil };
}
const heldUntilOf = (d: { heldUntil: number }) => d.heldUntil;

describe("a card dispute while the money is held", () => {
  it("freezes the deal into a staff case (the dispute names only its charge and intent); staff cannot decide while the bank does; won puts it back on hold", async () => {
    const stripe = fakeStripe();
    const p = await paidDeal(stripe);
    expect((await send(p.dispute("charge.dispute.created"))).status).toBe(200);
    let row = (await dealRow(p.dealId))!;
    expect([row.status, row.payment_status, row.case_reason, row.dispute_status]).toEqual(["disputed", "disputed", "card_dispute", "open"]);
    const cases = await json<{ data: { id: string }[] }>(await fetchWithBindings(STRIPE_KEYS, "/api/v1/admin/deals?status=cases&limit=50", { headers: { Authorization: `Bearer ${admin}` } }));
    expect(cases.data.map((d) => d.id)).toContain(p.dealId);
    const refused = await asStaff(`/api/v1/admin/deals/${p.dealId}/resolve`, { refund_cents: 0 });
    expect(refused.status).toBe(409);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(/bank/);
    // Nothing is released meanwhile.
    await releaseHeld(createDb(env), { env: { ...env, ...STRIPE_KEYS } as Env, config: getConfig({ ...env, ...STRIPE_KEYS } as Env), defer: () => undefined }, p.dealId, Date.parse("2027-12-01T00:00:00Z"));
    expect(stripe.transfers).toHaveLength(0);

    expect((await send(p.dispute("charge.dispute.closed", "won"))).status).toBe(200);
    row = (await dealRow(p.dealId))!;
    expect([row.status, row.payment_status, row.case_reason, row.dispute_status]).toEqual(["paid", "held", null, "won"]);
  });

  it("lost: the bank gave the money back; the deal ends refunded and nothing goes to the lister", async () => {
    const stripe = fakeStripe();
    const p = await paidDeal(stripe);
    await send(p.dispute("charge.dispute.created"));
    await send(p.dispute("charge.dispute.closed", "lost"));
    const row = (await dealRow(p.dealId))!;
    expect([row.status, row.payment_status, row.refund_due_cents, row.refunded_cents]).toEqual(["refunded", "refunded", 94_500, 94_500]);
    // No refund of ours on top of the bank's.
    expect(stripe.refunds).toHaveLength(0);
  });
});

describe("a card dispute after release", () => {
  it("reverses the transfer at Stripe; lost keeps it reversed, won pays the lister again", async () => {
    const stripe = fakeStripe();
    const config = getConfig({ ...env, ...STRIPE_KEYS } as Env);
    const fx = { env: { ...env, ...STRIPE_KEYS } as Env, config, defer: () => undefined };

    const lost = await paidDeal(stripe);
    await releaseHeld(createDb(env), fx, lost.dealId, heldUntilOf(lost));
    expect((await dealRow(lost.dealId))!.status).toBe("released");
    expect((await send(lost.dispute("charge.dispute.created"))).status).toBe(200);
    const t = stripe.transfers.find((x) => x.transfer_group === lost.dealId)!;
    expect(t.amount_reversed).toBe(90_000);
    let row = (await dealRow(lost.dealId))!;
    expect([row.status, row.case_reason, row.transfer_reversed_cents]).toEqual(["disputed", "card_dispute", 90_000]);
    await send(lost.dispute("charge.dispute.closed", "lost"));
    row = (await dealRow(lost.dealId))!;
    expect([row.status, row.payment_status]).toEqual(["refunded", "refunded"]);
    expect(stripe.transfers.filter((x) => x.transfer_group === lost.dealId)).toHaveLength(1);

    const won = await paidDeal(stripe);
    await releaseHeld(createDb(env), fx, won.dealId, heldUntilOf(won));
    await send(won.dispute("charge.dispute.created"));
    await send(won.dispute("charge.dispute.closed", "won"));
    row = (await dealRow(won.dealId))!;
    expect([row.status, row.payment_status, row.case_reason]).toEqual(["released", "released", null]);
    const group = stripe.transfers.filter((x) => x.transfer_group === won.dealId);
    expect(group.map((x) => [x.amount, x.amount_reversed])).toEqual([
      [90_000, 90_000],
      [90_000, 0],
    ]);
  });
});

/**
 * A deal's Stripe events applied once, in any order, at once or repeated (docs/decisions/029, the
 * pattern of decision 013): signed events as Stripe sends them, through the real webhook routes, with
 * the real Stripe SDK against the fake Stripe API. An event refused because its payment is not recorded
 * yet (409) is delivered again, as Stripe does; the end state must equal in-order delivery.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  STRIPE_KEYS,
  api,
  chargeRefundedEvent,
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

beforeAll(async () => {
  lister = await signUp("race-lister@deals.test");
  await readyPayouts(lister.user.id);
});

// A renter per test: the trials' checkouts and reports stay within one account's write budget a minute.
let renters = 0;
beforeEach(async () => {
  renter = await signUp(`race-payer-${++renters}@deals.test`);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Waits `n` database round trips before sending: sweeps how two requests' reads interleave. */
const after = async <T>(n: number, send: () => Promise<T>) => {
  for (let i = 0; i < n; i++) await env.DB.prepare("SELECT 1").first();
  return send();
};
const OFFSETS = [
  [0, 0],
  [0, 0],
  [1, 0],
  [0, 1],
  [3, 0],
  [0, 3],
] as const;

const send = (event: object, path?: string) => deliverPlatform(event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS, path });

/** Delivers like Stripe: whatever was refused (not yet applicable, 409) is delivered again until taken. */
async function deliverUntilTaken(events: object[], together = false) {
  let pending = events;
  for (let round = 0; round < 6 && pending.length; round++) {
    const answers = together ? await Promise.all(pending.map((e) => send(e))) : await sequential(pending);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    pending = pending.filter((_, i) => answers[i]!.status === 409);
  }
  expect(pending).toHaveLength(0);
}
async function sequential(events: object[]) {
  const out: Response[] = [];
  for (const e of events) out.push(await send(e));
  return out;
}

async function openSession(dealId: string, stripe: FakeStripe) {
  const res = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
  expect(res.status).toBe(200);
  const sessionId = (await json<{ data: { session_id: string } }>(res)).data.session_id;
  return stripe.pay(sessionId);
}

const endState = async (dealId: string) => {
  const d = (await dealRow(dealId))!;
  const events = await env.DB.prepare(`SELECT type FROM deal_events WHERE deal_id = ? AND actor_role IN ('system', 'stripe') ORDER BY type`).bind(dealId).all<{ type: string }>();
  return {
    status: d.status,
    payment: d.payment_status,
    dispute: d.dispute_status,
    case_reason: d.case_reason,
    refund_due: d.refund_due_cents,
    refunded: d.refunded_cents,
    paid: d.paid_cents,
    events: events.results.map((e) => e.type),
  };
};

const shuffle = <T>(list: T[], seed: number) => {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

describe("one payment, delivered more than once", () => {
  it("checkout.session.completed twice at once, and once more to the promotion's route: applied once", async () => {
    const stripe = fakeStripe();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const paid = await openSession(dealId, stripe);
    const answers = await Promise.all([send(paid.event), send(paid.event), send(paid.event, "/api/v1/promotions/webhook")]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const applied = await Promise.all(answers.map((r) => json<{ applied: boolean }>(r)));
    expect(applied.filter((a) => a.applied)).toHaveLength(1);
    const state = await endState(dealId);
    expect(state).toMatchObject({ status: "paid", payment: "held", paid: 94_500, events: ["paid"] });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM stripe_events WHERE id = ?").bind(paid.event.id).first<{ n: number }>())!.n).toBe(1);
  });

  it("a subscription's session at the platform route goes to promotions (recorded there), touching no deal", async () => {
    const subscriptionSession = {
      id: `evt_${crypto.randomUUID()}`,
      object: "event",
      created: Math.floor(Date.now() / 1000),
      type: "checkout.session.completed",
      data: { object: { id: "cs_sub_1", object: "checkout.session", mode: "subscription", payment_status: "paid", subscription: "sub_unknown_1", metadata: { listing_id: "no-such-listing" } } },
    };
    // Development's secret (no keys): promotions records a subscription of an unknown listing without calling Stripe.
    const res = await deliverPlatform(subscriptionSession);
    expect(res.status).toBe(200);
    expect((await json<{ applied: boolean }>(res)).applied).toBe(false);
    // Recorded by promotions (as unknown): no deal was touched and a repeat is a repeat.
    expect((await env.DB.prepare("SELECT type FROM stripe_events WHERE id = ?").bind(subscriptionSession.id).first<{ type: string }>())!.type).toBe("checkout.session.completed");
  });
});

describe("two payments that cannot both be kept", () => {
  it("two tabs: two sessions of one deal both paid at once — one is kept, the other refunded in full at once", async () => {
    for (const [trial, [a, b]] of OFFSETS.entries()) {
      const stripe = fakeStripe();
      const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
      const first = await openSession(dealId, stripe);
      // The first session expired here (a tab left open an hour): the second tab opens another.
      await env.DB.prepare("UPDATE deal_checkout_sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE deal_id = ?").bind(dealId).run();
      const second = await openSession(dealId, stripe);
      const answers = await Promise.all([after(a, () => send(first.event)), after(b, () => send(second.event))]);
      expect(answers.map((r) => r.status), `trial ${trial}`).toEqual([200, 200]);
      const row = (await dealRow(dealId))!;
      expect([row.status, row.payment_status], `trial ${trial}`).toEqual(["paid", "held"]);
      const loser = row.payment_intent_id === first.paymentIntentId ? second.paymentIntentId : first.paymentIntentId;
      expect(stripe.refunds.map((r) => [r.payment_intent, r.amount]), `trial ${trial}`).toEqual([[loser, 94_500]]);
      vi.restoreAllMocks();
    }
  });

  it("two overlapping deals paid at once: the first applied wins, the other is refunded in full and cancelled (stay_taken)", async () => {
    for (const [trial, [a, b]] of OFFSETS.entries()) {
      const stripe = fakeStripe();
      const one = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: "2027-03-01", moveOut: "2027-05-01" });
      const other = await signUp(`race-renter-${trial}@deals.test`);
      const two = await insertSignedDeal(other.user.id, lister.user.id, { listingId: one.listingId, moveIn: "2027-04-01", moveOut: "2027-06-01" });
      const p1 = await openSession(one.dealId, stripe);
      const res = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${two.dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${other.access_token}` } });
      const p2 = stripe.pay((await json<{ data: { session_id: string } }>(res)).data.session_id);
      const answers = await Promise.all([after(a, () => send(p1.event)), after(b, () => send(p2.event))]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const rows = [(await dealRow(one.dealId))!, (await dealRow(two.dealId))!];
      const winner = rows.find((r) => r.status === "paid");
      const loser = rows.find((r) => r.status !== "paid");
      expect(winner, `trial ${trial}`).toBeDefined();
      expect([loser!.status, loser!.status_reason, loser!.payment_status, loser!.refund_due_cents], `trial ${trial}`).toEqual(["cancelled", "stay_taken", "refunded", loser!.paid_cents]);
      expect(stripe.refunds.map((r) => r.payment_intent)).toEqual([loser!.payment_intent_id]);
      expect(loser!.refunded_cents).toBe(loser!.paid_cents);
      vi.restoreAllMocks();
    }
  }, 120_000);
});

describe("a payment's lifecycle in any order", () => {
  type Make = (p: { dealId: string; paymentIntentId: string; chargeId: string; event: object }) => object[];
  const lifecycles: Record<string, Make> = {
    "paid, card dispute opened, won": (p) => [
      p.event,
      disputeEvent("charge.dispute.created", { id: `dp_${p.dealId}`, charge: p.chargeId, paymentIntent: p.paymentIntentId, amount: 94_500 }),
      disputeEvent("charge.dispute.closed", { id: `dp_${p.dealId}`, charge: p.chargeId, paymentIntent: p.paymentIntentId, amount: 94_500, status: "won" }),
    ],
    "paid, card dispute opened, lost": (p) => [
      p.event,
      disputeEvent("charge.dispute.created", { id: `dp_${p.dealId}`, charge: p.chargeId, paymentIntent: p.paymentIntentId, amount: 94_500 }),
      disputeEvent("charge.dispute.closed", { id: `dp_${p.dealId}`, charge: p.chargeId, paymentIntent: p.paymentIntentId, amount: 94_500, status: "lost" }),
    ],
    "paid, refunded in part then in full from Stripe's dashboard": (p) => [
      p.event,
      chargeRefundedEvent({ id: p.chargeId, amount: 94_500, amount_refunded: 10_000, payment_intent: p.paymentIntentId, transfer_group: p.dealId }),
      chargeRefundedEvent({ id: p.chargeId, amount: 94_500, amount_refunded: 94_500, payment_intent: p.paymentIntentId, transfer_group: p.dealId }),
    ],
  };

  it.each(Object.keys(lifecycles))("%s: shuffled, each twice, and all at once end as in order", async (name) => {
    const make = lifecycles[name]!;
    const fresh = async () => {
      const stripe = fakeStripe();
      const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
      const p = await openSession(dealId, stripe);
      return { dealId, events: make({ dealId, ...p }) };
    };
    const inOrder = await fresh();
    await deliverUntilTaken(inOrder.events);
    const expected = await endState(inOrder.dealId);
    vi.restoreAllMocks();

    for (let seed = 1; seed <= 4; seed++) {
      const s = await fresh();
      await deliverUntilTaken(shuffle(s.events, seed));
      expect(await endState(s.dealId), `shuffled ${seed}`).toEqual(expected);
      vi.restoreAllMocks();
    }
    for (let trial = 0; trial < 3; trial++) {
      const s = await fresh();
      await deliverUntilTaken([...s.events, ...s.events], true);
      expect(await endState(s.dealId), `all twice at once, trial ${trial}`).toEqual(expected);
      vi.restoreAllMocks();
    }
  }, 120_000);
});

describe("two releases at once", () => {
  it('"I have the keys" and the tick at the same instant: one transfer, released once', async () => {
    for (const [trial, [a, b]] of OFFSETS.entries()) {
      const stripe = fakeStripe();
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: yesterday, moveOut: "2027-12-01" });
      const p = await openSession(dealId, stripe);
      expect((await send(p.event)).status).toBe(200);
      const heldUntil = String((await dealRow(dealId))!.held_until);
      const [keys, tick] = await Promise.all([
        after(a, () => fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/moved-in`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } })),
        after(b, () => fetchWithBindings(STRIPE_KEYS, "/api/v1/dev/deals/tick", { method: "POST", body: JSON.stringify({ now: heldUntil }), headers: { "content-type": "application/json" } })),
      ]);
      expect(tick.status).toBe(200);
      expect([200, 409]).toContain(keys.status);
      expect(stripe.transfers.filter((t) => t.transfer_group === dealId), `trial ${trial}`).toHaveLength(1);
      const row = (await dealRow(dealId))!;
      expect([row.status, row.payment_status, row.transferred_cents], `trial ${trial}`).toEqual(["released", "released", 90_000]);
      const released = await env.DB.prepare("SELECT count(*) AS n FROM deal_events WHERE deal_id = ? AND type = 'released'").bind(dealId).first<{ n: number }>();
      expect(released!.n, `trial ${trial}`).toBe(1);
      vi.restoreAllMocks();
    }
  }, 120_000);
});

describe("a problem at the same instant as the release", () => {
  it("the renter's report against the tick: the deal ends disputed and nothing stays with the lister", async () => {
    for (const [trial, [a, b]] of OFFSETS.entries()) {
      const stripe = fakeStripe();
      const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
      const p = await openSession(dealId, stripe);
      expect((await send(p.event)).status).toBe(200);
      const heldUntil = String((await dealRow(dealId))!.held_until);
      const [report, tick] = await Promise.all([
        after(a, () =>
          fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/problem`, {
            method: "POST",
            body: JSON.stringify({ kind: "cant_get_in", text: "Locked out" }),
            headers: { Authorization: `Bearer ${renter.access_token}`, "content-type": "application/json" },
          }),
        ),
        after(b, () => fetchWithBindings(STRIPE_KEYS, "/api/v1/dev/deals/tick", { method: "POST", body: JSON.stringify({ now: heldUntil }), headers: { "content-type": "application/json" } })),
      ]);
      expect(tick.status).toBe(200);
      const row = (await dealRow(dealId))!;
      const held = stripe.transfers.filter((t) => t.transfer_group === dealId).reduce((sum, t) => sum + t.amount - t.amount_reversed, 0);
      if (report.status === 200) {
        // The report won: whatever the release sent is back with the platform.
        expect([row.status, held], `trial ${trial}`).toEqual(["disputed", 0]);
        expect((row.transferred_cents as number) - (row.transfer_reversed_cents as number), `trial ${trial}`).toBe(0);
      } else {
        // The release won: the report came too late (409), the lister holds the rent.
        expect(report.status, `trial ${trial}`).toBe(409);
        expect([row.status, held], `trial ${trial}`).toEqual(["released", 90_000]);
      }
      vi.restoreAllMocks();
    }
  }, 120_000);
});

describe("refused deliveries change nothing", () => {
  it("a bad signature is 400 and a dispute before its payment is 409, unrecorded", async () => {
    const stripe = fakeStripe();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const p = await openSession(dealId, stripe);
    const forged = await deliverPlatform(p.event, { secret: "whsec_wrong", bindings: STRIPE_KEYS });
    expect(forged.status).toBe(400);
    const early = disputeEvent("charge.dispute.created", { id: "dp_early", charge: p.chargeId, paymentIntent: p.paymentIntentId, amount: 94_500 });
    const res = await send(early);
    expect(res.status).toBe(409);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/not recorded yet/);
    expect(await env.DB.prepare("SELECT id FROM stripe_events WHERE id = ?").bind(early.id).first()).toBeNull();
    expect((await api("/api/v1/payments/webhook", { method: "POST", body: "{}" })).status).toBe(400);
  });
});

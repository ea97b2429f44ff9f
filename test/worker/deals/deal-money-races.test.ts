/**
 * Money that moves once (docs/decisions/035): every pair of the deal's money transitions, started together
 * at a sweep of head starts, through the real routes with the real Stripe SDK against the fake Stripe API.
 * After each trial, per deal, whatever the order: what Stripe transferred (net of reversals) plus what it
 * refunded never exceeds what the renter paid; a released deal's lister holds exactly the rent less the
 * rent that went back; our record says what Stripe says; no claim is left behind; no answer is a 5xx.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  STRIPE_KEYS,
  adminLogin,
  chargeRefundedEvent,
  dealRow,
  deliverPlatform,
  disputeEvent,
  fakeStripe,
  fetchWithBindings,
  insertPaidDeal,
  insertParty,
  moneyAtStripe,
  readyPayouts,
  stripeEvent,
  type FakeStripe,
  type PaidDealOptions,
} from "../helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

const PAID = 94_500;
const RENT = 90_000;

const ACTIONS = ["release", "keys", "lister_cancel", "renter_cancel", "decision", "lapse", "resolve", "card_dispute", "refund_event", "transfer_event"] as const;
type Action = (typeof ACTIONS)[number];

/** What each action needs of the deal before it can do anything (a pair's deal meets both). */
const NEEDS: Record<Action, PaidDealOptions> = {
  release: { heldPast: true },
  keys: { moveInPast: true },
  lister_cancel: {},
  renter_cancel: {},
  decision: { cancellationDueInMs: 60_000 },
  lapse: { cancellationDueInMs: 60_000 },
  resolve: { disputed: true },
  card_dispute: {},
  refund_event: {},
  transfer_event: {},
};

/** Head starts in database round trips ([first, second]): sweeps how two requests' reads and writes interleave. */
const HEAD_STARTS = [
  [0, 0],
  [1, 0],
  [0, 1],
  [3, 0],
  [0, 3],
] as const;

const after = async <T>(n: number, send: () => Promise<T>) => {
  for (let i = 0; i < n; i++) await env.DB.prepare("SELECT 1").first();
  return send();
};

interface Trial {
  stripe: FakeStripe;
  dealId: string;
  paymentIntentId: string;
  chargeId: string;
  renter: string;
  lister: string;
  admin: string;
}

const send = (event: object) => deliverPlatform(event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
const call = (token: string, path: string, body?: unknown) =>
  fetchWithBindings(STRIPE_KEYS, path, { method: "POST", headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" }, ...(body !== undefined && { body: JSON.stringify(body) }) });
const tick = (nowMs: number) =>
  fetchWithBindings(STRIPE_KEYS, "/api/v1/dev/deals/tick", { method: "POST", body: JSON.stringify({ now: new Date(nowMs).toISOString() }), headers: { "content-type": "application/json" } });

/** One action, as the party, staff, cron or Stripe makes it; answers the HTTP statuses it got. */
async function act(action: Action, t: Trial): Promise<number[]> {
  const d = `/api/v1/deals/${t.dealId}`;
  const row = (await dealRow(t.dealId))!;
  switch (action) {
    case "release":
      return [(await tick(Math.max(Date.now(), Date.parse(String(row.held_until))) + 1000)).status];
    case "keys":
      return [(await call(t.renter, `${d}/moved-in`)).status];
    case "lister_cancel":
      return [(await call(t.lister, `${d}/cancel`, { reason: "The lease fell through" })).status];
    case "renter_cancel":
      return [(await call(t.renter, `${d}/cancel`, {})).status];
    case "decision":
      return [(await call(t.lister, `${d}/cancellation-refund`, { refund_cents: 30_000 })).status];
    case "lapse":
      return [(await tick(Date.parse(String(row.cancel_decide_by ?? new Date().toISOString())) + 1000)).status];
    case "resolve":
      return [(await call(t.admin, `/api/v1/admin/deals/${t.dealId}/resolve`, { refund_cents: 20_000 })).status];
    case "card_dispute":
      return [(await send(disputeEvent("charge.dispute.created", { id: `dp_${t.dealId}`, charge: t.chargeId, paymentIntent: t.paymentIntentId, amount: PAID }))).status];
    case "refund_event": {
      // Support refunds $100 from Stripe's dashboard; Stripe then sends charge.refunded.
      const charge = t.stripe.charges.get(t.chargeId)!;
      charge.amount_refunded += 10_000;
      t.stripe.refunds.push({ id: `re_dash_${crypto.randomUUID().slice(0, 8)}`, object: "refund", amount: 10_000, payment_intent: t.paymentIntentId, status: "succeeded" });
      return [(await send(chargeRefundedEvent({ id: t.chargeId, amount: PAID, amount_refunded: charge.amount_refunded, payment_intent: t.paymentIntentId, transfer_group: t.dealId }))).status];
    }
    case "transfer_event": {
      // Stripe's transfer.created as soon as the deal's transfer group holds a transfer (while the other
      // action may still be settling it), or nothing when none appears within 40 round trips.
      const group = () => t.stripe.transfers.filter((x) => x.transfer_group === t.dealId);
      for (let i = 0; i < 40 && group().length === 0; i++) await env.DB.prepare("SELECT 1").first();
      const statuses: number[] = [];
      for (const transfer of group()) statuses.push((await send(stripeEvent("transfer.created", { ...transfer }))).status);
      return statuses;
    }
  }
}

/** The invariants of one deal's money, read from the fake Stripe and our record. */
async function expectMoneyHeld(t: Trial, label: string) {
  const row = (await dealRow(t.dealId))!;
  const stripe = moneyAtStripe(t.stripe, t.dealId, t.paymentIntentId);
  const state = `${label}: ${row.status}/${row.payment_status}, Stripe transferred ${stripe.transferred} + refunded ${stripe.refunded} of ${PAID}`;
  expect(stripe.transferred + stripe.refunded, state).toBeLessThanOrEqual(PAID);
  if (row.payment_status === "released") {
    const rentBack = stripe.refunded >= PAID ? RENT : Math.min(stripe.refunded, RENT);
    expect(stripe.transferred, `${state}: a released deal's lister holds the rent less the rent that went back`).toBe(RENT - rentBack);
  }
  expect(row.claim_id ?? null, `${state}: no claim left behind`).toBeNull();
  expect(Number(row.refunded_cents), `${state}: our record of refunds`).toBe(stripe.refunded);
  expect(Number(row.transferred_cents) - Number(row.transfer_reversed_cents), `${state}: our record of transfers`).toBe(stripe.transferred);
}

const pairs: [Action, Action][] = [];
for (const [i, a] of ACTIONS.entries()) for (const b of ACTIONS.slice(i)) pairs.push([a, b]);

describe("every pair of money transitions, at once", () => {
  it.each(pairs)("%s and %s: transferred + refunded <= paid, and a release pays exactly the rest of the rent", async (a, b) => {
    const renter = await insertParty("Rae");
    const lister = await insertParty("Lou");
    await readyPayouts(lister.id);
    const admin = await adminLogin();
    for (const [trial, [headA, headB]] of HEAD_STARTS.entries()) {
      const stripe = fakeStripe();
      const deal = await insertPaidDeal(stripe, renter.id, lister.id, { ...NEEDS[a], ...NEEDS[b] });
      const t: Trial = { stripe, ...deal, renter: renter.token, lister: lister.token, admin };
      const [sa, sb] = await Promise.all([after(headA, () => act(a, t)), after(headB, () => act(b, t))]);
      const label = `${a} (+${headA}) and ${b} (+${headB}), trial ${trial}`;
      for (const status of [...sa, ...sb]) expect([200, 201, 409], `${label}: answered ${status}`).toContain(status);
      await expectMoneyHeld(t, label);
      vi.restoreAllMocks();
    }
  }, 120_000);
});

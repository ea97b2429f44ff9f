/**
 * Stripe events delivered the way Stripe really does: two at the same instant, twice, out of order
 * (docs/decisions/013). Each test signs real events like the webhook's other tests and compares
 * the END STATE (the listing's promotion columns, the subscription record, the billing rows, the
 * recorded event ids, and whether a new checkout is possible) with the same events delivered one
 * after the other.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../../worker/db/client";
import { DEV_WEBHOOK_SECRET, getConfig } from "../../../worker/env";
import { startCheckout } from "../../../worker/services/promotions";
import { suspendUser } from "../../../worker/services/reports";
import { testCheckoutCompleted, testInvoice, type TestSubscription } from "../../../worker/services/promotions/events";
import { signWebhookPayload } from "../../../worker/services/stripe/webhook";
import { adminLogin, api, authed, insertListing, json, type Session, signUp } from "../helpers";

/**
 * Waits `n` database round trips before sending: sweeps where one request's reads fall among the
 * other's (two requests sent at the same instant otherwise tend to interleave the same way).
 */
const after = async <T>(n: number, send: () => Promise<T>) => {
  for (let i = 0; i < n; i++) await env.DB.prepare("SELECT 1").first();
  return send();
};

/** Concurrent trials of each pair of events (each on a fresh listing): the second's head start, in database round trips, for each. */
const PAIR_OFFSETS = [
  [0, 0],
  [0, 0],
  [1, 0],
  [0, 1],
  [3, 0],
  [0, 3],
] as const;
/** Trials of a whole lifecycle delivered twice, all at once. */
const LIFECYCLE_TRIALS = 6;

const DAY_S = 86_400;
const start = Math.floor(Date.now() / 1000);
let owner: Session;
let adminToken: string;
let counter = 0;
const freshId = (prefix: string) => `${prefix}${++counter}`;

beforeAll(async () => {
  owner = await signUp("promo-race@ufl.edu");
  adminToken = await adminLogin();
});

async function deliver(event: object) {
  const payload = JSON.stringify(event);
  const signature = await signWebhookPayload(DEV_WEBHOOK_SECRET, payload);
  return api("/api/v1/promotions/webhook", { method: "POST", body: payload, headers: { "stripe-signature": signature, "content-type": "application/json" } });
}

const subscriptionEvent = (type: "customer.subscription.updated" | "customer.subscription.deleted", s: TestSubscription, fields: Record<string, unknown>) => ({
  id: `evt_${crypto.randomUUID()}`,
  object: "event",
  created: start + 60,
  type,
  data: { object: { id: s.subscriptionId, object: "subscription", status: "active", cancel_at_period_end: false, metadata: { listing_id: s.listingId, user_id: s.userId }, ...fields } },
});

/**
 * The lifecycle events of one subscription. The first invoice's period ends an hour after a week
 * from the checkout, so "7 days from now" and "to the period end" differ; the failed invoice is the
 * next period's; `renewed` pays the period after the first.
 */
const events = {
  completed: (s: TestSubscription) => testCheckoutCompleted(`cs_${s.listingId}`, s, start),
  paid: (s: TestSubscription) => testInvoice("invoice.paid", s, start + 3600, start),
  renewed: (s: TestSubscription) => testInvoice("invoice.paid", s, start + 3600 + 7 * DAY_S, start + 7 * DAY_S),
  failed: (s: TestSubscription) => testInvoice("invoice.payment_failed", s, start + 3600 + 7 * DAY_S, start),
  cancelled: (s: TestSubscription) => subscriptionEvent("customer.subscription.updated", s, { cancel_at_period_end: true }),
  deleted: (s: TestSubscription) => subscriptionEvent("customer.subscription.deleted", s, { status: "canceled" }),
  completedUnpaid: (s: TestSubscription) => testCheckoutCompleted(`cs_${s.listingId}`, s, start, "checkout.session.completed", "unpaid"),
  asyncSucceeded: (s: TestSubscription) => testCheckoutCompleted(`cs_${s.listingId}`, s, start, "checkout.session.async_payment_succeeded", "paid"),
  asyncFailed: (s: TestSubscription) => testCheckoutCompleted(`cs_${s.listingId}`, s, start, "checkout.session.async_payment_failed", "unpaid"),
};
type Name = keyof typeof events;
const PAIR_EVENTS: Name[] = ["completed", "paid", "failed", "cancelled", "deleted", "completedUnpaid", "asyncSucceeded", "asyncFailed"];
const pairs = PAIR_EVENTS.flatMap((a, i) => PAIR_EVENTS.slice(i + 1).map((b) => [a, b] as const));

interface EndState {
  listing: { promoted: boolean; promotion_end: number | null; promotion_source: string | null; auto_renew: number; renews: boolean; pending_days: number | null };
  subscription: Record<string, unknown> | null;
  billing: string[];
  eventsRecorded: number;
  state: string;
  checkout: number;
}

/** Everything the events may have changed, in a form comparable across listings (ids and "now" taken out). */
async function endState(listingId: string, eventIds: string[]): Promise<EndState> {
  const row = (await env.DB.prepare(
    "SELECT promotion_start, promotion_end, promotion_source, auto_renew, stripe_subscription_id, promotion_pending_days FROM listings WHERE id = ?",
  )
    .bind(listingId)
    .first<{ promotion_start: string | null; promotion_end: string | null; promotion_source: string | null; auto_renew: number; stripe_subscription_id: string | null; promotion_pending_days: number | null }>())!;
  const sub = await env.DB.prepare(
    "SELECT status, current_period_end, failed_period_end, cancel_at_period_end, checked_out, awaiting_payment, ended, duplicate FROM stripe_subscriptions WHERE listing_id = ?",
  )
    .bind(listingId)
    .first();
  const billing = (await env.DB.prepare("SELECT status, period_start FROM billing_history WHERE listing_id = ? ORDER BY period_start").bind(listingId).all<{ status: string; period_start: number }>()).results;
  const recorded = await env.DB.prepare(`SELECT COUNT(*) AS n FROM stripe_events WHERE id IN (${eventIds.map(() => "?").join(",")})`)
    .bind(...eventIds)
    .first<{ n: number }>();
  const status = await json<{ data: { state: string } }>(await api(`/api/v1/promotions/status/${listingId}`, authed(owner.access_token)));
  // Whether a new checkout is possible now (then closed again, so it does not count as open). The
  // service is called directly: the route's per-user write budget (60 a minute) is not what is tested.
  await env.DB.prepare("UPDATE checkout_sessions SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '-2 minutes') WHERE user_id = ?").bind(owner.user.id).run();
  const checkout = await startCheckout(createDb(env), getConfig(env), owner.user, listingId, "http://localhost").then(
    () => 200,
    (err: { status?: number }) => err.status ?? 500,
  );
  await env.DB.prepare("UPDATE checkout_sessions SET completed_at = 'closed by test' WHERE listing_id = ? AND completed_at IS NULL").bind(listingId).run();
  return {
    listing: {
      promoted: !!row.promotion_end && Date.parse(row.promotion_end) > Date.now(),
      promotion_end: row.promotion_end ? Date.parse(row.promotion_end) : null,
      promotion_source: row.promotion_source,
      auto_renew: row.auto_renew,
      renews: row.stripe_subscription_id !== null,
      pending_days: row.promotion_pending_days,
    },
    subscription: sub,
    billing: billing.map((b) => `${b.status}@${b.period_start}`),
    eventsRecorded: recorded!.n,
    state: status.data.state,
    checkout,
  };
}

/**
 * The same end state: the promotion's end is the paid period's (exact) or "7 days from the checkout"
 * (a moment that differs between two listings by the time between their runs, so within 2 minutes).
 */
function expectSameEnd(actual: EndState, expected: EndState, label: string) {
  const { promotion_end: a, ...restA } = actual.listing;
  const { promotion_end: e, ...restE } = expected.listing;
  expect({ ...actual, listing: restA }, label).toEqual({ ...expected, listing: restE });
  expect(a === null, label).toBe(e === null);
  if (a !== null && e !== null) expect(Math.abs(a - e), label).toBeLessThanOrEqual(120_000);
}

async function freshSubscription(prefix: string): Promise<TestSubscription> {
  const id = freshId(prefix);
  await insertListing(owner.user.id, id);
  return { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
}

/** A new checkout must be possible exactly when the subscription no longer holds the listing. */
function expectCheckoutRule(state: EndState, label: string) {
  const sub = state.subscription as { ended: number; checked_out: number; current_period_end: string | null; awaiting_payment: number; cancel_at_period_end: number } | null;
  const holds = !!sub && !sub.ended && (!!sub.checked_out || !!sub.current_period_end || !!sub.awaiting_payment);
  expect(state.checkout, label).toBe(holds ? 409 : 200);
}

describe("every pair of lifecycle events at the same instant ends as in order", () => {
  it.each(pairs)("%s + %s", async (a, b) => {
    const inOrder = await freshSubscription("seq");
    const ids: string[] = [];
    for (const name of [a, b]) {
      const event = events[name](inOrder);
      ids.push(event.id);
      expect((await deliver(event)).status, name).toBe(200);
    }
    const expected = await endState(inOrder.listingId, ids);
    expect(expected.eventsRecorded).toBe(2);
    expectCheckoutRule(expected, `${a} then ${b}`);

    for (const [trial, offsets] of PAIR_OFFSETS.entries()) {
      const s = await freshSubscription("race");
      const pair = [events[a](s), events[b](s)];
      const answers = await Promise.all(pair.map((e, i) => after(offsets[i]!, () => deliver(e))));
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const actual = await endState(
        s.listingId,
        pair.map((e) => e.id),
      );
      expectSameEnd(actual, expected, `${a} + ${b} at once, trial ${trial + 1}`);
    }
  }, 120_000);
});

describe("a lifecycle delivered twice", () => {
  const lifecycles: Record<string, Name[]> = {
    "bought, renewed, cancelled": ["completed", "paid", "renewed", "cancelled"],
    "bought, renewal failed, deleted": ["completed", "paid", "failed", "deleted"],
    "bought with a delayed payment that arrived, then cancelled": ["completedUnpaid", "asyncSucceeded", "paid", "cancelled"],
    "bought with a delayed payment that failed": ["completedUnpaid", "asyncFailed"],
  };

  it.each(Object.entries(lifecycles))("%s: each event twice at once, and every event twice all at once", async (_label, names) => {
    const inOrder = await freshSubscription("life");
    const ids: string[] = [];
    for (const name of names) {
      const event = events[name](inOrder);
      ids.push(event.id);
      expect((await deliver(event)).status).toBe(200);
    }
    const expected = await endState(inOrder.listingId, ids);
    expect(expected.eventsRecorded).toBe(names.length);

    // Each event delivered twice at the same instant (the same event id), one event after another.
    const twice = await freshSubscription("twice");
    const twiceEvents = names.map((n) => events[n](twice));
    for (const event of twiceEvents) {
      const answers = await Promise.all([deliver(event), deliver(event)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const applied = await Promise.all(answers.map((r) => json<{ applied: boolean }>(r)));
      expect(applied.filter((x) => x.applied)).toHaveLength(1);
    }
    expectSameEnd(
      await endState(
        twice.listingId,
        twiceEvents.map((e) => e.id),
      ),
      expected,
      "each event twice at once",
    );

    // Every event of the lifecycle twice, all at the same instant.
    for (let trial = 0; trial < LIFECYCLE_TRIALS; trial++) {
      const s = await freshSubscription("burst");
      const burst = names.map((n) => events[n](s));
      const answers = await Promise.all([...burst, ...burst].map(deliver));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expectSameEnd(
        await endState(
          s.listingId,
          burst.map((e) => e.id),
        ),
        expected,
        `all twice at once, trial ${trial + 1}`,
      );
    }
  }, 120_000);
});

describe("the owner and staff at the same instant as an event", () => {
  /** Offsets of the second request against the first, in database round trips, each side. */
  const OFFSETS = [0, 1, 2, 3, 4, 6, 8, 10].flatMap((n) => [
    [n, 0],
    [0, n],
  ]);

  it("Cancel at the same instant as invoice.paid: the cancel is kept and the paid period counts", async () => {
    for (const [trial, [hookAfter, cancelAfter]] of OFFSETS.entries()) {
      const s = await freshSubscription("cancel");
      expect((await deliver(events.completed(s))).status).toBe(200);
      const paid = events.paid(s);
      const [hook, cancel] = await Promise.all([
        after(hookAfter!, () => deliver(paid)),
        after(cancelAfter!, () => api(`/api/v1/promotions/cancel/${s.listingId}`, authed(owner.access_token, { method: "POST" }))),
      ]);
      expect([hook.status, cancel.status]).toEqual([200, 200]);
      const row = await env.DB.prepare("SELECT promotion_end, auto_renew, stripe_subscription_id FROM listings WHERE id = ?").bind(s.listingId).first();
      expect(row, `trial ${trial + 1}`).toEqual({ promotion_end: new Date((start + 3600 + 7 * DAY_S) * 1000).toISOString(), auto_renew: 0, stripe_subscription_id: null });
      expect(await env.DB.prepare("SELECT cancel_at_period_end, ended FROM stripe_subscriptions WHERE id = ?").bind(s.subscriptionId).first()).toEqual({ cancel_at_period_end: 1, ended: 0 });
    }
  }, 120_000);

  it("approval at the same instant as the checkout of a pending listing: the promotion starts", async () => {
    for (const [trial, [approveAfter, hookAfter]] of OFFSETS.entries()) {
      const id = freshId("approve");
      await insertListing(owner.user.id, id, { verification_status: "pending" });
      const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
      const [approve, hook] = await Promise.all([
        after(approveAfter!, () =>
          api(`/api/v1/admin/listings/${id}/verify`, authed(adminToken, { method: "PATCH", body: JSON.stringify({ status: "approved" }), headers: { "content-type": "application/json" } })),
        ),
        after(hookAfter!, () => deliver(events.completed(s))),
      ]);
      expect([approve.status, hook.status]).toEqual([200, 200]);
      const row = (await env.DB.prepare("SELECT verification_status, promotion_end, promotion_source, promotion_pending_days, auto_renew FROM listings WHERE id = ?")
        .bind(id)
        .first<{ verification_status: string; promotion_end: string | null; promotion_source: string | null; promotion_pending_days: number | null; auto_renew: number }>())!;
      expect(row, `trial ${trial + 1}`).toMatchObject({ verification_status: "approved", promotion_source: "stripe", promotion_pending_days: null, auto_renew: 1 });
      expect(Date.parse(row.promotion_end!) - Date.now()).toBeGreaterThan(6 * DAY_S * 1000);
    }
  }, 120_000);

  it("suspension at the same instant as the owner's checkout completing: the subscription ends and nothing is promoted", async () => {
    for (const [trial, [suspendAfter, hookAfter]] of OFFSETS.slice(0, 8).entries()) {
      const user = await signUp(`promo-race-suspended-${trial}@ufl.edu`);
      const id = freshId("suspendrace");
      await insertListing(user.user.id, id);
      const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: user.user.id };
      const [, hook] = await Promise.all([after(suspendAfter!, () => suspendUser(createDb(env), env, "test-admin", user.user.id)), after(hookAfter!, () => deliver(events.completed(s)))]);
      expect(hook.status).toBe(200);
      expect(await env.DB.prepare("SELECT ended FROM stripe_subscriptions WHERE id = ?").bind(s.subscriptionId).first(), `trial ${trial + 1}`).toEqual({ ended: 1 });
      const row = await env.DB.prepare("SELECT moderation_status, promotion_end, promotion_pending_days, stripe_subscription_id, auto_renew FROM listings WHERE id = ?").bind(id).first();
      expect(row, `trial ${trial + 1}`).toEqual({ moderation_status: "suspended", promotion_end: null, promotion_pending_days: null, stripe_subscription_id: null, auto_renew: 0 });
    }
  }, 120_000);

  it("approve all at the same instant as the checkout of a pending listing: the promotion starts", async () => {
    for (const [trial, [approveAfter, hookAfter]] of OFFSETS.entries()) {
      const id = freshId("approveall");
      await insertListing(owner.user.id, id, { verification_status: "pending" });
      const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
      const [approve, hook] = await Promise.all([
        after(approveAfter!, () => api("/api/v1/admin/listings/verify-all", authed(adminToken, { method: "POST" }))),
        after(hookAfter!, () => deliver(events.completed(s))),
      ]);
      expect([approve.status, hook.status]).toEqual([200, 200]);
      const row = (await env.DB.prepare("SELECT verification_status, promotion_end, promotion_source, promotion_pending_days, auto_renew FROM listings WHERE id = ?")
        .bind(id)
        .first<{ verification_status: string; promotion_end: string | null; promotion_source: string | null; promotion_pending_days: number | null; auto_renew: number }>())!;
      expect(row, `trial ${trial + 1}`).toMatchObject({ verification_status: "approved", promotion_source: "stripe", promotion_pending_days: null, auto_renew: 1 });
      expect(Date.parse(row.promotion_end!) - Date.now()).toBeGreaterThan(6 * DAY_S * 1000);
    }
  }, 120_000);
});

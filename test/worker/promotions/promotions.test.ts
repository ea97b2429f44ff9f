/**
 * Paid promotion: checkout (a fake Stripe API behind a fetch spy, and the development test
 * checkout), the signed webhook (signatures, replays, any order of events), owner-only calls,
 * cancel, approval of a pending listing, the cron, and the development-only routes.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import entry from "../../../worker/index";
import { createApp } from "../../../worker/app";
import { createDb } from "../../../worker/db/client";
import { DEV_WEBHOOK_SECRET } from "../../../worker/env";
import { testCheckoutCompleted, testInvoice, type TestSubscription } from "../../../worker/services/promotions/events";
import { signWebhookPayload } from "../../../worker/services/stripe/webhook";
import type { BillingHistoryEntry, PromotedListing, PromotionStatus } from "../../../worker/contract/promotions";
import { suspendUser } from "../../../worker/services/reports";
import { signAvailabilityToken } from "../../../worker/services/tokens";
import { adminLogin, api, authed, drainQueues, insertListing, json, post, type Session, signUp } from "../helpers";

const DAY = 86_400_000;
const nowS = () => Math.floor(Date.now() / 1000);

let owner: Session;
let other: Session;
let adminToken: string;
let counter = 0;
const freshId = (prefix: string) => `${prefix}${++counter}`;

beforeAll(async () => {
  owner = await signUp("promo-owner@ufl.edu");
  other = await signUp("promo-other@ufl.edu");
  adminToken = await adminLogin();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const as = (s: Session, path: string, init: RequestInit = {}) =>
  api(path, authed(s.access_token, { ...init, headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) } }));

/** The worker with other bindings (Stripe keys, production), like a deploy with those secrets. */
async function fetchWith(bindings: Record<string, string>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await entry.fetch(new Request(`http://localhost${path}`, init) as Request<unknown, IncomingRequestCfProperties>, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function deliver(event: object, { secret = DEV_WEBHOOK_SECRET, timestamp }: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  const signature = await signWebhookPayload(secret, payload, timestamp);
  return api("/api/v1/promotions/webhook", { method: "POST", body: payload, headers: { "stripe-signature": signature, "content-type": "application/json" } });
}

const subscriptionEvent = (type: "customer.subscription.updated" | "customer.subscription.deleted", s: TestSubscription, fields: Record<string, unknown> = {}) => ({
  id: `evt_${crypto.randomUUID()}`,
  object: "event",
  created: nowS(),
  type,
  data: { object: { id: s.subscriptionId, object: "subscription", status: "active", cancel_at_period_end: false, metadata: { listing_id: s.listingId, user_id: s.userId }, ...fields } },
});

const statusOf = async (listingId: string, s: Session = owner) => (await json<{ data: PromotionStatus }>(await as(s, `/api/v1/promotions/status/${listingId}`))).data;
const listingRow = (id: string) =>
  env.DB.prepare("SELECT promotion_start, promotion_end, promotion_source, auto_renew, stripe_subscription_id, promotion_pending_days FROM listings WHERE id = ?")
    .bind(id)
    .first<{ promotion_start: string | null; promotion_end: string | null; promotion_source: string | null; auto_renew: number; stripe_subscription_id: string | null; promotion_pending_days: number | null }>();
const billingRows = async (listingId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM billing_history WHERE listing_id = ?").bind(listingId).first<{ n: number }>())!.n;

/**
 * Earlier sessions of this file's owner are moved a minute back: the checkout rate cap (10 new
 * sessions a minute) is tested on its own, and this file buys more often than a person would.
 */
const ageCheckoutSessions = (userId: string) =>
  env.DB.prepare("UPDATE checkout_sessions SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '-2 minutes') WHERE user_id = ?").bind(userId).run();

/** Checkout through the built-in test checkout: the session, then Pay. */
async function buyWithTestCheckout(listingId: string) {
  await ageCheckoutSessions(owner.user.id);
  const res = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: listingId }) });
  expect(res.status).toBe(200);
  const { data } = await json<{ data: { checkout_url: string; session_id: string } }>(res);
  const paid = await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" });
  expect(paid.status).toBe(303);
  return { ...data, location: paid.headers.get("location") };
}

describe("checkout with Stripe keys (fake Stripe API)", () => {
  const keys = { STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: "whsec_fake_secret" };

  function fakeStripe() {
    const calls: { method: string; url: URL; form: URLSearchParams; auth: string | null }[] = [];
    const sessionId = `cs_test_fake${++counter}`;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.hostname !== "api.stripe.com") throw new Error(`unexpected outbound request to ${url.hostname}`);
      calls.push({ method: request.method, url, form: new URLSearchParams(await request.text()), auth: request.headers.get("authorization") });
      const answer = (body: object) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", "request-id": "req_fake" } });
      if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        return answer({ id: sessionId, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${sessionId}` });
      }
      const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (request.method === "POST" && sub) return answer({ id: sub[1], object: "subscription", status: "active", cancel_at_period_end: true });
      if (request.method === "DELETE" && sub) return answer({ id: sub[1], object: "subscription", status: "canceled" });
      return new Response(JSON.stringify({ error: { message: "not faked" } }), { status: 404, headers: { "content-type": "application/json" } });
    });
    return calls;
  }

  it("creates a subscription-mode Checkout session with the plan's price, metadata and return addresses", async () => {
    const calls = fakeStripe();
    const id = freshId("sk");
    await insertListing(owner.user.id, id);
    const res = await fetchWith(keys, "/api/v1/promotions/create-checkout-session", {
      method: "POST",
      body: JSON.stringify({ listing_id: id }),
      headers: { "content-type": "application/json", Authorization: `Bearer ${owner.access_token}` },
    });
    expect(res.status).toBe(200);
    const { data } = await json<{ data: { checkout_url: string; session_id: string } }>(res);
    expect(data.session_id).toMatch(/^cs_test_fake\d+$/);
    expect(data.checkout_url).toBe(`https://checkout.stripe.com/c/pay/${data.session_id}`);
    expect(calls).toHaveLength(1);
    const { form, auth } = calls[0]!;
    expect(auth).toBe("Bearer sk_test_fake");
    expect(Object.fromEntries(form)).toMatchObject({
      mode: "subscription",
      "metadata[listing_id]": id,
      "metadata[user_id]": owner.user.id,
      "subscription_data[metadata][listing_id]": id,
      "subscription_data[metadata][user_id]": owner.user.id,
      client_reference_id: id,
      success_url: `http://localhost/profile?promotion_success=true&listing_id=${id}`,
      cancel_url: `http://localhost/promote?listing_id=${id}`,
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "500",
      "line_items[0][price_data][recurring][interval]": "week",
    });
    expect(form.get("line_items[0][price_data][product_data][name]")).toContain("Weekly Promotion");
  });

  it("uses STRIPE_PRICE_ID when set", async () => {
    const calls = fakeStripe();
    const id = freshId("sk");
    await insertListing(owner.user.id, id);
    const res = await fetchWith({ ...keys, STRIPE_PRICE_ID: "price_weekly" }, "/api/v1/promotions/create-checkout-session", {
      method: "POST",
      body: JSON.stringify({ listing_id: id }),
      headers: { "content-type": "application/json", Authorization: `Bearer ${owner.access_token}` },
    });
    expect(res.status).toBe(200);
    expect(calls[0]!.form.get("line_items[0][price]")).toBe("price_weekly");
    expect(calls[0]!.form.has("line_items[0][price_data][unit_amount]")).toBe(false);
  });

  it("cancel tells Stripe to stop at the period end, and the promotion keeps its end", async () => {
    const id = freshId("sk");
    await insertListing(owner.user.id, id);
    const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
    const start = nowS();
    for (const event of [testCheckoutCompleted("cs_x", s, start), testInvoice("invoice.paid", s, start, start)]) {
      const payload = JSON.stringify(event);
      const res = await fetchWith(keys, "/api/v1/promotions/webhook", {
        method: "POST",
        body: payload,
        headers: { "stripe-signature": await signWebhookPayload(keys.STRIPE_WEBHOOK_SECRET, payload) },
      });
      expect(res.status).toBe(200);
    }
    const before = await listingRow(id);
    expect(before).toMatchObject({ auto_renew: 1, stripe_subscription_id: s.subscriptionId, promotion_source: "stripe" });
    const calls = fakeStripe();
    const res = await fetchWith(keys, `/api/v1/promotions/cancel/${id}`, { method: "POST", headers: { Authorization: `Bearer ${owner.access_token}` } });
    expect(res.status).toBe(200);
    expect((await json<{ data: PromotionStatus }>(res)).data).toMatchObject({ promoted: true, auto_renew: false, state: "cancelled", promotion_end: before!.promotion_end });
    expect(calls.map((c) => [c.method, c.url.pathname, c.form.get("cancel_at_period_end")])).toEqual([["POST", `/v1/subscriptions/${s.subscriptionId}`, "true"]]);
    expect(await listingRow(id)).toMatchObject({ auto_renew: 0, stripe_subscription_id: null, promotion_end: before!.promotion_end });
  });
});

const STRIPE_KEYS = { STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: "whsec_fake_secret" };

/**
 * A listing of `userId` with a live subscription (its checkout event delivered with Stripe keys), and
 * a fake Stripe behind a fetch spy from then on: the calls it received, as "METHOD /path".
 */
async function listingWithLiveSubscription(userId: string, id: string) {
  await insertListing(userId, id);
  const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId };
  const payload = JSON.stringify(testCheckoutCompleted(`cs_${id}`, s, nowS()));
  const hook = await fetchWith(STRIPE_KEYS, "/api/v1/promotions/webhook", {
    method: "POST",
    body: payload,
    headers: { "stripe-signature": await signWebhookPayload(STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, payload) },
  });
  expect(hook.status).toBe(200);
  const stripeCalls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname !== "api.stripe.com") throw new Error(`unexpected outbound request to ${url.hostname}`);
    stripeCalls.push(`${request.method} ${url.pathname}`);
    return new Response(JSON.stringify({ id: s.subscriptionId, object: "subscription", status: "canceled" }), { headers: { "content-type": "application/json" } });
  });
  return { subscriptionId: s.subscriptionId, stripeCalls };
}

describe("a live subscription is cancelled at Stripe (Stripe keys)", () => {
  it("before its listing is deleted its renewal stops, as Cancel does, so nobody pays on for a deleted listing", async () => {
    const id = freshId("del");
    const { subscriptionId, stripeCalls } = await listingWithLiveSubscription(owner.user.id, id);
    const res = await fetchWith(STRIPE_KEYS, `/api/v1/subleases/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${owner.access_token}` } });
    expect(res.status).toBeLessThan(300);
    // cancel_at_period_end (the update), not a cancellation now: what was paid runs to its end.
    expect(stripeCalls).toEqual([`POST /v1/subscriptions/${subscriptionId}`]);
  });

  it("when its owner is suspended: a suspended account cannot cancel it itself", async () => {
    const suspended = await signUp("promo-suspended@ufl.edu");
    const { subscriptionId, stripeCalls } = await listingWithLiveSubscription(suspended.user.id, freshId("susp"));
    await suspendUser(createDb(env), { ...env, ...STRIPE_KEYS }, "test-admin", suspended.user.id);
    expect(stripeCalls).toEqual([`DELETE /v1/subscriptions/${subscriptionId}`]);
  });
});

describe("the development test checkout", () => {
  it("answers a checkout address, serves a page within the CSP, and Pay delivers signed events then 303s to the profile", async () => {
    const id = freshId("dev");
    await insertListing(owner.user.id, id, { title: "Sunny <Studio>" });
    const res = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: id }) });
    const { data } = await json<{ data: { checkout_url: string; session_id: string } }>(res);
    expect(data.checkout_url).toBe(`/dev/checkout/${data.session_id}`);

    const page = await api(data.checkout_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Weekly Promotion $5/week");
    expect(html).toContain("Sunny &lt;Studio&gt;");
    expect(html).not.toMatch(/<script|style=/);
    expect(page.headers.get("content-security-policy")).toContain("style-src 'self'");
    expect((await api("/dev/checkout.css")).headers.get("content-type")).toContain("text/css");

    const eventCount = async () => (await env.DB.prepare("SELECT type, COUNT(*) AS n FROM stripe_events GROUP BY type ORDER BY type").all<{ type: string; n: number }>()).results;
    const eventsBefore = Object.fromEntries((await eventCount()).map((r) => [r.type, r.n]));
    const paid = await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`/profile?promotion_success=true&listing_id=${id}`);
    // Both events went through the webhook's entry (signature checked) and were recorded as applied.
    const eventsAfter = Object.fromEntries((await eventCount()).map((r) => [r.type, r.n]));
    expect(eventsAfter["checkout.session.completed"]! - (eventsBefore["checkout.session.completed"] ?? 0)).toBe(1);
    expect(eventsAfter["invoice.paid"]! - (eventsBefore["invoice.paid"] ?? 0)).toBe(1);
    const status = await statusOf(id);
    expect(status).toMatchObject({ promoted: true, auto_renew: true, state: "promoted", days_remaining: 7 });
    const billing = await json<{ data: BillingHistoryEntry[] }>(await as(owner, `/api/v1/promotions/billing-history/${id}`));
    expect(billing.data).toHaveLength(1);
    expect(billing.data[0]).toMatchObject({ amount: 500, currency: "usd", status: "paid" });
    expect(billing.data[0]!.period_end - billing.data[0]!.period_start).toBe(7 * 86_400);

    // Paying again plays nothing more.
    expect((await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" })).status).toBe(303);
    expect(await billingRows(id)).toBe(1);
    // The page of a paid session says so and offers no Pay (nor Cancel).
    const paidPage = await (await api(data.checkout_url)).text();
    expect(paidPage).toContain("Paid. This checkout is complete; there is nothing more to pay.");
    expect(paidPage).not.toMatch(/<button|\/complete"|\/cancel"/);
    expect(paidPage).toContain(`href="/profile?promotion_success=true&amp;listing_id=${id}"`);

    // Cancel on the checkout page says nothing was charged, and links back to the promote page.
    const second = await insertAnd(async (lid) => {
      const r = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: lid }) });
      return (await json<{ data: { checkout_url: string } }>(r)).data.checkout_url;
    });
    const cancelled = await api(`${second.value}/cancel`, { method: "POST", redirect: "manual" });
    expect(cancelled.status).toBe(200);
    const cancelPage = await cancelled.text();
    expect(cancelPage).toContain("Checkout cancelled");
    expect(cancelPage).toContain("You were not charged.");
    expect(cancelPage).toContain(`href="/promote?listing_id=${second.id}"`);
    expect(cancelPage).not.toMatch(/<script|style=/);
    expect(await statusOf(second.id)).toMatchObject({ promoted: false, state: "none" });
  });

  it("answers an unknown checkout with a readable page, not JSON, for the page and both buttons", async () => {
    for (const [method, path] of [
      ["GET", "/dev/checkout/cs_test_nope"],
      ["POST", "/dev/checkout/cs_test_nope/complete"],
      ["POST", "/dev/checkout/cs_test_nope/cancel"],
    ] as const) {
      const res = await api(path, { method, redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("text/html");
      const html = await res.text();
      expect(html).toContain("<h1>Checkout not found</h1>");
      expect(html).toContain("You were not charged.");
      expect(html).toContain('href="/profile"');
      expect(html).not.toContain('{"detail"');
    }
  });

  it("styles the checkout for the device's dark setting as well as the light", async () => {
    const css = await (await api("/dev/checkout.css")).text();
    expect(css).toContain("color-scheme:light dark");
    const dark = css.slice(css.indexOf("@media (prefers-color-scheme:dark)"));
    expect(dark).toMatch(/--bg:#0d1117/);
    // Every colour of the page's boxes comes from the variables the dark block sets.
    expect(css).not.toMatch(/(?:background|color):#/);
  });

  it("plays a renewal and a failed payment through the signed webhook path", async () => {
    const id = freshId("dev");
    await insertListing(owner.user.id, id);
    await buyWithTestCheckout(id);
    const first = await statusOf(id);
    expect((await api(`/api/v1/dev/promotions/${id}/renew`, { method: "POST" })).status).toBe(204);
    const renewed = await statusOf(id);
    expect(Date.parse(renewed.promotion_end!) - Date.parse(first.promotion_end!)).toBe(7 * DAY);
    expect(renewed.state).toBe("promoted");
    expect(await billingRows(id)).toBe(2);

    expect((await api(`/api/v1/dev/promotions/${id}/fail-payment`, { method: "POST" })).status).toBe(204);
    expect(await statusOf(id)).toMatchObject({ state: "past_due", promotion_end: renewed.promotion_end });
    const mail = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(owner.user.email)}`));
    expect(mail.data[0]!.subject).toContain("Payment failed");
  });

  it("is 404 in production, every route", async () => {
    const production = { ENVIRONMENT: "production", PUBLIC_BASE_URL: "https://campusnest.example", STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_live_x" };
    for (const [method, path] of [
      ["GET", "/dev/checkout/cs_test_1"],
      ["GET", "/dev/checkout.css"],
      ["POST", "/dev/checkout/cs_test_1/complete"],
      ["POST", "/dev/checkout/cs_test_1/cancel"],
      ["POST", "/api/v1/dev/promotions/x/renew"],
      ["POST", "/api/v1/dev/promotions/x/fail-payment"],
    ] as const) {
      const res = await createApp().fetch(new Request(`http://localhost${path}`, { method }), { ...env, ...production });
      expect(res.status, path).toBe(404);
    }
  });
});

async function insertAnd<T>(fn: (id: string) => Promise<T>, fields: Record<string, string | number | null> = {}) {
  const id = freshId("l");
  await insertListing(owner.user.id, id, fields);
  return { id, value: await fn(id) };
}

describe("the webhook", () => {
  const subscription = (listingId: string): TestSubscription => ({ subscriptionId: `sub_${listingId}`, listingId, userId: owner.user.id });

  it("refuses a bad signature (400) and changes nothing", async () => {
    const id = freshId("wh");
    await insertListing(owner.user.id, id);
    const event = testCheckoutCompleted("cs_1", subscription(id), nowS());
    expect((await deliver(event, { secret: "whsec_wrong" })).status).toBe(400);
    const unsigned = await api("/api/v1/promotions/webhook", { method: "POST", body: JSON.stringify(event) });
    expect(unsigned.status).toBe(400);
    const tampered = await api("/api/v1/promotions/webhook", {
      method: "POST",
      body: JSON.stringify({ ...event, id: "evt_other" }),
      headers: { "stripe-signature": await signWebhookPayload(DEV_WEBHOOK_SECRET, JSON.stringify(event)) },
    });
    expect(tampered.status).toBe(400);
    expect(await statusOf(id)).toMatchObject({ promoted: false, state: "none" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE id = ?").bind(event.id).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("refuses a signature older than 300 seconds", async () => {
    const id = freshId("wh");
    await insertListing(owner.user.id, id);
    const event = testCheckoutCompleted("cs_2", subscription(id), nowS());
    expect((await deliver(event, { timestamp: nowS() - 301 })).status).toBe(400);
    expect(await statusOf(id)).toMatchObject({ promoted: false });
    expect((await deliver(event, { timestamp: nowS() - 200 })).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ promoted: true });
  });

  it("applies a delivery twice only once (one billing row)", async () => {
    const id = freshId("wh");
    await insertListing(owner.user.id, id);
    const s = subscription(id);
    const start = nowS();
    expect((await deliver(testCheckoutCompleted("cs_3", s, start))).status).toBe(200);
    const paid = testInvoice("invoice.paid", s, start, start);
    const first = await deliver(paid);
    const second = await deliver(paid);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await json(second)).toMatchObject({ applied: false });
    expect(await billingRows(id)).toBe(1);
    const endOnce = (await listingRow(id))!.promotion_end;
    // The next period's invoice moves the end a week on; replaying it does not.
    const next = testInvoice("invoice.paid", s, start + 7 * 86_400, start);
    await deliver(next);
    await deliver(next);
    expect(Date.parse((await listingRow(id))!.promotion_end!) - Date.parse(endOnce!)).toBe(7 * DAY);
    expect(await billingRows(id)).toBe(2);
  });

  describe("gives the same result in any order", () => {
    const start = nowS();
    // The first invoice's period ends an hour after a week from the checkout, so "7 days from now" and
    // "to the period end" differ; the failed invoice is the next period's.
    const events = {
      completed: (s: TestSubscription) => testCheckoutCompleted("cs_order", s, start),
      paid: (s: TestSubscription) => {
        const e = testInvoice("invoice.paid", s, start + 3600, start);
        return e;
      },
      failed: (s: TestSubscription) => testInvoice("invoice.payment_failed", s, start + 3600 + 7 * 86_400, start),
      updated: (s: TestSubscription) => subscriptionEvent("customer.subscription.updated", s, { cancel_at_period_end: true }),
      deleted: (s: TestSubscription) => subscriptionEvent("customer.subscription.deleted", s, { status: "canceled" }),
    };
    type Name = keyof typeof events;
    const names = Object.keys(events) as Name[];
    const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as const));

    const expected = (set: Name[]) => {
      if (set.includes("deleted")) return { state: "none", promoted: false, auto_renew: false };
      if (set.includes("failed")) return { state: "past_due" };
      const live = set.includes("completed") || set.includes("paid");
      if (!live) return { state: "none", promoted: false };
      return set.includes("updated") ? { state: "cancelled", promoted: true, auto_renew: false } : { state: "promoted", promoted: true, auto_renew: true };
    };

    it.each(pairs)("%s and %s", async (a, b) => {
      const results = [];
      for (const order of [
        [a, b],
        [b, a],
      ] as const) {
        const id = freshId("ord");
        await insertListing(owner.user.id, id);
        const s = subscription(id);
        for (const name of order) expect((await deliver(events[name](s))).status, name).toBe(200);
        const status = await statusOf(id);
        const row = (await listingRow(id))!;
        results.push({ status, row });
        expect(status, order.join(" then ")).toMatchObject(expected([a, b]));
        if (a === "deleted" || b === "deleted") expect(row).toMatchObject({ promotion_end: null, stripe_subscription_id: null, auto_renew: 0 });
      }
      const [x, y] = results;
      expect(y!.status.state).toBe(x!.status.state);
      expect(y!.status.auto_renew).toBe(x!.status.auto_renew);
      expect(y!.row.stripe_subscription_id === null).toBe(x!.row.stripe_subscription_id === null);
      // Same end (to the second: "7 days from now" is never used once the paid period is known).
      const end = (r: { row: { promotion_end: string | null } }) => (r.row.promotion_end ? Math.round(Date.parse(r.row.promotion_end) / 60_000) : null);
      if ([a, b].includes("paid")) expect(end(y!)).toBe(end(x!));
      else expect(Math.abs((end(y!) ?? 0) - (end(x!) ?? 0))).toBeLessThanOrEqual(1);
    });
  });
});

describe("owner-only calls", () => {
  it("answer 403 to others on a public listing, 404 when they cannot see it, 401 signed out", async () => {
    const pub = freshId("own");
    const hidden = freshId("own");
    await insertListing(owner.user.id, pub);
    await insertListing(owner.user.id, hidden, { verification_status: "pending" });
    const calls = (id: string) =>
      [
        ["POST", "/api/v1/promotions/create-checkout-session", { listing_id: id }],
        ["GET", `/api/v1/promotions/status/${id}`],
        ["GET", `/api/v1/promotions/billing-history/${id}`],
        ["POST", `/api/v1/promotions/cancel/${id}`],
      ] as const;
    for (const [method, path, body] of calls(pub)) {
      const init = { method, ...(body && { body: JSON.stringify(body) }) };
      expect((await as(other, path, init)).status, path).toBe(403);
      expect((await api(path, { ...init, headers: { "content-type": "application/json" } })).status, path).toBe(401);
    }
    for (const [method, path, body] of [...calls(hidden), ...calls("missing")]) {
      const res = await as(other, path, { method, ...(body && { body: JSON.stringify(body) }) });
      expect(res.status, path).toBe(404);
      expect(await json(res)).toEqual({ detail: "Listing not found" });
    }
  });

  it("refuses a rejected or hidden listing (409) and a second subscription (409)", async () => {
    const rejected = freshId("own");
    await insertListing(owner.user.id, rejected, { verification_status: "rejected" });
    const res = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: rejected }) });
    expect(res.status).toBe(409);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/approved/);

    const id = freshId("own");
    await insertListing(owner.user.id, id);
    await buyWithTestCheckout(id);
    const again = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: id }) });
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ detail: "This listing already has an active promotion subscription" });

    const missing = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({}) });
    expect(missing.status).toBe(422);
  });
});

describe("cancel, approval, the cron and the promoted-listings list", () => {
  it("cancel keeps promotion_end, clears the subscription id and reads 'cancelled'; a second cancel changes nothing", async () => {
    const id = freshId("c");
    await insertListing(owner.user.id, id);
    await buyWithTestCheckout(id);
    const before = await statusOf(id);
    const res = await as(owner, `/api/v1/promotions/cancel/${id}`, { method: "POST" });
    expect(res.status).toBe(200);
    const { data } = await json<{ data: PromotionStatus }>(res);
    expect(data).toMatchObject({ promoted: true, auto_renew: false, state: "cancelled", promotion_end: before.promotion_end, promotion_start: before.promotion_start });
    expect((await listingRow(id))!.stripe_subscription_id).toBeNull();
    expect((await json<{ data: PromotionStatus }>(await as(owner, `/api/v1/promotions/cancel/${id}`, { method: "POST" }))).data).toEqual(data);

    const none = freshId("c");
    await insertListing(owner.user.id, none);
    expect((await as(owner, `/api/v1/promotions/cancel/${none}`, { method: "POST" })).status).toBe(409);
  });

  it("a promotion bought while pending waits, and starts when staff approve", async () => {
    const id = freshId("p");
    await insertListing(owner.user.id, id, { verification_status: "pending" });
    await buyWithTestCheckout(id);
    expect(await statusOf(id)).toMatchObject({ promoted: false, state: "awaiting_approval", auto_renew: true });
    expect((await listingRow(id))!.promotion_pending_days).toBe(7);
    const approve = await api(`/api/v1/admin/listings/${id}/verify`, authed(adminToken, { method: "PATCH", body: JSON.stringify({ status: "approved" }) }));
    expect(approve.status).toBe(200);
    const status = await statusOf(id);
    expect(status).toMatchObject({ promoted: true, state: "promoted", days_remaining: 7, auto_renew: true });
    expect((await listingRow(id))!.promotion_pending_days).toBeNull();
  });

  it("staff cannot unpromote a paid promotion (the owner would keep paying), only a staff one", async () => {
    const id = freshId("p");
    await insertListing(owner.user.id, id, { verification_status: "approved" });
    await buyWithTestCheckout(id);
    const unpromote = await api(`/api/v1/admin/listings/${id}/unpromote`, authed(adminToken, { method: "POST" }));
    expect(unpromote.status).toBe(409);
    expect(await statusOf(id)).toMatchObject({ promoted: true, state: "promoted" });
    const staffOnly = freshId("p");
    await insertListing(owner.user.id, staffOnly, { verification_status: "approved" });
    expect((await api(`/api/v1/admin/listings/${staffOnly}/promote`, authed(adminToken, { method: "POST" }))).status).toBe(200);
    expect((await api(`/api/v1/admin/listings/${staffOnly}/unpromote`, authed(adminToken, { method: "POST" }))).status).toBe(200);
    expect(await statusOf(staffOnly)).toMatchObject({ promoted: false });
  });

  it("GET users/promoted-listings carries each listing's promotion_state", async () => {
    const res = await as(owner, "/api/v1/users/promoted-listings");
    expect(res.status).toBe(200);
    const { data } = await json<{ data: PromotedListing[] }>(res);
    expect(data.length).toBeGreaterThan(3);
    const states = new Set(data.map((l) => l.promotion_state));
    expect(states.has("promoted")).toBe(true);
    expect(states.has("cancelled")).toBe(true);
    expect(states.has("past_due")).toBe(true);
    for (const l of data) expect(["promoted", "cancelled", "past_due", "awaiting_approval", "none"]).toContain(l.promotion_state);
  });

  it("the cron ends a cancelled promotion past its end (and its subscription), once, and keeps renewing ones", async () => {
    const cancelled = freshId("cron");
    const renewing = freshId("cron");
    for (const id of [cancelled, renewing]) {
      await insertListing(owner.user.id, id);
      await buyWithTestCheckout(id);
    }
    await as(owner, `/api/v1/promotions/cancel/${cancelled}`, { method: "POST" });
    const past = new Date(Date.now() - 60_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("UPDATE listings SET promotion_start = ?, promotion_end = ? WHERE id IN (?, ?)").bind(new Date(Date.now() - 8 * DAY).toISOString(), past, cancelled, renewing),
      env.DB.prepare("UPDATE stripe_subscriptions SET current_period_end = ? WHERE listing_id IN (?, ?)").bind(past, cancelled, renewing),
    ]);
    for (let run = 0; run < 2; run++) {
      const ctx = createExecutionContext();
      await entry.scheduled(createScheduledController({ cron: "*/15 * * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
      await drainQueues();
    }
    expect(await listingRow(cancelled)).toMatchObject({ promotion_end: null, promotion_source: null, auto_renew: 0 });
    expect(await listingRow(renewing)).toMatchObject({ promotion_end: past, auto_renew: 1 });
    const subs = await env.DB.prepare("SELECT listing_id, ended FROM stripe_subscriptions WHERE listing_id IN (?, ?) ORDER BY listing_id").bind(cancelled, renewing).all<{ listing_id: string; ended: number }>();
    expect(Object.fromEntries(subs.results.map((r) => [r.listing_id, r.ended]))).toEqual({ [cancelled]: 1, [renewing]: 0 });
    // A new purchase is possible again once the cancelled one ended.
    const again = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: cancelled }) });
    expect(again.status).toBe(200);
  });
});

/* ---------- paid means paid, malformed events, one live subscription per listing ---------- */

describe("signed events of an unexpected shape", () => {
  it("answer 400 {detail}, change nothing and are not recorded as applied", async () => {
    const id = freshId("bad");
    await insertListing(owner.user.id, id);
    const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
    const good = testCheckoutCompleted(`cs_${id}`, s, nowS());
    const bodies: unknown[] = [
      { id: "evt_nodata_1", object: "event", created: nowS(), type: "checkout.session.completed" },
      { ...good, id: "evt_string_object_1", data: { object: "checkout.session" } },
      { ...good, id: "evt_array_object_1", data: { object: [good.data.object] } },
      { ...good, id: "evt_null_data_1", data: null },
      [good],
      "checkout.session.completed",
      42,
      { ...good, id: undefined },
      { ...good, id: "evt_no_sub_1", data: { object: { ...good.data.object, subscription: null } } },
      { ...good, id: "evt_no_session_id_1", data: { object: { ...good.data.object, id: undefined } } },
      { ...subscriptionEvent("customer.subscription.deleted", s), id: "evt_no_sub_id_1", data: { object: { object: "subscription", status: "canceled" } } },
      { ...testInvoice("invoice.paid", s, nowS(), nowS()), id: "evt_no_invoice_id_1", data: { object: { object: "invoice", subscription: s.subscriptionId } } },
    ];
    for (const body of bodies) {
      const res = await deliver(body as object);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof (await json<{ detail: string }>(res)).detail).toBe("string");
    }
    const recorded = await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE id LIKE 'evt_%_1' AND id IN ('evt_nodata_1','evt_string_object_1','evt_array_object_1','evt_null_data_1','evt_no_sub_1','evt_no_session_id_1','evt_no_sub_id_1','evt_no_invoice_id_1')").first<{ n: number }>();
    expect(recorded!.n).toBe(0);
    expect(await statusOf(id)).toMatchObject({ promoted: false, state: "none" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_subscriptions WHERE listing_id = ?").bind(id).first<{ n: number }>()).toEqual({ n: 0 });
    // The well-formed event still applies afterwards.
    expect((await deliver(good)).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ promoted: true });
  });

  it("a timestamp no date can hold (period end 1e16, negative, fractional, a string) answers 400, not 500, and changes nothing", async () => {
    const id = freshId("badtime");
    await insertListing(owner.user.id, id);
    const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
    expect((await deliver(testCheckoutCompleted(`cs_${id}`, s, nowS()))).status).toBe(200);
    const before = await listingRow(id);
    const invoice = testInvoice("invoice.paid", s, nowS(), nowS());
    const withPeriod = (period: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
      ...invoice,
      id: `evt_${crypto.randomUUID()}`,
      data: { object: { ...invoice.data.object, ...top, lines: { object: "list", data: [{ period }] } } },
    });
    const bodies = [
      withPeriod({ start: nowS(), end: 1e16 }),
      withPeriod({ start: -5, end: nowS() }),
      withPeriod({ start: nowS(), end: nowS() + 0.5 }),
      withPeriod({ start: nowS(), end: String(nowS()) }),
      withPeriod({}, { period_start: nowS(), period_end: 1e300 }),
      withPeriod({ start: nowS(), end: nowS() + 7 * 86_400 }, { created: 1e16 }),
      { ...testInvoice("invoice.payment_failed", s, nowS(), nowS()), id: `evt_${crypto.randomUUID()}`, data: { object: { ...invoice.data.object, lines: { object: "list", data: [{ period: { end: 1e16 } }] } } } },
      { ...invoice, id: `evt_${crypto.randomUUID()}`, created: 1e16 },
    ];
    for (const body of bodies) {
      const res = await deliver(body);
      expect(res.status, JSON.stringify(body.data.object.lines ?? body.created)).toBe(400);
      expect(typeof (await json<{ detail: string }>(res)).detail).toBe("string");
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE id = ?").bind(body.id).first()).toEqual({ n: 0 });
    }
    expect(await listingRow(id)).toEqual(before);
    expect(await billingRows(id)).toBe(0);
  });
});

describe("paid means paid (delayed payment methods)", () => {
  const sub = (id: string): TestSubscription => ({ subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id });

  it("an unpaid completed checkout waits; async_payment_succeeded promotes it", async () => {
    const id = freshId("async");
    await insertListing(owner.user.id, id);
    const s = sub(id);
    expect((await deliver(testCheckoutCompleted(`cs_${id}`, s, nowS(), "checkout.session.completed", "unpaid"))).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ promoted: false, state: "none" });
    expect(await listingRow(id)).toMatchObject({ promotion_end: null, stripe_subscription_id: null });
    // The payment is on its way: a second purchase is refused meanwhile.
    const again = await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: id }) });
    expect(again.status).toBe(409);
    expect((await deliver(testCheckoutCompleted(`cs_${id}`, s, nowS(), "checkout.session.async_payment_succeeded", "paid"))).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ promoted: true, state: "promoted", auto_renew: true });
  });

  it("async_payment_failed ends it, and a new checkout is possible", async () => {
    const id = freshId("async");
    await insertListing(owner.user.id, id);
    const s = sub(id);
    await deliver(testCheckoutCompleted(`cs_${id}`, s, nowS(), "checkout.session.completed", "unpaid"));
    expect((await deliver(testCheckoutCompleted(`cs_${id}`, s, nowS(), "checkout.session.async_payment_failed", "unpaid"))).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ promoted: false, state: "none" });
    expect(await env.DB.prepare("SELECT ended FROM stripe_subscriptions WHERE id = ?").bind(s.subscriptionId).first()).toEqual({ ended: 1 });
    await ageCheckoutSessions(owner.user.id);
    expect((await as(owner, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: id }) })).status).toBe(200);
  });

  it("no_payment_required counts as paid", async () => {
    const id = freshId("async");
    await insertListing(owner.user.id, id);
    await deliver(testCheckoutCompleted(`cs_${id}`, sub(id), nowS(), "checkout.session.completed", "no_payment_required"));
    expect(await statusOf(id)).toMatchObject({ promoted: true, state: "promoted" });
  });
});

describe("one checkout session per listing", () => {
  let buyer: Session;
  beforeAll(async () => {
    buyer = await signUp("promo-buyer@ufl.edu");
  });
  const create = (listingId: string, key?: string, s: Session = buyer) =>
    as(s, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: listingId }), headers: key ? { "idempotency-key": key } : {} });
  const sessionsOf = async (listingId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM checkout_sessions WHERE listing_id = ?").bind(listingId).first<{ n: number }>())!.n;

  it("the same Idempotency-Key answers the same session, twice in a row and twice at once; another listing's key is refused", async () => {
    await ageCheckoutSessions(buyer.user.id);
    const id = freshId("idem");
    await insertListing(buyer.user.id, id);
    const first = await json<{ data: { session_id: string; checkout_url: string } }>(await create(id, "key-1"));
    const again = await json<{ data: { session_id: string; checkout_url: string } }>(await create(id, "key-1"));
    expect(again.data).toEqual(first.data);
    const [x, y] = await Promise.all([create(id, "key-1"), create(id, "key-1")]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect((await json<{ data: unknown }>(x)).data).toEqual(first.data);
    expect((await json<{ data: unknown }>(y)).data).toEqual(first.data);
    expect(await sessionsOf(id)).toBe(1);
    const other = freshId("idem");
    await insertListing(buyer.user.id, other);
    const misuse = await create(other, "key-1");
    expect(misuse.status).toBe(409);
    expect((await json<{ detail: string }>(misuse)).detail).toMatch(/Idempotency-Key/);
    expect((await create(id, "   ")).status).toBe(400);
  });

  it("an open session is answered again (two tabs, Back), even created at the same instant", async () => {
    await ageCheckoutSessions(buyer.user.id);
    const id = freshId("open");
    await insertListing(buyer.user.id, id);
    const answers = await Promise.all([create(id), create(id), create(id, "tab-a"), create(id, "tab-b")]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const sessions = new Set(await Promise.all(answers.map(async (r) => (await json<{ data: { session_id: string } }>(r)).data.session_id)));
    expect(sessions.size).toBe(1);
    expect(await sessionsOf(id)).toBe(1);
    // An expired session is not offered again.
    await env.DB.prepare("UPDATE checkout_sessions SET expires_at = ? WHERE listing_id = ?").bind(new Date(Date.now() - 1000).toISOString(), id).run();
    const fresh = await json<{ data: { session_id: string } }>(await create(id));
    expect(sessions.has(fresh.data.session_id)).toBe(false);
  });

  it("caps new sessions at 10 a minute per user: 429 {detail, retry_after}", async () => {
    const busy = await signUp("promo-busy-buyer@ufl.edu");
    const ids = Array.from({ length: 11 }, () => freshId("cap"));
    for (const id of ids) await insertListing(busy.user.id, id);
    const statuses: number[] = [];
    for (const id of ids.slice(0, 10)) statuses.push((await create(id, undefined, busy)).status);
    expect(statuses).toEqual(Array(10).fill(200));
    const refused = await create(ids[10]!, undefined, busy);
    expect(refused.status).toBe(429);
    const body = await json<{ detail: string; retry_after: number }>(refused);
    expect(body.detail).toMatch(/checkout/i);
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(60);
    // An open session is still answered (nothing new is started).
    expect((await create(ids[0]!, undefined, busy)).status).toBe(200);
  });
});

describe("the checkout Idempotency-Key with Stripe keys (a fake Stripe that keeps idempotency keys like Stripe)", () => {
  /**
   * Stripe's rule: a create with a key already used answers the first result when the parameters are
   * the same, and refuses (400 idempotency_error) when they differ. `holdUntil` creates wait until that
   * many have arrived (two requests both reach Stripe before either stores its session).
   */
  function stripeKeepingKeys(holdUntil = 0) {
    const byKey = new Map<string, { params: string; id: string }>();
    const expired: string[] = [];
    let arrived = 0;
    let release!: () => void;
    const allArrived = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.hostname !== "api.stripe.com") throw new Error(`unexpected outbound request to ${url.hostname}`);
      const answer = (body: object, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "request-id": "req_fake" } });
      if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const params = await request.text();
        const key = request.headers.get("idempotency-key");
        const prior = key ? byKey.get(key) : undefined;
        if (prior && prior.params !== params) {
          return answer({ error: { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with." } }, 400);
        }
        const id = prior?.id ?? `cs_test_keyed${++counter}`;
        if (key && !prior) byKey.set(key, { params, id });
        if (++arrived === holdUntil) release();
        if (holdUntil) await allArrived;
        return answer({ id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${id}` });
      }
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
      if (request.method === "POST" && expire) {
        expired.push(expire[1]!);
        return answer({ id: expire[1], object: "checkout.session", status: "expired" });
      }
      return answer({ error: { message: "not faked" } }, 404);
    });
    return { expired };
  }
  const createWithKeys = (listingId: string, key: string) =>
    fetchWith(STRIPE_KEYS, "/api/v1/promotions/create-checkout-session", {
      method: "POST",
      body: JSON.stringify({ listing_id: listingId }),
      headers: { "content-type": "application/json", Authorization: `Bearer ${owner.access_token}`, "idempotency-key": key },
    });
  const storedSessions = async (listingId: string) =>
    (await env.DB.prepare("SELECT id FROM checkout_sessions WHERE listing_id = ?").bind(listingId).all<{ id: string }>()).results.map((r) => r.id);

  it("a retry with the same key after an earlier try reached Stripe but stored nothing gets a session (seconds later, other expires_at)", async () => {
    await ageCheckoutSessions(owner.user.id);
    stripeKeepingKeys();
    const id = freshId("keyretry");
    await insertListing(owner.user.id, id);
    const first = await createWithKeys(id, "retry-key-1");
    expect(first.status).toBe(200);
    // As if the first try's session had been made at Stripe but its row never written (the request died).
    await env.DB.prepare("DELETE FROM checkout_sessions WHERE listing_id = ?").bind(id).run();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 5_000);
      const retry = await createWithKeys(id, "retry-key-1");
      expect(retry.status).toBe(200);
      const { data } = await json<{ data: { session_id: string } }>(retry);
      expect(await storedSessions(id)).toEqual([data.session_id]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the same key twice at once: both answer the stored session, and the stored session is never expired", async () => {
    await ageCheckoutSessions(owner.user.id);
    const { expired } = stripeKeepingKeys(2);
    const id = freshId("keyrace");
    await insertListing(owner.user.id, id);
    const answers = await Promise.all([createWithKeys(id, "race-key-1"), createWithKeys(id, "race-key-1")]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const [a, b] = await Promise.all(answers.map(async (r) => (await json<{ data: { session_id: string } }>(r)).data.session_id));
    expect(a).toBe(b);
    expect(await storedSessions(id)).toEqual([a]);
    expect(expired).not.toContain(a);
  });
});

describe("a second paid subscription of one listing (Stripe keys, fake Stripe)", () => {
  function fakeStripeRefunds() {
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.hostname !== "api.stripe.com") throw new Error(`unexpected outbound request to ${url.hostname}`);
      const form = request.method === "POST" ? new URLSearchParams(await request.text()) : new URLSearchParams();
      calls.push(`${request.method} ${url.pathname}${url.pathname === "/v1/refunds" ? ` ${form.get("payment_intent")}` : url.search.includes("invoice=") ? ` ${url.searchParams.get("invoice")}` : ""}`);
      const answer = (body: object) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", "request-id": "req_fake" } });
      const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (sub && request.method === "GET") return answer({ id: sub[1], object: "subscription", status: "active", latest_invoice: `in_${sub[1]}` });
      if (sub && request.method === "DELETE") return answer({ id: sub[1], object: "subscription", status: "canceled" });
      if (url.pathname === "/v1/invoice_payments") {
        const invoice = url.searchParams.get("invoice");
        return answer({ object: "list", has_more: false, data: [{ id: `inpay_${invoice}`, object: "invoice_payment", status: "paid", payment: { type: "payment_intent", payment_intent: `pi_${invoice}` } }] });
      }
      if (url.pathname === "/v1/refunds") return answer({ id: `re_${form.get("payment_intent")}`, object: "refund", status: "succeeded" });
      return new Response(JSON.stringify({ error: { message: "not faked" } }), { status: 404, headers: { "content-type": "application/json" } });
    });
    return calls;
  }
  const deliverWithKeys = async (event: object) => {
    const payload = JSON.stringify(event);
    return fetchWith(STRIPE_KEYS, "/api/v1/promotions/webhook", {
      method: "POST",
      body: payload,
      headers: { "stripe-signature": await signWebhookPayload(STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, payload) },
    });
  };

  it("is cancelled at Stripe at once, refunded, recorded, and the owner is told; the first keeps the promotion", async () => {
    const id = freshId("dup");
    await insertListing(owner.user.id, id);
    const first: TestSubscription = { subscriptionId: `sub_first_${id}`, listingId: id, userId: owner.user.id };
    const second: TestSubscription = { subscriptionId: `sub_second_${id}`, listingId: id, userId: owner.user.id };
    const calls = fakeStripeRefunds();
    const start = nowS();
    for (const e of [testCheckoutCompleted(`cs_a_${id}`, first, start), testInvoice("invoice.paid", first, start, start)]) expect((await deliverWithKeys(e)).status).toBe(200);
    const before = await listingRow(id);
    const secondInvoice = testInvoice("invoice.paid", second, start, start);
    for (const e of [testCheckoutCompleted(`cs_b_${id}`, second, start), secondInvoice]) expect((await deliverWithKeys(e)).status).toBe(200);
    expect(calls).toContain(`DELETE /v1/subscriptions/${second.subscriptionId}`);
    // Its latest invoice at once (the fake names it in_<subscription>), and the invoice its invoice.paid reports.
    expect(calls.filter((c) => c.startsWith("POST /v1/refunds"))).toEqual([
      `POST /v1/refunds pi_in_${second.subscriptionId}`,
      `POST /v1/refunds pi_${secondInvoice.data.object.id}`,
    ]);
    expect(calls.some((c) => c.includes(first.subscriptionId))).toBe(false);
    expect(await env.DB.prepare("SELECT ended, duplicate FROM stripe_subscriptions WHERE id = ?").bind(second.subscriptionId).first()).toEqual({ ended: 1, duplicate: 1 });
    expect(await listingRow(id)).toEqual(before);
    const statuses = (await env.DB.prepare("SELECT subscription_id, status FROM billing_history WHERE listing_id = ? ORDER BY subscription_id").bind(id).all()).results;
    expect(statuses).toEqual([
      { subscription_id: first.subscriptionId, status: "paid" },
      { subscription_id: second.subscriptionId, status: "refunded" },
    ]);
    const mail = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(owner.user.email)}`));
    expect(mail.data.filter((m) => m.subject.includes("duplicate promotion payment"))).toHaveLength(1);
  });

  it("when Stripe refuses the refund: 502, nothing recorded, and Stripe's redelivery applies it", async () => {
    const id = freshId("dupfail");
    await insertListing(owner.user.id, id);
    const first: TestSubscription = { subscriptionId: `sub_first_${id}`, listingId: id, userId: owner.user.id };
    const second: TestSubscription = { subscriptionId: `sub_second_${id}`, listingId: id, userId: owner.user.id };
    fakeStripeRefunds();
    expect((await deliverWithKeys(testCheckoutCompleted(`cs_a_${id}`, first, nowS()))).status).toBe(200);
    vi.restoreAllMocks();
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(JSON.stringify({ error: { message: "down" } }), { status: 400, headers: { "content-type": "application/json" } }));
    const event = testCheckoutCompleted(`cs_b_${id}`, second, nowS());
    const refused = await deliverWithKeys(event);
    expect(refused.status).toBe(502);
    expect((await json<{ detail: string }>(refused)).detail).toMatch(/refund/i);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE id = ?").bind(event.id).first()).toEqual({ n: 0 });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_subscriptions WHERE id = ?").bind(second.subscriptionId).first()).toEqual({ n: 0 });
    vi.restoreAllMocks();
    fakeStripeRefunds();
    expect((await deliverWithKeys(event)).status).toBe(200);
    expect(await env.DB.prepare("SELECT ended, duplicate FROM stripe_subscriptions WHERE id = ?").bind(second.subscriptionId).first()).toEqual({ ended: 1, duplicate: 1 });
  });

  it("two paid at the same instant: exactly one holds the listing, the other is refunded", async () => {
    for (let trial = 0; trial < 4; trial++) {
      const id = freshId("dup2");
      await insertListing(owner.user.id, id);
      const subs = ["a", "b"].map((k): TestSubscription => ({ subscriptionId: `sub_${k}_${id}`, listingId: id, userId: owner.user.id }));
      fakeStripeRefunds();
      const start = nowS();
      const answers = await Promise.all(subs.map((s, i) => deliverWithKeys(testCheckoutCompleted(`cs_${i}_${id}`, s, start))));
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const rows = (await env.DB.prepare("SELECT id, ended, duplicate FROM stripe_subscriptions WHERE listing_id = ?").bind(id).all<{ id: string; ended: number; duplicate: number }>()).results;
      expect(rows.filter((r) => !r.ended)).toHaveLength(1);
      expect(rows.filter((r) => r.duplicate)).toHaveLength(1);
      const holder = rows.find((r) => !r.ended)!;
      expect(await listingRow(id)).toMatchObject({ stripe_subscription_id: holder.id, auto_renew: 1, promotion_source: "stripe" });
      vi.restoreAllMocks();
    }
  });
});

describe("every live subscription ends", () => {
  /** Two live subscriptions of one listing, as an older release could leave them. */
  async function twoLive(userId: string, id: string) {
    await insertListing(userId, id);
    const start = nowS();
    for (const k of ["old", "new"]) {
      const s: TestSubscription = { subscriptionId: `sub_${k}_${id}`, listingId: id, userId };
      await deliver(testCheckoutCompleted(`cs_${k}_${id}`, s, start));
    }
    // Undo the duplicate handling to get the legacy state.
    await env.DB.prepare("UPDATE stripe_subscriptions SET ended = 0, duplicate = 0, status = 'active' WHERE listing_id = ?").bind(id).run();
    return [`sub_old_${id}`, `sub_new_${id}`];
  }

  it("Cancel stops renewal of each of them", async () => {
    const id = freshId("all");
    const ids = await twoLive(owner.user.id, id);
    expect((await as(owner, `/api/v1/promotions/cancel/${id}`, { method: "POST" })).status).toBe(200);
    const rows = (await env.DB.prepare("SELECT id, cancel_at_period_end FROM stripe_subscriptions WHERE listing_id = ? ORDER BY id").bind(id).all()).results;
    expect(rows).toEqual(ids.sort().map((sid) => ({ id: sid, cancel_at_period_end: 1 })));
  });

  it("suspension ends them here too (without Stripe keys), and the paid promotion with them", async () => {
    const user = await signUp("promo-suspend-local@ufl.edu");
    const id = freshId("all");
    await twoLive(user.user.id, id);
    await suspendUser(createDb(env), env, "test-admin", user.user.id);
    const rows = (await env.DB.prepare("SELECT ended FROM stripe_subscriptions WHERE listing_id = ?").bind(id).all<{ ended: number }>()).results;
    expect(rows.map((r) => r.ended)).toEqual([1, 1]);
    expect(await listingRow(id)).toMatchObject({ promotion_end: null, auto_renew: 0, stripe_subscription_id: null });
  });
});

/**
 * A fake Stripe for the whole billing path: checkout sessions (created, expired), subscriptions
 * (retrieved active, cancelled), invoice payments and refunds. `down` makes every call fail. The
 * calls, as "METHOD /path", refunds with their payment intent.
 */
function fakeStripeBilling() {
  const state = { calls: [] as string[], down: false, afterCall: undefined as ((call: string) => Promise<void>) | undefined };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname !== "api.stripe.com") throw new Error(`unexpected outbound request to ${url.hostname}`);
    const form = request.method === "POST" ? new URLSearchParams(await request.text()) : new URLSearchParams();
    const call = `${request.method} ${url.pathname}${url.pathname === "/v1/refunds" ? ` ${form.get("payment_intent")}` : ""}`;
    state.calls.push(call);
    const response = answerAsStripe(request, url, form);
    await state.afterCall?.(call);
    return response;
  });
  const answerAsStripe = (request: Request, url: URL, form: URLSearchParams) => {
    const answer = (body: object, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "request-id": "req_fake" } });
    if (state.down) return answer({ error: { type: "api_error", message: "Stripe is down" } }, 400);
    if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const id = `cs_test_billing${++counter}`;
      return answer({ id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${id}` });
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
    if (expire) return answer({ id: expire[1], object: "checkout.session", status: "expired" });
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (sub && request.method === "GET") return answer({ id: sub[1], object: "subscription", status: "active", latest_invoice: `in_${sub[1]}` });
    if (sub && request.method === "DELETE") return answer({ id: sub[1], object: "subscription", status: "canceled" });
    if (sub && request.method === "POST") return answer({ id: sub[1], object: "subscription", status: "active", cancel_at_period_end: true });
    if (url.pathname === "/v1/invoice_payments") {
      const invoice = url.searchParams.get("invoice");
      return answer({ object: "list", has_more: false, data: [{ id: `inpay_${invoice}`, object: "invoice_payment", status: "paid", payment: { type: "payment_intent", payment_intent: `pi_${invoice}` } }] });
    }
    if (url.pathname === "/v1/refunds") return answer({ id: `re_${form.get("payment_intent")}`, object: "refund", status: "succeeded" });
    return answer({ error: { message: "not faked" } }, 404);
  };
  return state;
}

const deliverWithStripeKeys = async (event: object) => {
  const payload = JSON.stringify(event);
  return fetchWith(STRIPE_KEYS, "/api/v1/promotions/webhook", {
    method: "POST",
    body: payload,
    headers: { "stripe-signature": await signWebhookPayload(STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, payload) },
  });
};

const checkoutWithStripeKeys = async (s: Session, listingId: string) => {
  await ageCheckoutSessions(s.user.id);
  const res = await fetchWith(STRIPE_KEYS, "/api/v1/promotions/create-checkout-session", {
    method: "POST",
    body: JSON.stringify({ listing_id: listingId }),
    headers: { "content-type": "application/json", Authorization: `Bearer ${s.access_token}` },
  });
  expect(res.status).toBe(200);
  return (await json<{ data: { session_id: string } }>(res)).data.session_id;
};

describe("a checkout left open when its listing is deleted or its owner suspended (Stripe keys)", () => {
  it("deletion expires the open session; if it is paid anyway, the subscription is cancelled and refunded at Stripe", async () => {
    const stripe = fakeStripeBilling();
    const id = freshId("gone");
    await insertListing(owner.user.id, id);
    const sessionId = await checkoutWithStripeKeys(owner, id);
    const deleted = await fetchWith(STRIPE_KEYS, `/api/v1/subleases/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${owner.access_token}` } });
    expect(deleted.status).toBeLessThan(300);
    expect(stripe.calls).toContain(`POST /v1/checkout/sessions/${sessionId}/expire`);

    // The tab was paid in the instant before the expiry reached Stripe.
    stripe.calls.length = 0;
    const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
    const completed = testCheckoutCompleted(sessionId, s, nowS());
    expect((await deliverWithStripeKeys(completed)).status).toBe(200);
    expect(stripe.calls).toContain(`DELETE /v1/subscriptions/${s.subscriptionId}`);
    expect(stripe.calls).toContain(`POST /v1/refunds pi_in_${s.subscriptionId}`);
    const paid = testInvoice("invoice.paid", s, nowS(), nowS());
    expect((await deliverWithStripeKeys(paid)).status).toBe(200);
    expect(stripe.calls).toContain(`POST /v1/refunds pi_${paid.data.object.id}`);
    const recorded = await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE id IN (?, ?)").bind(completed.id, paid.id).first();
    expect(recorded).toEqual({ n: 2 });
  });

  it("deletion at the same instant as the payment's completion: the subscription always stops at Stripe (cancelled, or told not to renew)", async () => {
    // Head starts, in database round trips, of the deletion and of the event: sweeps how their reads interleave.
    const roundTrips = async (n: number) => {
      for (let i = 0; i < n; i++) await env.DB.prepare("SELECT 1").first();
    };
    for (const [trial, [deleteAfter, hookAfter]] of [[0, 0], [0, 0], [1, 0], [0, 1], [2, 0], [0, 2], [4, 0], [0, 4]].entries()) {
      const stripe = fakeStripeBilling();
      const id = freshId("gonerace");
      await insertListing(owner.user.id, id);
      const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: owner.user.id };
      const [deleted, hook] = await Promise.all([
        roundTrips(deleteAfter!).then(() => fetchWith(STRIPE_KEYS, `/api/v1/subleases/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${owner.access_token}` } })),
        roundTrips(hookAfter!).then(() => deliverWithStripeKeys(testCheckoutCompleted(`cs_${id}`, s, nowS()))),
      ]);
      expect([deleted.status < 300, hook.status], `trial ${trial + 1}`).toEqual([true, 200]);
      // Deleted first: the event finds no listing and cancels (and refunds) at Stripe; paid first: the
      // deletion stops its renewal as Cancel does (cancel_at_period_end).
      const stops = stripe.calls.filter((c) => c === `DELETE /v1/subscriptions/${s.subscriptionId}` || c === `POST /v1/subscriptions/${s.subscriptionId}`);
      expect(stops.length, `trial ${trial + 1}: ${stripe.calls.join(", ")}`).toBeGreaterThan(0);
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM listings WHERE id = ?").bind(id).first()).toEqual({ n: 0 });
      vi.restoreAllMocks();
    }
  });

  it("account deletion at the same instant as the payment's completion: the subscription always stops at Stripe (cancelled, or told not to renew)", async () => {
    const roundTrips = async (n: number) => {
      for (let i = 0; i < n; i++) await env.DB.prepare("SELECT 1").first();
    };
    for (const [trial, [deleteAfter, hookAfter]] of [[0, 0], [1, 0], [0, 1], [2, 0], [0, 2], [4, 0]].entries()) {
      const user = await signUp(`promo-delete-race-${trial}@ufl.edu`);
      const stripe = fakeStripeBilling();
      const id = freshId("acctrace");
      await insertListing(user.user.id, id);
      const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: user.user.id };
      const [deleted, hook] = await Promise.all([
        roundTrips(deleteAfter!).then(() => fetchWith(STRIPE_KEYS, "/api/v1/users/profile", { method: "DELETE", headers: { Authorization: `Bearer ${user.access_token}` } })),
        roundTrips(hookAfter!).then(() => deliverWithStripeKeys(testCheckoutCompleted(`cs_${id}`, s, nowS()))),
      ]);
      expect([deleted.status, hook.status], `trial ${trial + 1}`).toEqual([204, 200]);
      // Deleted first: the event finds no listing and cancels (and refunds) at Stripe; paid first: the
      // deletion stops its renewal as Cancel does (cancel_at_period_end).
      const stops = stripe.calls.filter((c) => c === `DELETE /v1/subscriptions/${s.subscriptionId}` || c === `POST /v1/subscriptions/${s.subscriptionId}`);
      expect(stops.length, `trial ${trial + 1}: ${stripe.calls.join(", ")}`).toBeGreaterThan(0);
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE id = ?").bind(user.user.id).first()).toEqual({ n: 0 });
      vi.restoreAllMocks();
    }
  });

  it("a suspension expires the owner's open sessions; one paid anyway is refused, refunded and does not promote", async () => {
    const user = await signUp("promo-suspended-tab@ufl.edu");
    const stripe = fakeStripeBilling();
    const id = freshId("susptab");
    await insertListing(user.user.id, id);
    const sessionId = await checkoutWithStripeKeys(user, id);
    await suspendUser(createDb(env), { ...env, ...STRIPE_KEYS }, "test-admin", user.user.id);
    expect(stripe.calls).toContain(`POST /v1/checkout/sessions/${sessionId}/expire`);
    stripe.calls.length = 0;
    const s: TestSubscription = { subscriptionId: `sub_${id}`, listingId: id, userId: user.user.id };
    expect((await deliverWithStripeKeys(testCheckoutCompleted(sessionId, s, nowS()))).status).toBe(200);
    expect(stripe.calls).toContain(`DELETE /v1/subscriptions/${s.subscriptionId}`);
    expect(stripe.calls).toContain(`POST /v1/refunds pi_in_${s.subscriptionId}`);
    expect(await env.DB.prepare("SELECT ended, duplicate FROM stripe_subscriptions WHERE id = ?").bind(s.subscriptionId).first()).toEqual({ ended: 1, duplicate: 1 });
    expect(await listingRow(id)).toMatchObject({ promotion_end: null, promotion_pending_days: null, stripe_subscription_id: null, auto_renew: 0 });
  });

  it("a suspension does not wait for Stripe: with Stripe down the listings leave public view at once, and the cron cancels the subscription later", async () => {
    const user = await signUp("promo-suspended-outage@ufl.edu");
    const id = freshId("outage");
    const { subscriptionId } = await listingWithLiveSubscription(user.user.id, id);
    vi.restoreAllMocks();
    const stripe = fakeStripeBilling();
    stripe.down = true;
    await suspendUser(createDb(env), { ...env, ...STRIPE_KEYS }, "test-admin", user.user.id);
    expect(await env.DB.prepare("SELECT moderation_status FROM listings WHERE id = ?").bind(id).first()).toEqual({ moderation_status: "suspended" });
    expect((await api(`/api/v1/subleases/${id}`)).status).toBe(404);
    expect(await env.DB.prepare("SELECT ended FROM stripe_subscriptions WHERE id = ?").bind(subscriptionId).first()).toEqual({ ended: 0 });

    stripe.down = false;
    stripe.calls.length = 0;
    const ctx = createExecutionContext();
    await entry.scheduled(createScheduledController({ cron: "*/15 * * * *" }), { ...env, ...STRIPE_KEYS }, ctx);
    await waitOnExecutionContext(ctx);
    await drainQueues({ env: { ...env, ...STRIPE_KEYS } });
    expect(stripe.calls).toContain(`DELETE /v1/subscriptions/${subscriptionId}`);
    expect(await env.DB.prepare("SELECT ended FROM stripe_subscriptions WHERE id = ?").bind(subscriptionId).first()).toEqual({ ended: 1 });
    expect(await listingRow(id)).toMatchObject({ promotion_end: null, stripe_subscription_id: null, auto_renew: 0 });
  });
});

describe("approve all (staff)", () => {
  it("starts a promotion bought while the listing was pending, like a single approval", async () => {
    const id = freshId("all-pending");
    await insertListing(owner.user.id, id, { verification_status: "pending" });
    await buyWithTestCheckout(id);
    expect((await listingRow(id))!.promotion_pending_days).toBe(7);
    const before = (await env.DB.prepare("SELECT promotion_version FROM listings WHERE id = ?").bind(id).first<{ promotion_version: number }>())!.promotion_version;
    const res = await api("/api/v1/admin/listings/verify-all", authed(adminToken, { method: "POST" }));
    expect(res.status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ promoted: true, state: "promoted", days_remaining: 7, auto_renew: true });
    expect(await listingRow(id)).toMatchObject({ promotion_pending_days: null, promotion_source: "stripe", auto_renew: 1 });
    // The version moved on: a Stripe event applied from a read of "pending" retries on the approved listing.
    const after = (await env.DB.prepare("SELECT promotion_version FROM listings WHERE id = ?").bind(id).first<{ promotion_version: number }>())!.promotion_version;
    expect(after).toBeGreaterThan(before);
  });
});

describe("Cancel with Stripe keys", () => {
  it("marks cancelled only the subscriptions it told Stripe about, not one recorded while it talked to Stripe", async () => {
    const id = freshId("told");
    await insertListing(owner.user.id, id);
    const first: TestSubscription = { subscriptionId: `sub_first_${id}`, listingId: id, userId: owner.user.id };
    fakeStripeBilling();
    expect((await deliverWithStripeKeys(testCheckoutCompleted(`cs_${id}`, first, nowS()))).status).toBe(200);
    vi.restoreAllMocks();
    const stripe = fakeStripeBilling();
    // While Stripe is being told, another subscription of the listing is recorded (as an older release could).
    stripe.afterCall = async (call) => {
      if (call !== `POST /v1/subscriptions/${first.subscriptionId}`) return;
      await env.DB.prepare("INSERT INTO stripe_subscriptions (id, listing_id, user_id, status, checked_out) VALUES (?, ?, ?, 'active', 1)").bind(`sub_late_${id}`, id, owner.user.id).run();
    };
    const res = await fetchWith(STRIPE_KEYS, `/api/v1/promotions/cancel/${id}`, { method: "POST", headers: { Authorization: `Bearer ${owner.access_token}` } });
    expect(res.status).toBe(200);
    expect(stripe.calls.filter((c) => c.startsWith("POST /v1/subscriptions/"))).toEqual([`POST /v1/subscriptions/${first.subscriptionId}`]);
    const rows = (await env.DB.prepare("SELECT id, cancel_at_period_end FROM stripe_subscriptions WHERE listing_id = ? ORDER BY id").bind(id).all()).results;
    expect(rows).toEqual([
      { id: first.subscriptionId, cancel_at_period_end: 1 },
      { id: `sub_late_${id}`, cancel_at_period_end: 0 },
    ]);
  });
});

describe("a duplicate refunded, then its batch loses a race (Stripe keys)", () => {
  it("stays ended and refunded when the first subscription's deletion commits meanwhile; the owner is told once", async () => {
    const user = await signUp("promo-dup-race@ufl.edu");
    const id = freshId("duprace");
    await insertListing(user.user.id, id);
    const first: TestSubscription = { subscriptionId: `sub_first_${id}`, listingId: id, userId: user.user.id };
    const second: TestSubscription = { subscriptionId: `sub_second_${id}`, listingId: id, userId: user.user.id };
    const stripe = fakeStripeBilling();
    expect((await deliverWithStripeKeys(testCheckoutCompleted(`cs_a_${id}`, first, nowS()))).status).toBe(200);
    // The moment Stripe cancels the second, the first's deletion arrives and commits first.
    stripe.afterCall = async (call) => {
      if (call !== `DELETE /v1/subscriptions/${second.subscriptionId}`) return;
      stripe.afterCall = undefined;
      expect((await deliverWithStripeKeys(subscriptionEvent("customer.subscription.deleted", first, { status: "canceled" }))).status).toBe(200);
    };
    expect((await deliverWithStripeKeys(testCheckoutCompleted(`cs_b_${id}`, second, nowS()))).status).toBe(200);
    expect(stripe.calls).toContain(`POST /v1/refunds pi_in_${second.subscriptionId}`);
    const rows = (await env.DB.prepare("SELECT id, ended, duplicate FROM stripe_subscriptions WHERE listing_id = ? ORDER BY id").bind(id).all()).results;
    expect(rows).toEqual([
      { id: first.subscriptionId, ended: 1, duplicate: 0 },
      { id: second.subscriptionId, ended: 1, duplicate: 1 },
    ]);
    expect(await listingRow(id)).toMatchObject({ promotion_end: null, stripe_subscription_id: null, auto_renew: 0 });
    const mail = await json<{ data: { subject: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(user.user.email)}`));
    expect(mail.data.filter((m) => m.subject.includes("duplicate promotion payment"))).toHaveLength(1);
  });

  it("a refund Stripe says is already done (its idempotency key forgotten after 24 hours) counts as done", async () => {
    const id = freshId("duprefunded");
    await insertListing(owner.user.id, id);
    const first: TestSubscription = { subscriptionId: `sub_first_${id}`, listingId: id, userId: owner.user.id };
    const second: TestSubscription = { subscriptionId: `sub_second_${id}`, listingId: id, userId: owner.user.id };
    fakeStripeBilling();
    expect((await deliverWithStripeKeys(testCheckoutCompleted(`cs_a_${id}`, first, nowS()))).status).toBe(200);
    vi.restoreAllMocks();
    const stripe = fakeStripeBilling();
    const realFetch = vi.mocked(globalThis.fetch).getMockImplementation()!;
    vi.mocked(globalThis.fetch).mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (new Request(input, init).url.endsWith("/v1/refunds")) {
        stripe.calls.push("POST /v1/refunds (already refunded)");
        const error = { type: "invalid_request_error", code: "charge_already_refunded", message: "Charge ch_1 has already been refunded." };
        return new Response(JSON.stringify({ error }), { status: 400, headers: { "content-type": "application/json" } });
      }
      return realFetch(input, init);
    });
    expect((await deliverWithStripeKeys(testCheckoutCompleted(`cs_b_${id}`, second, nowS()))).status).toBe(200);
    expect(stripe.calls).toContain("POST /v1/refunds (already refunded)");
    expect(await env.DB.prepare("SELECT ended, duplicate FROM stripe_subscriptions WHERE id = ?").bind(second.subscriptionId).first()).toEqual({ ended: 1, duplicate: 1 });
  });
});

describe("a promoted listing off the market stops renewing, and the owner hears about the money", () => {
  type Mail = { subject: string; text: string };
  const mailsTo = async (email: string) => (await json<{ data: Mail[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(email)}`))).data;
  const promoted = async (fields: Record<string, string | number | null> = {}) => {
    const id = freshId("off");
    await insertListing(owner.user.id, id, { title: `Room ${id}`, ...fields });
    await buyWithTestCheckout(id);
    expect(await statusOf(id)).toMatchObject({ state: "promoted", auto_renew: true });
    return id;
  };
  const patchStatus = (id: string, status: string) => as(owner, `/api/v1/subleases/${id}`, { method: "PATCH", body: JSON.stringify({ status }) });

  /** Cancelled as Cancel does: runs to the promotion_end it had, auto_renew false; the owner emailed why. */
  async function expectStopped(id: string, before: PromotionStatus, why: string) {
    expect(await statusOf(id)).toMatchObject({ promoted: true, auto_renew: false, state: "cancelled", promotion_end: before.promotion_end });
    const [stop] = await mailsTo(owner.user.email);
    expect(stop!.subject).toBe(`The promotion of "Room ${id}" will not renew`);
    expect(stop!.text).toContain(why);
    expect(stop!.text).toContain("you will not be charged again");
  }

  it("every paid invoice emails a receipt (amount, listing, period, date), the development renewal's too", async () => {
    const id = await promoted();
    const [receipt] = await mailsTo(owner.user.email);
    expect(receipt!.subject).toBe(`Receipt: $5.00 for the promotion of "Room ${id}"`);
    const [bill] = (await json<{ data: BillingHistoryEntry[] }>(await as(owner, `/api/v1/promotions/billing-history/${id}`))).data;
    const day = (s: number) => new Date(s * 1000).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
    expect(receipt!.text).toContain("Amount: $5.00");
    expect(receipt!.text).toContain(`Listing: "Room ${id}"`);
    expect(receipt!.text).toContain(`Period: ${day(bill!.period_start)} to ${day(bill!.period_end)}`);
    expect(receipt!.text).toContain(`Date: ${day(bill!.created)}`);

    expect((await api(`/api/v1/dev/promotions/${id}/renew`, { method: "POST" })).status).toBe(204);
    const receipts = (await mailsTo(owner.user.email)).filter((m) => m.subject === `Receipt: $5.00 for the promotion of "Room ${id}"`);
    expect(receipts).toHaveLength(2);
  });

  it("Mark taken stops renewal as Cancel does; the development renewal plays nothing; available again does not restart it", async () => {
    const id = await promoted();
    const before = await statusOf(id);
    expect((await patchStatus(id, "taken")).status).toBe(200);
    await expectStopped(id, before, "You marked the listing as taken.");
    const stops = async () => (await mailsTo(owner.user.email)).filter((m) => m.subject === `The promotion of "Room ${id}" will not renew`).length;
    expect(await stops()).toBe(1);

    expect((await api(`/api/v1/dev/promotions/${id}/renew`, { method: "POST" })).status).toBe(409);
    expect(await billingRows(id)).toBe(1);

    expect((await patchStatus(id, "available")).status).toBe(200);
    expect(await statusOf(id)).toMatchObject({ auto_renew: false, state: "cancelled" });
    // Taken again: nothing renews any more, so no second email.
    expect((await patchStatus(id, "taken")).status).toBe(200);
    expect(await stops()).toBe(1);
  });

  it("the owner's Cancel emails the owner too, once", async () => {
    const id = await promoted();
    const before = await statusOf(id);
    expect((await as(owner, `/api/v1/promotions/cancel/${id}`, { method: "POST" })).status).toBe(200);
    await expectStopped(id, before, "You cancelled its subscription.");
    expect((await as(owner, `/api/v1/promotions/cancel/${id}`, { method: "POST" })).status).toBe(200);
    expect((await mailsTo(owner.user.email)).filter((m) => m.subject === `The promotion of "Room ${id}" will not renew`)).toHaveLength(1);
  });

  it("hiding it stops renewal the same way", async () => {
    const id = await promoted();
    const before = await statusOf(id);
    expect((await patchStatus(id, "hidden")).status).toBe(200);
    await expectStopped(id, before, "You hid the listing.");
  });

  it("the one-click 'Taken' link of the freshness email stops it too", async () => {
    const id = await promoted();
    const before = await statusOf(id);
    const token = await signAvailabilityToken(env.JWT_SECRET, { listingId: id, ownerId: owner.user.id, action: "taken" }, 3600);
    expect((await post("/api/v1/availability/confirm", { token })).status).toBe(200);
    await expectStopped(id, before, "You marked the listing as taken.");
  });

  it("the freshness check's pause stops it (the cron), and runs it to promotion_end", async () => {
    const id = await promoted({ availability_confirmed_at: new Date().toISOString() });
    const before = await statusOf(id);
    expect((await post(`/api/v1/dev/listings/${id}/age-availability`, { days: 22 })).status).toBe(200);
    expect((await post("/api/v1/dev/housekeeping", {})).status).toBe(200);
    expect((await env.DB.prepare("SELECT status FROM listings WHERE id = ?").bind(id).first<{ status: string }>())!.status).toBe("paused");
    await expectStopped(id, before, "The listing was paused because its availability was not confirmed for 21 days.");
    expect((await api(`/api/v1/dev/promotions/${id}/renew`, { method: "POST" })).status).toBe(409);
  });

  it("deleted by its owner: emailed, still in promoted-listings (deleted: true), its billing history answers its owner only", async () => {
    const id = await promoted();
    expect((await as(owner, `/api/v1/subleases/${id}`, { method: "DELETE" })).status).toBe(204);
    const [stop] = await mailsTo(owner.user.email);
    expect(stop!.subject).toBe(`The promotion of "Room ${id}" will not renew`);
    expect(stop!.text).toContain("You deleted the listing.");

    const listed = (await json<{ data: PromotedListing[] }>(await as(owner, "/api/v1/users/promoted-listings"))).data.find((l) => l.id === id);
    expect(listed).toMatchObject({ id, title: `Room ${id}`, deleted: true, auto_renew: false, promotion_state: "cancelled", pictures: [], thumbnails: [] });
    const history = await as(owner, `/api/v1/promotions/billing-history/${id}`);
    expect(history.status).toBe(200);
    expect((await json<{ data: BillingHistoryEntry[] }>(history)).data).toEqual([expect.objectContaining({ amount: 500, status: "paid" })]);
    const stranger = await as(other, `/api/v1/promotions/billing-history/${id}`);
    expect(stranger.status).toBe(404);
    expect(await json(stranger)).toEqual({ detail: "Listing not found" });
    expect((await json<{ data: PromotedListing[] }>(await as(other, "/api/v1/users/promoted-listings"))).data.some((l) => l.id === id)).toBe(false);
  });

  it("deleted by staff: the owner is emailed that our team deleted it, and keeps its history", async () => {
    const id = await promoted();
    const res = await api("/api/v1/admin/delete-item", authed(adminToken, { method: "DELETE", headers: { "content-type": "application/json" }, body: JSON.stringify({ tableName: "listings", itemId: id }) }));
    expect(res.status).toBe(200);
    const [stop] = await mailsTo(owner.user.email);
    expect(stop!.text).toContain("Our team deleted the listing.");
    expect((await json<{ data: PromotedListing[] }>(await as(owner, "/api/v1/users/promoted-listings"))).data.find((l) => l.id === id)).toMatchObject({ deleted: true });
    expect((await as(owner, `/api/v1/promotions/billing-history/${id}`)).status).toBe(200);
  });

  it("deleted with the account: its renewal stops and the address is emailed after the account is gone", async () => {
    const leaving = await signUp("promo-leaving@ufl.edu");
    const id = freshId("acct");
    await insertListing(leaving.user.id, id, { title: `Room ${id}` });
    const res = await as(leaving, "/api/v1/promotions/create-checkout-session", { method: "POST", body: JSON.stringify({ listing_id: id }) });
    const { data } = await json<{ data: { checkout_url: string } }>(res);
    expect((await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" })).status).toBe(303);
    const sub = await env.DB.prepare("SELECT id FROM stripe_subscriptions WHERE listing_id = ?").bind(id).first<{ id: string }>();
    expect(sub).not.toBeNull();

    expect((await as(leaving, "/api/v1/users/profile", { method: "DELETE" })).status).toBe(204);
    const [stop] = await mailsTo("promo-leaving@ufl.edu");
    expect(stop!.subject).toBe(`The promotion of "Room ${id}" will not renew`);
    expect(stop!.text).toContain("Your account was deleted.");
    expect(stop!.text).not.toContain("Open billing");
    // Nothing of the account is kept for a promoted-listings page nobody can open.
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM deleted_promoted_listings WHERE user_id = ?").bind(leaving.user.id).first()).toEqual({ n: 0 });
  });
});

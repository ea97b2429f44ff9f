/**
 * Payouts (docs/decisions/030): onboarding creates one Connect account per lister and answers a link
 * into it (development: the local onboarding page; with keys: Stripe's, through the real SDK against a
 * fake Stripe behind a fetch spy), `payouts/status` reads what Stripe last said, and the Connect endpoint
 * takes only events signed with its own secret.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import entry from "../../../worker/index";
import type { PayoutOnboardingResponse, PayoutStatusResponse } from "../../../worker/contract/payouts";
import { DEV_CONNECT_WEBHOOK_SECRET, DEV_WEBHOOK_SECRET } from "../../../worker/env";
import { devAccountUpdated } from "../../../worker/services/payouts/dev-connect";
import { signWebhookPayload } from "../../../worker/services/stripe/webhook";
import { api, authed, json, type Session, signUp, signUpVerified } from "../helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

const nowS = () => Math.floor(Date.now() / 1000);

async function fetchWith(bindings: Record<string, string>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await entry.fetch(new Request(`http://localhost${path}`, init) as Request<unknown, IncomingRequestCfProperties>, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const onboard = (s: Session, bindings: Record<string, string> = {}) => fetchWith(bindings, "/api/v1/payouts/onboarding", { method: "POST", headers: { Authorization: `Bearer ${s.access_token}` } });
const statusOf = async (s: Session, query = "", bindings: Record<string, string> = {}) => {
  const res = await fetchWith(bindings, `/api/v1/payouts/status${query}`, { headers: { Authorization: `Bearer ${s.access_token}` } });
  expect(res.status).toBe(200);
  return (await json<PayoutStatusResponse>(res)).data;
};
const payoutRows = async (userId: string) =>
  (await env.DB.prepare("SELECT stripe_account_id, status, requirements_due FROM payout_accounts WHERE user_id = ?").bind(userId).all<{ stripe_account_id: string; status: string; requirements_due: string | null }>()).results;

async function deliver(event: object, { secret = DEV_CONNECT_WEBHOOK_SECRET, bindings = {} as Record<string, string> } = {}) {
  const payload = JSON.stringify(event);
  return fetchWith(bindings, "/api/v1/payments/connect-webhook", {
    method: "POST",
    body: payload,
    headers: { "stripe-signature": await signWebhookPayload(secret, payload), "content-type": "application/json" },
  });
}

let lister: Session;
let other: Session;
beforeAll(async () => {
  lister = await signUpVerified("payouts-lister@ufl.edu");
  other = await signUpVerified("payouts-other@ufl.edu");
});

describe("who may call", () => {
  it("signed out: onboarding and status are 401 with a detail", async () => {
    for (const res of [await api("/api/v1/payouts/onboarding", { method: "POST" }), await api("/api/v1/payouts/status")]) {
      expect(res.status).toBe(401);
      expect((await json<{ detail: string }>(res)).detail).toBeTruthy();
    }
  });

  it("onboarding is for ID-verified users only: 403 with a detail, and no account made anywhere", async () => {
    const unverified = await signUp("payouts-unverified@ufl.edu");
    const res = await onboard(unverified);
    expect(res.status).toBe(403);
    expect((await json<{ detail: string }>(res)).detail).toMatch(/Verify your identity/);
    expect(await env.DB.prepare("SELECT user_id FROM payout_accounts WHERE user_id = ?").bind(unverified.user.id).first()).toBeNull();
    expect(await statusOf(unverified)).toEqual({ status: "none", requirements_due: [] });
  });

  it("status is the caller's own: another lister's account is not theirs", async () => {
    const me = await signUpVerified("payouts-own@ufl.edu");
    expect((await onboard(me)).status).toBe(200);
    expect(await statusOf(me)).toEqual({ status: "pending", requirements_due: [] });
    expect(await statusOf(other)).toEqual({ status: "none", requirements_due: [] });
  });
});

describe("development without keys", () => {
  it("onboarding answers the local page, reuses the account, and Complete onboarding makes it ready through the signed Connect webhook", async () => {
    expect(await statusOf(lister)).toEqual({ status: "none", requirements_due: [] });
    const first = await onboard(lister);
    expect(first.status).toBe(200);
    const { url } = (await json<PayoutOnboardingResponse>(first)).data;
    expect(url).toMatch(/^\/dev\/connect\/acct_dev_[0-9A-Za-z]{16}$/);
    expect(await statusOf(lister)).toEqual({ status: "pending", requirements_due: [] });
    // A second tap: the same account.
    expect((await json<PayoutOnboardingResponse>(await onboard(lister))).data.url).toBe(url);
    expect(await payoutRows(lister.user.id)).toHaveLength(1);

    const page = await api(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("stands in for Stripe's onboarding");
    expect(html).toContain(`action="${url}/complete"`);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('href="/dev/connect.css"');
    const css = await api("/dev/connect.css");
    expect(css.headers.get("content-type")).toContain("text/css");
    expect(await css.text()).toContain("prefers-color-scheme:dark");

    const done = await api(`${url}/complete`, { method: "POST" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/profile?payouts=ready#payouts");
    expect(await statusOf(lister)).toEqual({ status: "ready", requirements_due: [] });
    // The event went through the Connect endpoint: recorded once, with its effect.
    const recorded = await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE type = 'account.updated'").first<{ n: number }>();
    expect(recorded!.n).toBeGreaterThanOrEqual(1);
  });

  it("two taps at once make one account", async () => {
    const s = await signUpVerified("payouts-twotaps@ufl.edu");
    const [a, b] = await Promise.all([onboard(s), onboard(s)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const urls = [(await json<PayoutOnboardingResponse>(a)).data.url, (await json<PayoutOnboardingResponse>(b)).data.url];
    expect(urls[0]).toBe(urls[1]);
    expect(await payoutRows(s.user.id)).toHaveLength(1);
  });

  it("the page of an unknown or non-local account is 404", async () => {
    expect((await api("/dev/connect/acct_dev_missing")).status).toBe(404);
    expect((await api("/dev/connect/acct_1RealStripeAcct", { method: "GET" })).status).toBe(404);
    expect((await api("/dev/connect/acct_dev_missing/complete", { method: "POST" })).status).toBe(404);
  });

  it("outside development the page, its completion and keyless onboarding do not exist", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const staging = { ENVIRONMENT: "test", PUBLIC_BASE_URL: "https://staging.campusnest.example", STRIPE_WEBHOOK_SECRET: "", STRIPE_CONNECT_WEBHOOK_SECRET: "" };
    const s = await signUpVerified("payouts-staging@ufl.edu");
    const { url } = (await json<PayoutOnboardingResponse>(await onboard(s))).data;
    expect((await fetchWith(staging, url)).status).toBe(404);
    expect((await fetchWith(staging, `${url}/complete`, { method: "POST" })).status).toBe(404);
    expect((await fetchWith(staging, "/dev/connect.css")).status).toBe(404);
    const keyless = await onboard(other, staging);
    expect(keyless.status).toBe(503);
    expect((await json<{ detail: string }>(keyless)).detail).toBeTruthy();
    // And the development secret signs nothing there: the account stays pending.
    const forged = await deliver(devAccountUpdated(url.split("/").pop()!, s.user.id, nowS() + 5, "active"), { bindings: staging });
    expect(forged.status).toBe(400);
    expect(await statusOf(s)).toEqual({ status: "pending", requirements_due: [] });
  });
});

describe("the Connect endpoint", () => {
  async function pendingAccount(email: string) {
    const s = await signUpVerified(email);
    const { url } = (await json<PayoutOnboardingResponse>(await onboard(s))).data;
    return { s, accountId: url.split("/").pop()! };
  }

  it("refuses a missing, wrong or platform-secret signature, and changes nothing", async () => {
    const { s, accountId } = await pendingAccount("payouts-sig@ufl.edu");
    const event = devAccountUpdated(accountId, s.user.id, nowS(), "active");
    const payload = JSON.stringify(event);
    const unsigned = await api("/api/v1/payments/connect-webhook", { method: "POST", body: payload });
    expect(unsigned.status).toBe(400);
    expect((await json<{ detail: string }>(unsigned)).detail).toBe("Invalid signature");
    // Signed with the platform endpoint's secret: each endpoint has its own.
    expect((await deliver(event, { secret: DEV_WEBHOOK_SECRET })).status).toBe(400);
    expect((await deliver(event, { secret: "whsec_someone_else" })).status).toBe(400);
    const stale = await signWebhookPayload(DEV_CONNECT_WEBHOOK_SECRET, payload, nowS() - 3600);
    expect((await api("/api/v1/payments/connect-webhook", { method: "POST", body: payload, headers: { "stripe-signature": stale } })).status).toBe(400);
    expect(await statusOf(s)).toEqual({ status: "pending", requirements_due: [] });
    const recorded = await env.DB.prepare("SELECT COUNT(*) AS n FROM stripe_events WHERE id = ?").bind(event.id).first<{ n: number }>();
    expect(recorded!.n).toBe(0);
    // The same event, rightly signed, applies.
    expect((await json<{ applied: boolean }>(await deliver(event))).applied).toBe(true);
    expect((await statusOf(s)).status).toBe("ready");
  });

  it("the platform endpoint refuses a Connect event (it names a connected account), even signed with the platform's secret", async () => {
    const { s, accountId } = await pendingAccount("payouts-wrong-door@ufl.edu");
    const event = { ...devAccountUpdated(accountId, s.user.id, nowS(), "active"), account: accountId };
    const payload = JSON.stringify(event);
    for (const path of ["/api/v1/payments/webhook", "/api/v1/promotions/webhook"]) {
      const res = await api(path, { method: "POST", body: payload, headers: { "stripe-signature": await signWebhookPayload(DEV_WEBHOOK_SECRET, payload), "content-type": "application/json" } });
      expect(res.status, path).toBe(400);
      expect((await json<{ detail: string }>(res)).detail).toMatch(/Connect endpoint/);
    }
    expect(await env.DB.prepare("SELECT id FROM stripe_events WHERE id = ?").bind(event.id).first()).toBeNull();
    expect(await statusOf(s)).toEqual({ status: "pending", requirements_due: [] });
  });

  it("a malformed account.updated is a 400; another event type is acknowledged and changes nothing", async () => {
    const { s, accountId } = await pendingAccount("payouts-shape@ufl.edu");
    const bad = devAccountUpdated(accountId, s.user.id, nowS(), "active");
    (bad.data.object as { id: string }).id = "not-an-account";
    const res = await deliver(bad);
    expect(res.status).toBe(400);
    expect((await json<{ detail: string }>(res)).detail).toContain("account.updated");
    const other = { ...devAccountUpdated(accountId, s.user.id, nowS(), "active"), type: "account.application.authorized" };
    const ignored = await deliver(other);
    expect(ignored.status).toBe(200);
    expect((await json<{ applied: boolean }>(ignored)).applied).toBe(false);
    expect(await statusOf(s)).toEqual({ status: "pending", requirements_due: [] });
  });

  it("pending while transfers are not active, with what Stripe still asks for; ready when they are; back to pending when Stripe restricts it", async () => {
    const { s, accountId } = await pendingAccount("payouts-rule@ufl.edu");
    const t = nowS();
    await deliver(devAccountUpdated(accountId, s.user.id, t, "inactive", ["individual.dob.day", "external_account"]));
    expect(await statusOf(s)).toEqual({ status: "pending", requirements_due: ["individual.dob.day", "external_account"] });
    await deliver(devAccountUpdated(accountId, s.user.id, t + 1, "pending"));
    expect((await statusOf(s)).status).toBe("pending");
    await deliver(devAccountUpdated(accountId, s.user.id, t + 2, "active"));
    expect(await statusOf(s)).toEqual({ status: "ready", requirements_due: [] });
    await deliver(devAccountUpdated(accountId, s.user.id, t + 3, "inactive", ["individual.verification.document"]));
    expect(await statusOf(s)).toEqual({ status: "pending", requirements_due: ["individual.verification.document"] });
  });

  it("an account's event before onboarding stored it creates the row from the account's metadata; an account of nobody is acknowledged", async () => {
    const s = await signUpVerified("payouts-early@ufl.edu");
    const early = await deliver(devAccountUpdated("acct_early1", s.user.id, nowS(), "inactive", ["external_account"]));
    expect((await json<{ applied: boolean }>(early)).applied).toBe(true);
    expect(await payoutRows(s.user.id)).toEqual([{ stripe_account_id: "acct_early1", status: "pending", requirements_due: '["external_account"]' }]);
    const nobody = await deliver(devAccountUpdated("acct_nobody", "no-such-user", nowS(), "active"));
    expect(nobody.status).toBe(200);
    expect((await json<{ applied: boolean }>(nobody)).applied).toBe(false);
    const stray = { ...devAccountUpdated("acct_stray", s.user.id, nowS(), "active") };
    (stray.data.object as { metadata: Record<string, string> }).metadata = {};
    expect((await json<{ applied: boolean }>(await deliver(stray))).applied).toBe(false);
    // The user's row keeps its own account: another account naming them changes nothing.
    expect((await json<{ applied: boolean }>(await deliver(devAccountUpdated("acct_other2", s.user.id, nowS() + 10, "active")))).applied).toBe(false);
    expect(await payoutRows(s.user.id)).toEqual([{ stripe_account_id: "acct_early1", status: "pending", requirements_due: '["external_account"]' }]);
  });
});

const STRIPE_KEYS = { STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: "whsec_fake_secret", STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_fake_connect" };

/**
 * A fake Stripe for Connect: accounts (created, honouring idempotency keys as Stripe does, and
 * retrieved with `transfers` as set), and account links. The calls, as "METHOD /path", with their
 * Idempotency-Key and form.
 */
function fakeStripeConnect() {
  const state = {
    calls: [] as { call: string; key: string | null; form: URLSearchParams }[],
    accounts: new Map<string, string>(),
    transfers: "inactive" as "active" | "inactive",
    down: false,
  };
  let n = 0;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname !== "api.stripe.com") throw new Error(`unexpected outbound request to ${url.hostname}`);
    const form = request.method === "POST" ? new URLSearchParams(await request.text()) : new URLSearchParams();
    const key = request.headers.get("idempotency-key");
    state.calls.push({ call: `${request.method} ${url.pathname}`, key, form });
    const answer = (body: object, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "request-id": "req_fake" } });
    if (state.down) return answer({ error: { type: "api_error", message: "Stripe is down" } }, 500);
    if (request.method === "POST" && url.pathname === "/v1/accounts") {
      // As Stripe: the same key answers the same account.
      const known = key ? state.accounts.get(key) : undefined;
      const id = known ?? `acct_fake${++n}${crypto.randomUUID().slice(0, 6)}`;
      if (key) state.accounts.set(key, id);
      return answer({ id, object: "account", capabilities: { transfers: "inactive" }, metadata: { user_id: form.get("metadata[user_id]") } });
    }
    const account = /^\/v1\/accounts\/([^/]+)$/.exec(url.pathname);
    if (account && request.method === "GET") {
      return answer({
        id: account[1],
        object: "account",
        details_submitted: state.transfers === "active",
        payouts_enabled: state.transfers === "active",
        capabilities: { transfers: state.transfers },
        requirements: { currently_due: state.transfers === "active" ? [] : ["external_account"] },
      });
    }
    if (request.method === "POST" && url.pathname === "/v1/account_links") {
      return answer({ object: "account_link", url: `https://connect.stripe.com/setup/e/${form.get("account")}/link${++n}`, expires_at: nowS() + 300 });
    }
    return answer({ error: { message: "not faked" } }, 404);
  });
  return state;
}

describe("with Stripe keys (the real SDK against a fake Stripe)", () => {
  it("creates one Express-dashboard account with transfers, once, and answers an account link back to the profile's Payouts", async () => {
    const s = await signUpVerified("payouts-keys@ufl.edu");
    const stripe = fakeStripeConnect();
    const res = await onboard(s, STRIPE_KEYS);
    expect(res.status).toBe(200);
    const { url } = (await json<PayoutOnboardingResponse>(res)).data;
    expect(url).toMatch(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_fake/);
    const create = stripe.calls.find((c) => c.call === "POST /v1/accounts")!;
    expect(create.key).toBe(`connect-account-${s.user.id}`);
    expect(create.form.get("controller[stripe_dashboard][type]")).toBe("express");
    expect(create.form.get("controller[losses][payments]")).toBe("application");
    expect(create.form.get("capabilities[transfers][requested]")).toBe("true");
    expect(create.form.get("metadata[user_id]")).toBe(s.user.id);
    const link = stripe.calls.find((c) => c.call === "POST /v1/account_links")!;
    expect(link.form.get("type")).toBe("account_onboarding");
    expect(link.form.get("return_url")).toBe("http://localhost/profile?payouts=return#payouts");
    expect(link.form.get("refresh_url")).toBe("http://localhost/profile?payouts=return#payouts");
    const [row] = await payoutRows(s.user.id);
    expect(link.form.get("account")).toBe(row!.stripe_account_id);

    // Continue later: the stored account, a fresh link, no second account.
    stripe.calls.length = 0;
    expect((await onboard(s, STRIPE_KEYS)).status).toBe(200);
    expect(stripe.calls.map((c) => c.call)).toEqual(["POST /v1/account_links"]);
    expect(stripe.calls[0]!.form.get("account")).toBe(row!.stripe_account_id);
  });

  it("two taps at once: one account at Stripe (its idempotency key) and one row", async () => {
    const s = await signUpVerified("payouts-keys-twice@ufl.edu");
    const stripe = fakeStripeConnect();
    const answers = await Promise.all([onboard(s, STRIPE_KEYS), onboard(s, STRIPE_KEYS), onboard(s, STRIPE_KEYS)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(stripe.accounts.values()).size).toBe(1);
    const rows = await payoutRows(s.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.stripe_account_id).toBe([...stripe.accounts.values()][0]);
    for (const a of answers) expect((await json<PayoutOnboardingResponse>(a)).data.url).toContain(rows[0]!.stripe_account_id);
  });

  it("Stripe down: 502 with a detail and no row", async () => {
    const s = await signUpVerified("payouts-keys-down@ufl.edu");
    const stripe = fakeStripeConnect();
    stripe.down = true;
    const res = await onboard(s, STRIPE_KEYS);
    expect(res.status).toBe(502);
    expect((await json<{ detail: string }>(res)).detail).toContain("Stripe");
    expect(await payoutRows(s.user.id)).toHaveLength(0);
  });

  it("status asks Stripe only on refresh (the return from onboarding), and only while pending", async () => {
    const s = await signUpVerified("payouts-keys-refresh@ufl.edu");
    const stripe = fakeStripeConnect();
    await onboard(s, STRIPE_KEYS);
    stripe.calls.length = 0;
    expect(await statusOf(s, "", STRIPE_KEYS)).toEqual({ status: "pending", requirements_due: [] });
    expect(stripe.calls).toHaveLength(0);
    expect(await statusOf(s, "?refresh=1", STRIPE_KEYS)).toEqual({ status: "pending", requirements_due: ["external_account"] });
    stripe.transfers = "active";
    expect(await statusOf(s, "?refresh=1", STRIPE_KEYS)).toEqual({ status: "ready", requirements_due: [] });
    expect(stripe.calls.map((c) => c.call.replace(/acct_\w+/, "acct"))).toEqual(["GET /v1/accounts/acct", "GET /v1/accounts/acct"]);
    // Ready: no more calls.
    await statusOf(s, "?refresh=1", STRIPE_KEYS);
    expect(stripe.calls).toHaveLength(2);
    // An event older than the retrieve does not take it back.
    const [row] = await payoutRows(s.user.id);
    const late = await deliver(devAccountUpdated(row!.stripe_account_id, s.user.id, nowS() - 60, "inactive"), { secret: STRIPE_KEYS.STRIPE_CONNECT_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
    expect((await json<{ applied: boolean }>(late)).applied).toBe(false);
    expect((await statusOf(s, "", STRIPE_KEYS)).status).toBe("ready");
    // A bad refresh value is a 422 with its field, not a 500.
    const bad = await fetchWith(STRIPE_KEYS, "/api/v1/payouts/status?refresh=yes", { headers: { Authorization: `Bearer ${s.access_token}` } });
    expect(bad.status).toBe(422);
  });

  it("with keys, the Connect endpoint takes its own secret and refuses the development one", async () => {
    const s = await signUpVerified("payouts-keys-secret@ufl.edu");
    fakeStripeConnect();
    await onboard(s, STRIPE_KEYS);
    const [row] = await payoutRows(s.user.id);
    const event = devAccountUpdated(row!.stripe_account_id, s.user.id, nowS(), "active");
    expect((await deliver(event, { bindings: STRIPE_KEYS })).status).toBe(400);
    expect((await deliver(event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS })).status).toBe(400);
    expect((await deliver(event, { secret: STRIPE_KEYS.STRIPE_CONNECT_WEBHOOK_SECRET, bindings: STRIPE_KEYS })).status).toBe(200);
    expect((await statusOf(s)).status).toBe("ready");
  });
});

describe("account deletion", () => {
  it("the row goes with the account (the Stripe account itself is left as is)", async () => {
    const s = await signUpVerified("payouts-deleted@ufl.edu");
    await onboard(s);
    expect(await payoutRows(s.user.id)).toHaveLength(1);
    expect((await api("/api/v1/users/profile", authed(s.access_token, { method: "DELETE" }))).status).toBe(204);
    expect(await payoutRows(s.user.id)).toHaveLength(0);
  });
});

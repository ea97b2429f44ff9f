/**
 * A deal's first payment (docs/decisions/029): checkout (the development test checkout, and Stripe's
 * through the real SDK against the fake Stripe API), who may pay and when, paying takes the stay,
 * the hold and its release (the tick's injected time, "I have the keys"), a crash between Stripe's
 * answer and our write, a refused transfer, cancellations after payment, problems and staff's decision,
 * suspension, deletion and staff's figures.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb } from "../../../worker/db/client";
import { getConfig } from "../../../worker/env";
import { releaseHeld, runDealPaymentJobs } from "../../../worker/services/payments";
import { testTransfer } from "../../../worker/services/payments/events";
import { suspendUser } from "../../../worker/services/reports";
import { renderAgreementV1 } from "../../../worker/services/deals/agreement-template-v1";
import { renderAgreementV2, TEMPLATE_ID } from "../../../worker/services/deals/agreement-template-v2";
import {
  STRIPE_KEYS,
  adminLogin,
  api,
  authed,
  chargeRefundedEvent,
  dealOf,
  dealRow,
  deliverPlatform,
  fakeStripe,
  fetchWithBindings,
  insertSignedDeal,
  json,
  post,
  readyPayouts,
  withinOneMinute,
  type DealJson,
  type Session,
  signUp,
  uploadEvidence,
} from "../helpers";

let lister: Session;
let renter: Session;
let stranger: Session;
let admin: string;

beforeAll(async () => {
  [lister, renter, stranger] = await Promise.all([signUp("pay-lister@deals.test"), signUp("pay-renter@deals.test"), signUp("pay-stranger@deals.test")]);
  admin = await adminLogin();
  await readyPayouts(lister.user.id);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const call = (s: Session | string, path: string, method = "GET", body?: unknown, headers: Record<string, string> = {}) =>
  api(path, authed(typeof s === "string" ? s : s.access_token, { method, ...(body !== undefined && { body: JSON.stringify(body) }), headers: { "content-type": "application/json", ...headers } }));
const tick = (now: string) => post("/api/v1/dev/deals/tick", { now });
const mailTo = async (email: string) => (await json<{ data: { subject: string; text: string }[] }>(await api(`/api/v1/dev/emails?to=${encodeURIComponent(email)}`))).data;

/** Pays a deal through the development test checkout (checkout, then the page's Pay). */
async function payInDevelopment(dealId: string, s: Session = renter) {
  const res = await call(s, `/api/v1/deals/${dealId}/checkout`, "POST");
  expect(res.status).toBe(200);
  const { data } = await json<{ data: { checkout_url: string; session_id: string } }>(res);
  const paid = await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" });
  expect(paid.status).toBe(303);
  return { ...data, location: paid.headers.get("location") };
}

/** An ISO date `days` from today (UTC), for stays that must start soon. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("checkout: who may pay, and when", () => {
  it("answers 404 to a stranger, 403 to the lister, 409 with whose step before it can be paid", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    expect((await call(stranger, `/api/v1/deals/${dealId}/checkout`, "POST")).status).toBe(404);
    expect((await call(lister, `/api/v1/deals/${dealId}/checkout`, "POST")).status).toBe(403);

    const accepted = await insertSignedDeal(renter.user.id, lister.user.id, { status: "accepted" });
    const early = await call(renter, `/api/v1/deals/${accepted.dealId}/checkout`, "POST");
    expect(early.status).toBe(409);
    expect((await json<{ detail: string }>(early)).detail).toMatch(/accepted/);

    const consent = await insertSignedDeal(renter.user.id, lister.user.id, { consent: "requested" });
    const waitingConsent = await call(renter, `/api/v1/deals/${consent.dealId}/checkout`, "POST");
    expect(waitingConsent.status).toBe(409);
    expect((await json<{ detail: string }>(waitingConsent)).detail).toMatch(/landlord/);

    const other = await signUp("pay-lister-pending@deals.test");
    await readyPayouts(other.user.id, "pending");
    const pending = await insertSignedDeal(renter.user.id, other.user.id);
    const waitingPayouts = await call(renter, `/api/v1/deals/${pending.dealId}/checkout`, "POST");
    expect(waitingPayouts.status).toBe(409);
    expect((await json<{ detail: string }>(waitingPayouts)).detail).toMatch(/lister/);
    const shown = await dealOf(renter.access_token, pending.dealId);
    expect(shown.payment).toMatchObject({ status: "none", payable: false, waiting_for: "lister_payouts", fee_percent: 5 });
    expect((await dealOf(renter.access_token, dealId)).payment).toMatchObject({ payable: true, waiting_for: null });
  });

  it("answers one open session to two tabs and to a repeated Idempotency-Key; a key reused for another deal is 409", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const [a, b] = await Promise.all([call(renter, `/api/v1/deals/${dealId}/checkout`, "POST"), call(renter, `/api/v1/deals/${dealId}/checkout`, "POST")]);
    const [sa, sb] = await Promise.all([json<{ data: { session_id: string; checkout_url: string } }>(a), json<{ data: { session_id: string } }>(b)]);
    expect(sa.data.session_id).toBe(sb.data.session_id);
    expect(sa.data.checkout_url).toBe(`/dev/checkout/${sa.data.session_id}`);
    const sessions = await env.DB.prepare("SELECT count(*) AS n FROM deal_checkout_sessions WHERE deal_id = ?").bind(dealId).first<{ n: number }>();
    expect(sessions!.n).toBe(1);

    const keyed = await insertSignedDeal(renter.user.id, lister.user.id);
    const first = await call(renter, `/api/v1/deals/${keyed.dealId}/checkout`, "POST", undefined, { "Idempotency-Key": "pay-key-1" });
    const again = await call(renter, `/api/v1/deals/${keyed.dealId}/checkout`, "POST", undefined, { "Idempotency-Key": "pay-key-1" });
    expect((await json<{ data: { session_id: string } }>(again)).data.session_id).toBe((await json<{ data: { session_id: string } }>(first)).data.session_id);
    const misuse = await call(renter, `/api/v1/deals/${dealId}/checkout`, "POST", undefined, { "Idempotency-Key": "pay-key-1" });
    expect(misuse.status).toBe(409);
  });

  it("with Stripe keys: a payment-mode session, cards only, charged to the platform with the deal's transfer group and amounts", async () => {
    const stripe = fakeStripe();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { rent: 1000 });
    const res = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
    expect(res.status).toBe(200);
    const { data } = await json<{ data: { checkout_url: string; session_id: string } }>(res);
    expect(data.checkout_url).toBe(`https://checkout.stripe.com/c/pay/${data.session_id}`);
    const form = Object.fromEntries(stripe.calls.find((c) => c.path === "/v1/checkout/sessions")!.form);
    expect(form).toMatchObject({
      mode: "payment",
      "allowed_payment_method_types[0]": "card",
      "payment_intent_data[transfer_group]": dealId,
      "payment_intent_data[metadata][deal_id]": dealId,
      "metadata[deal_id]": dealId,
      "metadata[kind]": "deal_first_payment",
      client_reference_id: dealId,
      "line_items[0][price_data][unit_amount]": "100000",
      "line_items[1][price_data][unit_amount]": "5000",
      success_url: `http://localhost/deals/${dealId}?paid=1`,
      cancel_url: `http://localhost/deals/${dealId}?checkout=cancelled`,
    });
    // No destination on the charge: the lister gets nothing before release.
    expect(Object.keys(form).some((k) => k.includes("transfer_data") || k.includes("on_behalf_of"))).toBe(false);
  });
});

describe("checkout: Stripe's session once", () => {
  it("is made with a key of the deal: a retry after our write was lost gets the same session, not a second", async () => {
    const stripe = fakeStripe();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const checkout = async () => {
      const res = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
      expect(res.status).toBe(200);
      return (await json<{ data: { session_id: string } }>(res)).data.session_id;
    };
    await withinOneMinute(async () => {
      const first = await checkout();
      // A crash after Stripe answered: our batch (the session row, its event, the version's step) never landed.
      await env.DB.batch([
        env.DB.prepare("DELETE FROM deal_checkout_sessions WHERE deal_id = ?").bind(dealId),
        env.DB.prepare("DELETE FROM deal_events WHERE deal_id = ? AND type = 'checkout_started'").bind(dealId),
        env.DB.prepare("UPDATE deals SET version = version - 1 WHERE id = ?").bind(dealId),
      ]);
      expect(await checkout()).toBe(first);
    });
    const creates = stripe.calls.filter((c) => c.method === "POST" && c.path === "/v1/checkout/sessions");
    expect(creates.map((c) => c.idempotencyKey)).toEqual([expect.stringMatching(new RegExp(`^deal-checkout-${dealId}-`)), creates[0]!.idempotencyKey]);
    expect(stripe.sessions.size).toBe(1);
  });
});

describe("paying", () => {
  it("the test checkout shows what is paid; Pay makes the deal paid and held until 48 h after move-in, with a receipt", async () => {
    const { dealId, listingId } = await insertSignedDeal(renter.user.id, lister.user.id, { rent: 1200 });
    const res = await call(renter, `/api/v1/deals/${dealId}/checkout`, "POST");
    const { data } = await json<{ data: { checkout_url: string } }>(res);
    const page = await (await api(data.checkout_url)).text();
    for (const text of ["$1200.00", "$60.00", "$1260.00", "service fee (5%)", "48 hours after move-in", "directly to the lister", "14 days before move-in"]) expect(page, text).toContain(text);

    const paid = await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`/deals/${dealId}?paid=1`);
    const deal = await dealOf(renter.access_token, dealId);
    expect(deal.status).toBe("paid");
    expect(deal.payment).toMatchObject({ status: "held", rent_cents: 120_000, fee_cents: 6_000, total_cents: 126_000, refunded_cents: 0, payable: false });
    // Move-in's midnight in Anchorage (UTC-9 in March) plus 48 hours.
    expect(deal.payment.held_until).toBe("2027-03-03T09:00:00.000Z");
    const receipt = (await mailTo(renter.user.email)).find((m) => m.subject.startsWith("Receipt"));
    expect(receipt?.text).toContain("$1,260.00");
    expect(receipt?.text).toContain("service fee (5%): $60.00");
    expect(receipt?.text).toMatch(/holds the rent until/);
    // Paying again plays nothing: the session is spent.
    expect((await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" })).headers.get("location")).toBe(`/deals/${dealId}?paid=1`);
    // Its page says it is paid and offers no Pay (nor Cancel); a late Cancel says it was paid.
    const paidPage = await (await api(data.checkout_url)).text();
    expect(paidPage).toContain("Paid. This checkout is complete; there is nothing more to pay.");
    expect(paidPage).toContain("$1260.00");
    expect(paidPage).not.toMatch(/<button|\/complete"|\/cancel"/);
    expect(paidPage).toContain(`href="/deals/${dealId}?paid=1"`);
    const lateCancel = await (await api(`${data.checkout_url}/cancel`, { method: "POST" })).text();
    expect(lateCancel).toContain("Already paid");
    expect(lateCancel).not.toContain("You were not charged");
    expect((await dealRow(dealId))!.payment_intent_id).toMatch(/^pi_test_/);
    const listing = await json<{ data: { taken_stays: { move_in: string; move_out: string }[] } }>(await api(`/api/v1/subleases/${listingId}`));
    expect(listing.data.taken_stays).toEqual([{ move_in: "2027-03-01", move_out: "2027-06-30" }]);
  });

  it("takes the stay: overlapping requests are declined (stay_taken), new ones answer 409, and a listing wholly covered leaves browse", async () => {
    const { dealId, listingId } = await insertSignedDeal(renter.user.id, lister.user.id, { listing: { from: "2027-03-01", to: "2027-06-30" } });
    const other = await signUp("pay-other-renter@deals.test");
    const overlapping = await call(other, "/api/v1/deals", "POST", { listing_id: listingId, move_in: "2027-04-01", move_out: "2027-05-01" });
    expect(overlapping.status).toBe(201);
    const request = (await json<{ data: { id: string } }>(overlapping)).data.id;
    await payInDevelopment(dealId);
    const declined = await dealOf(other.access_token, request);
    expect([declined.status, declined.status_reason]).toEqual(["declined", "stay_taken"]);
    expect((await mailTo(other.user.email))[0]?.text).toMatch(/Someone else paid for a stay that overlaps/);
    expect((await call(other, "/api/v1/deals", "POST", { listing_id: listingId, move_in: "2027-05-01", move_out: "2027-06-01" })).status).toBe(404);
    const row = await env.DB.prepare("SELECT status FROM listings WHERE id = ?").bind(listingId).first<{ status: string }>();
    expect(row!.status).toBe("taken");
    const browse = await json<{ data: { id: string }[] }>(await api("/api/v1/subleases?limit=50&university_id=1"));
    expect(browse.data.map((l) => l.id)).not.toContain(listingId);
  });

  it("a payment arriving after the deal ended is refunded in full and changes nothing else", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const res = await call(renter, `/api/v1/deals/${dealId}/checkout`, "POST");
    const { data } = await json<{ data: { checkout_url: string } }>(res);
    expect((await call(renter, `/api/v1/deals/${dealId}/cancel`, "POST", {})).status).toBe(200);
    await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" });
    const row = (await dealRow(dealId))!;
    expect([row.status, row.payment_status, row.refund_due_cents, row.refunded_cents]).toEqual(["cancelled", "refunded", row.paid_cents, row.paid_cents]);
  });
});

describe("release", () => {
  it("the tick releases 48 h after move-in's midnight, not a minute before: a transfer to the lister, emails to both", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: "2027-02-10", moveOut: "2027-04-10" });
    await payInDevelopment(dealId);
    const heldUntil = (await dealOf(renter.access_token, dealId)).payment.held_until!;
    expect(heldUntil).toBe("2027-02-12T09:00:00.000Z");
    const before = await json<{ data: { released: number } }>(await tick(new Date(Date.parse(heldUntil) - 60_000).toISOString()));
    expect((await dealRow(dealId))!.payment_status).toBe("held");
    expect(before.data.released).toBeGreaterThanOrEqual(0);
    const at = await json<{ data: { released: number } }>(await tick(heldUntil));
    expect(at.data.released).toBeGreaterThanOrEqual(1);
    const deal = await dealOf(lister.access_token, dealId);
    expect(deal.status).toBe("released");
    expect(deal.payment).toMatchObject({ status: "released", released_at: heldUntil });
    const row = (await dealRow(dealId))!;
    expect(row.transfer_id).toMatch(/^tr_test_/);
    expect(row.transferred_cents).toBe(90_000);
    expect((await mailTo(lister.user.email)).some((m) => m.subject.startsWith("Released"))).toBe(true);
    // Again: nothing moves twice.
    await tick(heldUntil);
    expect((await dealRow(dealId))!.transferred_cents).toBe(90_000);
  });

  it('"I have the keys": only the renter, from the move-in date, while paid; released at the tap once 24 h have passed since payment', async () => {
    const soon = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: dayFromNow(3), moveOut: dayFromNow(60) });
    await payInDevelopment(soon.dealId);
    const early = await call(renter, `/api/v1/deals/${soon.dealId}/moved-in`, "POST");
    expect(early.status).toBe(409);
    expect((await json<{ detail: string }>(early)).detail).toMatch(/from the move-in date/);

    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: dayFromNow(-1), moveOut: dayFromNow(60) });
    expect((await call(renter, `/api/v1/deals/${dealId}/moved-in`, "POST")).status).toBe(409); // not paid yet
    await payInDevelopment(dealId);
    // Paid two days ago: the minimum hold is over, so the tap releases at once.
    await env.DB.prepare("UPDATE deals SET paid_at = ? WHERE id = ?").bind(new Date(Date.now() - 2 * 86_400_000).toISOString(), dealId).run();
    expect((await call(stranger, `/api/v1/deals/${dealId}/moved-in`, "POST")).status).toBe(404);
    expect((await call(lister, `/api/v1/deals/${dealId}/moved-in`, "POST")).status).toBe(403);
    const res = await call(renter, `/api/v1/deals/${dealId}/moved-in`, "POST");
    expect(res.status).toBe(200);
    const deal = (await json<{ data: DealJson }>(res)).data;
    expect(deal.status).toBe("released");
    expect(deal.moved_in_at).not.toBeNull();
    expect((await call(renter, `/api/v1/deals/${dealId}/moved-in`, "POST")).status).toBe(409);
  });

  it('the same-day cash-out is gone: "I have the keys" right after paying holds the money 24 hours after payment, then the tick releases it', async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: dayFromNow(-1), moveOut: dayFromNow(60) });
    await payInDevelopment(dealId);
    const paidAt = (await dealOf(renter.access_token, dealId)).payment.paid_at!;
    const res = await call(renter, `/api/v1/deals/${dealId}/moved-in`, "POST");
    expect(res.status).toBe(200);
    const deal = (await json<{ data: DealJson }>(res)).data;
    const heldUntil = new Date(Date.parse(paidAt) + 24 * 3_600_000).toISOString();
    expect(deal).toMatchObject({ status: "moved_in", payment: { status: "held", held_until: heldUntil } });
    expect((await dealRow(dealId))!.transferred_cents).toBe(0);
    await tick(new Date(Date.parse(heldUntil) - 60_000).toISOString());
    expect((await dealRow(dealId))!.status).toBe("moved_in");
    await tick(heldUntil);
    expect((await dealRow(dealId))!).toMatchObject({ status: "released", transferred_cents: 90_000 });
  });

  it("a worker that dies between Stripe's transfer and the settle: the deal stays claimed (other money calls 409, the transfer's event is kept), and the jobs resume it from the transfer group: one transfer, released", async () => {
    const stripe = fakeStripe();
    const config = getConfig({ ...env, ...STRIPE_KEYS } as Env);
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const session = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
    const { session_id } = (await json<{ data: { session_id: string } }>(session)).data;
    const paid = stripe.pay(session_id);
    expect((await deliverPlatform(paid.event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS })).status).toBe(200);
    expect((await dealRow(dealId))!.charge_id).toBe(paid.chargeId);

    const fx = { env: { ...env, ...STRIPE_KEYS } as Env, config, defer: () => undefined };
    const db = createDb(env);
    const heldUntil = Date.parse(String((await dealRow(dealId))!.held_until));
    await expect(releaseHeld(db, fx, dealId, heldUntil, { afterMove: () => Promise.reject(new Error("killed")) })).rejects.toThrow("killed");
    expect(stripe.transfers.filter((x) => x.transfer_group === dealId)).toHaveLength(1);
    let row = (await dealRow(dealId))!;
    expect([row.status, row.payment_status, row.claim_op]).toEqual(["paid", "held", "release"]);
    // Meanwhile: the lister's cancel is 409 (no refund on top of the transfer), and the transfer's event is recorded and kept.
    const cancel = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/cancel`, { method: "POST", headers: { Authorization: `Bearer ${lister.access_token}`, "content-type": "application/json" }, body: "{}" });
    expect(cancel.status).toBe(409);
    expect((await json<{ detail: string }>(cancel)).detail).toMatch(/payment step/);
    const transferEvent = { id: `evt_${crypto.randomUUID()}`, object: "event", created: Math.floor(Date.now() / 1000), type: "transfer.created", data: { object: { ...stripe.transfers.find((x) => x.transfer_group === dealId)! } } };
    expect((await deliverPlatform(transferEvent, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS })).status).toBe(200);
    expect(await env.DB.prepare("SELECT event_id FROM deal_stripe_inbox WHERE deal_id = ?").bind(dealId).first()).toEqual({ event_id: transferEvent.id });
    expect(stripe.refunds).toHaveLength(0);
    // The jobs, once the claim is stale (Stripe has forgotten its keys by then): resumed from what the group holds.
    stripe.forgetKeys();
    const jobs = await runDealPaymentJobs(db, fx, heldUntil + 10 * 60_000);
    expect(jobs.claims_resumed).toBe(1);
    row = (await dealRow(dealId))!;
    expect([row.status, row.payment_status, row.claim_id, row.transferred_cents]).toEqual(["released", "released", null, 90_000]);
    expect(stripe.transfers.filter((x) => x.transfer_group === dealId)).toHaveLength(1);
    const [t] = stripe.transfers.filter((x) => x.transfer_group === dealId);
    expect(t).toMatchObject({ amount: 90_000, transfer_group: dealId, source_transaction: paid.chargeId, destination: `acct_${lister.user.id.slice(0, 12)}` });
    expect(row.transfer_id).toBe(t!.id);
    // The kept event was applied once the claim settled (it changed nothing more), and a repeat is a repeat.
    expect(await env.DB.prepare("SELECT event_id FROM deal_stripe_inbox WHERE deal_id = ?").bind(dealId).first()).toBeNull();
    expect((await json<{ applied: boolean }>(await deliverPlatform(transferEvent, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS }))).applied).toBe(false);
    expect((await dealRow(dealId))!.transferred_cents).toBe(90_000);
  });

  it("a claim is not resumed before it is stale: a slow worker is left to finish", async () => {
    const stripe = fakeStripe();
    const config = getConfig({ ...env, ...STRIPE_KEYS } as Env);
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const session = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
    await deliverPlatform(stripe.pay((await json<{ data: { session_id: string } }>(session)).data.session_id).event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
    const fx = { env: { ...env, ...STRIPE_KEYS } as Env, config, defer: () => undefined };
    const heldUntil = Date.parse(String((await dealRow(dealId))!.held_until));
    await expect(releaseHeld(createDb(env), fx, dealId, heldUntil, { afterMove: () => Promise.reject(new Error("killed")) })).rejects.toThrow();
    const claimedAt = Date.parse(String((await dealRow(dealId))!.claim_at));
    expect((await runDealPaymentJobs(createDb(env), fx, claimedAt + 60_000)).claims_resumed).toBe(0);
    expect((await dealRow(dealId))!.claim_op).toBe("release");
    expect((await runDealPaymentJobs(createDb(env), fx, claimedAt + 6 * 60_000)).claims_resumed).toBe(1);
    expect((await dealRow(dealId))!.status).toBe("released");
    expect(stripe.transfers.filter((x) => x.transfer_group === dealId)).toHaveLength(1);
  });

  it("a refused transfer (a restricted account) leaves release_failed and a staff case; staff release it once fixed", async () => {
    const stripe = fakeStripe();
    const config = getConfig({ ...env, ...STRIPE_KEYS } as Env);
    const restricted = await signUp("pay-restricted@deals.test");
    const account = await readyPayouts(restricted.user.id);
    stripe.refuseTransfersTo.add(account);
    const { dealId } = await insertSignedDeal(renter.user.id, restricted.user.id);
    const session = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
    await deliverPlatform(stripe.pay((await json<{ data: { session_id: string } }>(session)).data.session_id).event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
    const fx = { env: { ...env, ...STRIPE_KEYS } as Env, config, defer: () => undefined };
    const failed = await releaseHeld(createDb(env), fx, dealId, Date.parse(String((await dealRow(dealId))!.held_until)));
    expect([failed!.status, failed!.payment_status, failed!.case_reason]).toEqual(["paid", "release_failed", "release_failed"]);
    const cases = await json<{ data: { id: string; case_reason: string }[] }>(await call(admin, "/api/v1/admin/deals?status=cases&limit=50"));
    expect(cases.data.find((d) => d.id === dealId)?.case_reason).toBe("release_failed");
    expect((await mailTo(getConfig(env).supportEmail)).some((m) => m.subject.includes("release_failed"))).toBe(true);

    stripe.refuseTransfersTo.clear();
    const resolved = await fetchWithBindings(STRIPE_KEYS, `/api/v1/admin/deals/${dealId}/resolve`, { method: "POST", body: JSON.stringify({ refund_cents: 0 }), headers: { Authorization: `Bearer ${admin}`, "content-type": "application/json" } });
    expect(resolved.status).toBe(200);
    expect((await json<{ data: DealJson }>(resolved)).data).toMatchObject({ status: "released", payment: { status: "released", refunded_cents: 0 } });
    expect(stripe.transfers.filter((x) => x.transfer_group === dealId)).toHaveLength(1);
  });
});

describe("a decided move that Stripe could not finish", () => {
  it("staff's partial refund while Stripe's transfers are down: 502, the deal stays claimed, and the jobs finish it once: the refund once, the lister's rest once", async () => {
    const stripe = fakeStripe();
    const fx = { env: { ...env, ...STRIPE_KEYS } as Env, config: getConfig({ ...env, ...STRIPE_KEYS } as Env), defer: () => undefined };
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const session = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } });
    await deliverPlatform(stripe.pay((await json<{ data: { session_id: string } }>(session)).data.session_id).event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
    const asRenter = { Authorization: `Bearer ${renter.access_token}`, "content-type": "application/json" };
    expect((await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/problem`, { method: "POST", body: JSON.stringify({ kind: "other", text: "Broken heating" }), headers: asRenter })).status).toBe(200);

    stripe.failTransfers = 1;
    const resolved = await fetchWithBindings(STRIPE_KEYS, `/api/v1/admin/deals/${dealId}/resolve`, { method: "POST", body: JSON.stringify({ refund_cents: 20_000 }), headers: { Authorization: `Bearer ${admin}`, "content-type": "application/json" } });
    expect(resolved.status).toBe(502);
    let row = (await dealRow(dealId))!;
    expect([row.status, row.claim_op]).toEqual(["disputed", "resolve"]);
    expect(stripe.refunds.map((r) => r.amount)).toEqual([20_000]);
    expect(stripe.transfers).toHaveLength(0);
    // A second decision meanwhile moves nothing.
    const again = await fetchWithBindings(STRIPE_KEYS, `/api/v1/admin/deals/${dealId}/resolve`, { method: "POST", body: JSON.stringify({ refund_cents: 94_500 }), headers: { Authorization: `Bearer ${admin}`, "content-type": "application/json" } });
    expect(again.status).toBe(409);

    expect((await runDealPaymentJobs(createDb(env), fx, Date.now() + 6 * 60_000)).claims_resumed).toBe(1);
    await runDealPaymentJobs(createDb(env), fx, Date.now() + 7 * 60_000);
    row = (await dealRow(dealId))!;
    expect([row.status, row.claim_id, row.refunded_cents, row.transferred_cents]).toEqual(["released", null, 20_000, 70_000]);
    expect(stripe.refunds.map((r) => r.amount)).toEqual([20_000]);
    expect(stripe.transfers.filter((t) => t.transfer_group === dealId).map((t) => t.amount)).toEqual([70_000]);
  });
});

describe("a reversal made outside CampusNest", () => {
  it("a transfer reversed from Stripe's dashboard after release is not paid again by the cron", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: "2027-05-10", moveOut: "2027-07-10" });
    await payInDevelopment(dealId);
    const heldUntil = (await dealOf(renter.access_token, dealId)).payment.held_until!;
    await tick(heldUntil);
    const released = (await dealRow(dealId))!;
    expect([released.status, released.transferred_cents]).toEqual(["released", 90_000]);
    const reversal = testTransfer("transfer.reversed", { transferId: released.transfer_id as string, dealId, amount: 90_000, amountReversed: 90_000, destination: "acct_dashboard", chargeId: released.charge_id as string });
    expect((await deliverPlatform(reversal)).status).toBe(200);
    await tick(heldUntil);
    const row = (await dealRow(dealId))!;
    expect([row.transfer_id, row.transferred_cents, row.transfer_reversed_cents]).toEqual([released.transfer_id, 90_000, 90_000]);
  });
});

describe("cancellation after payment", () => {
  it("the lister cancels: everything back at once, fee included; the listing is free again", async () => {
    const { dealId, listingId } = await insertSignedDeal(renter.user.id, lister.user.id, { listing: { from: "2027-03-01", to: "2027-06-30" } });
    await payInDevelopment(dealId);
    const res = await call(lister, `/api/v1/deals/${dealId}/cancel`, "POST", { reason: "Lease fell through" });
    expect(res.status).toBe(200);
    const deal = (await json<{ data: DealJson }>(res)).data;
    expect(deal.status).toBe("cancelled");
    expect(deal.payment).toMatchObject({ status: "refunded", refunded_cents: 94_500 });
    expect((await dealRow(dealId))!.refunded_cents).toBe(94_500);
    expect((await env.DB.prepare("SELECT status FROM listings WHERE id = ?").bind(listingId).first<{ status: string }>())!.status).toBe("available");
  });

  it("the renter cancels 14 days or more before move-in: the rent back, the fee kept", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    await payInDevelopment(dealId);
    const deal = (await json<{ data: DealJson }>(await call(renter, `/api/v1/deals/${dealId}/cancel`, "POST"))).data;
    expect(deal.status).toBe("cancelled");
    expect(deal.payment).toMatchObject({ status: "refunded", refunded_cents: 90_000, total_cents: 94_500 });
  });

  it("the renter cancels later: the lister decides by the deadline (only they, within the rent); the rest is released to them", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: dayFromNow(5), moveOut: dayFromNow(90) });
    await payInDevelopment(dealId);
    const asked = (await json<{ data: DealJson }>(await call(renter, `/api/v1/deals/${dealId}/cancel`, "POST"))).data;
    expect(asked.status).toBe("paid");
    expect(asked.cancellation).not.toBeNull();
    expect(Date.parse(asked.cancellation!.decide_by) - Date.parse(asked.cancellation!.requested_at)).toBe(72 * 3_600_000);
    expect((await call(renter, `/api/v1/deals/${dealId}/cancel`, "POST")).status).toBe(409);
    expect((await call(renter, `/api/v1/deals/${dealId}/cancellation-refund`, "POST", { refund_cents: 0 })).status).toBe(403);
    expect((await call(stranger, `/api/v1/deals/${dealId}/cancellation-refund`, "POST", { refund_cents: 0 })).status).toBe(404);
    const tooMuch = await call(lister, `/api/v1/deals/${dealId}/cancellation-refund`, "POST", { refund_cents: 90_001 });
    expect(tooMuch.status).toBe(422);
    expect((await json<{ detail: string }>(tooMuch)).detail).toMatch(/at most 90000/);
    expect((await call(lister, `/api/v1/deals/${dealId}/cancellation-refund`, "POST", { refund_cents: -1 })).status).toBe(422);
    const decided = (await json<{ data: DealJson }>(await call(lister, `/api/v1/deals/${dealId}/cancellation-refund`, "POST", { refund_cents: 30_000 }))).data;
    expect(decided).toMatchObject({ status: "cancelled", cancellation: null, payment: { status: "released", refunded_cents: 30_000 } });
    const row = (await dealRow(dealId))!;
    expect([row.refunded_cents, row.transferred_cents]).toEqual([30_000, 60_000]);
    expect((await call(lister, `/api/v1/deals/${dealId}/cancellation-refund`, "POST", { refund_cents: 0 })).status).toBe(409);
  });

  it("a refused transfer after the lister's decision: staff's release pays only the rest of the rent (what went back stays back)", async () => {
    const owner = await signUp("pay-late-owner@deals.test");
    await readyPayouts(owner.user.id);
    const { dealId } = await insertSignedDeal(renter.user.id, owner.user.id, { moveIn: dayFromNow(5), moveOut: dayFromNow(90) });
    await payInDevelopment(dealId);
    await call(renter, `/api/v1/deals/${dealId}/cancel`, "POST");
    // The lister's account cannot receive transfers when they decide: the refund is made, the transfer refused.
    await readyPayouts(owner.user.id, "pending");
    expect((await call(owner, `/api/v1/deals/${dealId}/cancellation-refund`, "POST", { refund_cents: 30_000 })).status).toBe(200);
    let row = (await dealRow(dealId))!;
    expect([row.status, row.payment_status, row.refunded_cents, row.transferred_cents]).toEqual(["cancelled", "release_failed", 30_000, 0]);

    await readyPayouts(owner.user.id);
    const resolved = await call(admin, `/api/v1/admin/deals/${dealId}/resolve`, "POST", { refund_cents: 0 });
    expect(resolved.status).toBe(200);
    expect((await json<{ data: DealJson }>(resolved)).data).toMatchObject({ status: "cancelled", payment: { status: "released", refunded_cents: 30_000 } });
    row = (await dealRow(dealId))!;
    expect([row.refund_due_cents, row.refunded_cents, row.transferred_cents]).toEqual([30_000, 30_000, 60_000]);
  });

  it("a refund already made from Stripe's dashboard stays counted when the lister decides: the lister gets only the rest", async () => {
    const stripe = fakeStripe();
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: dayFromNow(5), moveOut: dayFromNow(90) });
    const as = (s: Session) => ({ Authorization: `Bearer ${s.access_token}`, "content-type": "application/json" });
    const session = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: as(renter) });
    const p = stripe.pay((await json<{ data: { session_id: string } }>(session)).data.session_id);
    const send = (event: object) => deliverPlatform(event, { secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET, bindings: STRIPE_KEYS });
    expect((await send(p.event)).status).toBe(200);
    // Support refunded $100 from Stripe's dashboard while the money was held.
    stripe.charges.get(p.chargeId)!.amount_refunded = 10_000;
    stripe.refunds.push({ id: "re_dashboard", object: "refund", amount: 10_000, payment_intent: p.paymentIntentId, status: "succeeded" });
    expect((await send(chargeRefundedEvent({ id: p.chargeId, amount: 94_500, amount_refunded: 10_000, payment_intent: p.paymentIntentId, transfer_group: dealId }))).status).toBe(200);

    await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/cancel`, { method: "POST", headers: as(renter) });
    const decided = await fetchWithBindings(STRIPE_KEYS, `/api/v1/deals/${dealId}/cancellation-refund`, { method: "POST", body: JSON.stringify({ refund_cents: 0 }), headers: as(lister) });
    expect(decided.status).toBe(200);
    const row = (await dealRow(dealId))!;
    expect([row.status, row.payment_status, row.refund_due_cents, row.refunded_cents, row.transferred_cents]).toEqual(["cancelled", "released", 10_000, 10_000, 80_000]);
    expect(stripe.transfers.filter((t) => t.transfer_group === dealId).map((t) => t.amount)).toEqual([80_000]);
    expect(stripe.refunds.filter((r) => r.payment_intent === p.paymentIntentId).map((r) => r.amount)).toEqual([10_000]);
  });

  it("silence: at the deadline the tick refunds the rent in full", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: dayFromNow(5), moveOut: dayFromNow(90) });
    await payInDevelopment(dealId);
    const asked = (await json<{ data: DealJson }>(await call(renter, `/api/v1/deals/${dealId}/cancel`, "POST"))).data;
    await tick(new Date(Date.parse(asked.cancellation!.decide_by) - 1000).toISOString());
    expect((await dealRow(dealId))!.status).toBe("paid");
    await tick(asked.cancellation!.decide_by);
    const deal = await dealOf(renter.access_token, dealId);
    expect(deal).toMatchObject({ status: "cancelled", cancellation: null, payment: { status: "refunded", refunded_cents: 90_000 } });
  });
});

describe("problems, statements and staff's decision", () => {
  it("the renter reports a problem while held: disputed, nothing released by the tick; both sides' statements; staff see the case and decide in part", async () => {
    const { dealId, conversationId } = await insertSignedDeal(renter.user.id, lister.user.id, { moveIn: "2027-01-20", moveOut: "2027-03-20" });
    await env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, text, created_at) VALUES (?, ?, ?, 'See you at the door', ?)").bind(`m${dealId}`, conversationId, lister.user.id, new Date().toISOString()).run();
    await payInDevelopment(dealId);
    expect((await call(lister, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "cant_get_in", text: "x" })).status).toBe(403);
    expect((await call(stranger, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "cant_get_in", text: "x" })).status).toBe(404);
    const bad = await call(renter, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "broken", text: "", photos: ["https://evil.test/a.jpg"] });
    expect(bad.status).toBe(422);
    expect((await json<{ detail: string }>(bad)).detail).toMatch(/kind must be one of/);
    expect((await call(renter, `/api/v1/deals/${dealId}/statement`, "POST", { text: "early" })).status).toBe(409);

    // Photos are the author's own evidence uploads (docs/decisions/032): not another host's picture behind our path, not the other party's upload.
    const [door] = await uploadEvidence(renter);
    const [listerPhoto] = await uploadEvidence(lister);
    const elsewhere = await call(renter, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "cant_get_in", text: "x", photos: [`https://evil.test${door}`] });
    expect(elsewhere.status).toBe(422);
    expect((await json<{ detail: string }>(elsewhere)).detail).toMatch(/uploaded as evidence/);
    const notTheirs = await call(renter, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "cant_get_in", text: "x", photos: [listerPhoto] });
    expect(notTheirs.status).toBe(422);
    expect((await json<{ errors: { path: string }[] }>(notTheirs)).errors[0]!.path).toBe("photos");
    expect((await dealRow(dealId))!.status).toBe("paid");

    const res = await call(renter, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "cant_get_in", text: "The code does not open the door", photos: [door] });
    expect(res.status).toBe(200);
    const deal = (await json<{ data: DealJson }>(res)).data;
    expect(deal).toMatchObject({ status: "disputed", case_reason: "problem", payment: { status: "disputed" }, problem: { kind: "cant_get_in" } });
    await tick("2027-02-01T00:00:00.000Z");
    expect((await dealRow(dealId))!.status).toBe("disputed");
    expect((await call(stranger, `/api/v1/deals/${dealId}/statement`, "POST", { text: "me too" })).status).toBe(404);
    const empty = await call(lister, `/api/v1/deals/${dealId}/statement`, "POST", { text: "  ", photos: Array.from({ length: 7 }, (_, i) => `/api/v1/images/p${i}.webp`) });
    expect(empty.status).toBe(422);
    expect((await json<{ errors: { message: string }[] }>(empty)).errors.map((e) => e.message)).toEqual(expect.arrayContaining(["Please describe what happened", "At most 6 photos"]));
    expect((await call(lister, `/api/v1/deals/${dealId}/statement`, "POST", { text: "Here is the door", photos: [door] })).status).toBe(422);
    const statement = await call(lister, `/api/v1/deals/${dealId}/statement`, "POST", { text: "I sent the new code by message", photos: [listerPhoto] });
    expect(statement.status).toBe(201);
    expect((await json<{ data: { party: string } }>(statement)).data.party).toBe("lister");

    expect((await call(renter.access_token, `/api/v1/admin/deals/${dealId}`)).status).toBe(401);
    const view = await json<{ data: { statements: { party: string; text: string; photos: string[] }[]; messages: { content: string }[]; case_reason: string; stripe: { payment_intent: string } } }>(await call(admin, `/api/v1/admin/deals/${dealId}`));
    expect(view.data.statements.map((s) => s.party)).toEqual(["renter", "lister"]);
    expect(view.data.statements[0]!.photos).toEqual([door]);
    expect(view.data.messages.map((m) => m.content)).toContain("See you at the door");
    expect(view.data.case_reason).toBe("problem");
    expect(view.data.stripe.payment_intent).toMatch(/^pi_test_/);

    expect((await call(renter, `/api/v1/admin/deals/${dealId}/resolve`, "POST", { refund_cents: 0 })).status).toBe(401);
    expect((await call(admin, `/api/v1/admin/deals/${dealId}/resolve`, "POST", { refund_cents: 999_999 })).status).toBe(422);
    const decided = await call(admin, `/api/v1/admin/deals/${dealId}/resolve`, "POST", { refund_cents: 20_000 });
    expect(decided.status).toBe(200);
    expect((await json<{ data: DealJson }>(decided)).data).toMatchObject({ status: "released", payment: { status: "released", refunded_cents: 20_000 } });
    const row = (await dealRow(dealId))!;
    expect([row.refunded_cents, row.transferred_cents]).toEqual([20_000, 70_000]);
    // The decision and its audit row land together; the refused second decision leaves none.
    expect((await call(admin, `/api/v1/admin/deals/${dealId}/resolve`, "POST", { refund_cents: 0 })).status).toBe(409);
    const audit = await env.DB.prepare("SELECT details FROM admin_audit WHERE action = 'deal_resolve' AND target_id = ?").bind(dealId).all<{ details: string }>();
    expect(audit.results.map((a) => JSON.parse(a.details))).toEqual([{ refund_cents: 20_000 }]);
  });

  it("staff refund everything: refunded, fee included", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    await payInDevelopment(dealId);
    await call(renter, `/api/v1/deals/${dealId}/problem`, "POST", { kind: "not_as_described", text: "Not the flat in the photos" });
    const res = await call(admin, `/api/v1/admin/deals/${dealId}/resolve`, "POST", { refund_cents: 94_500 });
    expect((await json<{ data: DealJson }>(res)).data).toMatchObject({ status: "refunded", payment: { status: "refunded", refunded_cents: 94_500 } });
    expect((await dealRow(dealId))!.transferred_cents).toBe(0);
  });
});

describe("suspension, deletion and staff's figures", () => {
  it("suspending the lister freezes their held deals into cases; a listing or account with money held cannot be deleted", async () => {
    const suspended = await signUp("pay-suspended@deals.test");
    await readyPayouts(suspended.user.id);
    const { dealId, listingId } = await insertSignedDeal(renter.user.id, suspended.user.id);
    await payInDevelopment(dealId);
    const del = await call(suspended, `/api/v1/subleases/${listingId}`, "DELETE");
    expect(del.status).toBe(409);
    expect((await json<{ detail: string }>(del)).detail).toMatch(/held/);
    // The renter's account too (a party to the held deal).
    const delAccount = await call(renter, "/api/v1/users/profile", "DELETE");
    expect(delAccount.status).toBe(409);
    expect((await json<{ detail: string }>(delAccount)).detail).toMatch(/held/);

    await suspendUser(createDb(env), env, "staff-test", suspended.user.id);
    const row = (await dealRow(dealId))!;
    expect([row.status, row.payment_status, row.case_reason]).toEqual(["disputed", "disputed", "suspension"]);
  });

  it("GET admin/stats adds deals by state and the money held, released and refunded", async () => {
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const before = await json<{ stats: { deals: { by_status: Record<string, number>; held_cents: number; open_cases: number } } }>(await call(admin, "/api/v1/admin/stats"));
    await payInDevelopment(dealId);
    const after = await json<{ stats: { deals: { by_status: Record<string, number>; held_cents: number; released_cents: number; refunded_cents: number; open_cases: number } } }>(await call(admin, "/api/v1/admin/stats"));
    expect(after.stats.deals.held_cents - before.stats.deals.held_cents).toBe(90_000);
    expect(after.stats.deals.by_status.paid ?? 0).toBe((before.stats.deals.by_status.paid ?? 0) + 1);
    expect(typeof after.stats.deals.released_cents).toBe("number");
    expect((await call(renter, "/api/v1/admin/stats")).status).toBe(401);
  });
});

describe("the agreement", () => {
  it("new agreements (template v2) state the hold, the cancellation policy and that later months never pass through CampusNest", async () => {
    const facts = {
      tenantName: "Ann Lee",
      subtenantName: "Bo Park",
      address: "1 Main St",
      unitType: "2x2",
      parking: false,
      pets: false,
      moveIn: "Mar 1, 2027",
      moveOut: "Jun 30, 2027",
      timeZone: "America/Anchorage",
      monthlyRent: "$900.00",
      dueDay: 1,
      firstPayment: { rent: "$900.00", fee: "$45.00", total: "$945.00", feePercent: 5, byDays: false },
      landlord: { status: "not_needed" as const },
    };
    const text = renderAgreementV2(facts);
    expect(TEMPLATE_ID).toBe("agreement-template-v2");
    for (const part of ["Template: agreement-template-v2", "48 hours after the beginning of the move-in date", "at least 14 days before the move-in date", "within 72 hours", "never holds a security deposit", "it never passes through CampusNest"]) {
      expect(text, part).toContain(part);
    }
    // Version 1 is unchanged: agreements filled from it keep their text and hash.
    expect(renderAgreementV1(facts)).not.toContain("Cancellation after the first payment");
  });
});

describe("development only", () => {
  it("the tick and the deal's test checkout answer 404 outside development", async () => {
    const prod = { ENVIRONMENT: "test", PUBLIC_BASE_URL: "https://campusnest.test", STRIPE_WEBHOOK_SECRET: "whsec_staging_secret_0123456789" };
    expect((await fetchWithBindings(prod, "/api/v1/dev/deals/tick", { method: "POST", body: JSON.stringify({ now: new Date().toISOString() }), headers: { "content-type": "application/json" } })).status).toBe(404);
    const { dealId } = await insertSignedDeal(renter.user.id, lister.user.id);
    const { data } = await json<{ data: { checkout_url: string } }>(await call(renter, `/api/v1/deals/${dealId}/checkout`, "POST"));
    expect((await fetchWithBindings(prod, `${data.checkout_url}/complete`, { method: "POST" })).status).toBe(404);
    // Without keys outside development there is no way to pay: 503, never a fake payment.
    expect((await fetchWithBindings(prod, `/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renter.access_token}` } })).status).toBe(503);
  });
});

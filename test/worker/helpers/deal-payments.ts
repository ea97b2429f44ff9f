/**
 * Deal payments' test helpers (docs/decisions/029): a signed deal and a lister's ready payout account
 * written straight to D1, signed platform events delivered to the real webhook route, the worker with
 * Stripe keys, and a fake Stripe API at its HTTP boundary (a fetch spy) that the real Stripe SDK talks
 * to: Checkout sessions, payment intents and charges, refunds, transfers (listed by transfer group),
 * reversals and disputes' charges, with Stripe's idempotency keys.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { vi } from "vitest";
import entry from "../../../worker/index";
import { DEV_WEBHOOK_SECRET } from "../../../worker/env";
import { signWebhookPayload } from "../../../worker/services/stripe/webhook";
import { signAccessToken } from "../../../worker/services/tokens";
import { DEAL_METADATA_KIND } from "../../../worker/services/payments/stripe";
import { api, json, signUp, type Session } from "./api";
import { insertListing } from "./fixtures";

let seq = 0;
const nextId = (prefix: string) => `${prefix}${Date.now().toString(36)}${++seq}`;

/** A lister's Connect account that can receive transfers. */
export async function readyPayouts(userId: string, status: "ready" | "pending" = "ready") {
  const now = new Date().toISOString();
  await env.DB.prepare(
    `INSERT INTO payout_accounts (user_id, stripe_account_id, status, transfers_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(user_id) DO UPDATE SET status = excluded.status`,
  )
    .bind(userId, `acct_${userId.slice(0, 12)}`, status, status === "ready" ? 1 : 0, now, now)
    .run();
  return `acct_${userId.slice(0, 12)}`;
}

export interface SignedDealOptions {
  moveIn?: string;
  moveOut?: string;
  rent?: number;
  /** The listing's dates (default: wider than the stay, so a payment does not take the listing off the market). */
  listing?: { from: string; to: string } | null;
  listingId?: string;
  status?: string;
  consent?: string;
}

/**
 * A `signed` deal (both signed, the landlord's consent not needed) of a fresh listing, with the pair's
 * conversation; University 1 is in Alaska (America/Anchorage). Answers the deal and listing ids.
 */
export async function insertSignedDeal(renterId: string, listerId: string, opts: SignedDealOptions = {}) {
  const id = nextId("deal");
  const moveIn = opts.moveIn ?? "2027-03-01";
  const moveOut = opts.moveOut ?? "2027-06-30";
  const listingId = opts.listingId ?? nextId("pl");
  if (!opts.listingId) {
    const dates = opts.listing === undefined ? { from: "2027-01-01", to: "2027-12-31" } : opts.listing;
    await insertListing(listerId, listingId, { monthly_rent: opts.rent ?? 900, ...(dates ? { available_from: dates.from, available_to: dates.to } : {}) });
  }
  const [a, b] = renterId < listerId ? [renterId, listerId] : [listerId, renterId];
  const now = new Date().toISOString();
  await env.DB.prepare(`INSERT INTO conversations (id, user_a, user_b, listing_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
    .bind(nextId("cv"), a, b, listingId, now, now)
    .run();
  const conversation = await env.DB.prepare(`SELECT id FROM conversations WHERE user_a = ? AND user_b = ?`).bind(a, b).first<{ id: string }>();
  await env.DB.prepare(
    `INSERT INTO deals (id, listing_id, renter_id, lister_id, conversation_id, move_in, move_out, time_zone, status, listing_title, monthly_rent, fee_percent, address,
       landlord_consent, agreement_version, renter_signed_at, lister_signed_at, accepted_at, expires_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'America/Anchorage', ?, ?, ?, 5, '12 Elm St, Unit 3, Anchorage, AK 99501', ?, 1, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(id, listingId, renterId, listerId, conversation!.id, moveIn, moveOut, opts.status ?? "signed", `Listing ${listingId}`, opts.rent ?? 900, opts.consent ?? "not_needed", now, now, now, `${moveIn}T09:00:00.000Z`, now, now)
    .run();
  return { dealId: id, listingId, conversationId: conversation!.id };
}

/** Marks a user's identity verified, as staff's approval does (the legal name is recorded by the schema's trigger). */
export const verifyIdentity = (userId: string) => env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(userId).run();

/** Signs up through the API and verifies the identity (a lister who may set up payouts and sign). */
export async function signUpVerified(email: string): Promise<Session> {
  const s = await signUp(email);
  await verifyIdentity(s.user.id);
  return { ...s, user: { ...s.user, id_verification_status: "verified" } };
}

/**
 * A student written straight to D1 (email and identity verified) with an access token signed as the
 * worker signs them: for tests that need many fresh parties (a race per pair) without a sign-up each.
 */
export async function insertParty(label: string) {
  const id = nextId(`u${label}`);
  await env.DB.prepare(
    `INSERT INTO users (id, email, first_name, last_name, email_verification_status, id_verification_status) VALUES (?, ?, ?, 'Party', 'verified', 'verified')`,
  )
    .bind(id, `${id}@deals.test`, label)
    .run();
  return { id, token: await signAccessToken(env.JWT_SECRET, id) };
}

export interface PaidDealOptions {
  /** Move-in two days ago (else in 60 days: a renter's cancellation is then early). */
  moveInPast?: boolean;
  /** held_until an hour ago (else in 30 days). */
  heldPast?: boolean;
  /** A renter's late cancellation waiting for the lister's decision, due `decideInMs` from now. */
  cancellationDueInMs?: number;
  /** A reported problem: disputed, a staff case. */
  disputed?: boolean;
}

/**
 * A deal paid three days ago ($900 rent + $45 fee, held), its charge known to the fake Stripe (payment
 * intent, charge, transfer group = the deal). Answers the ids the events name.
 */
export async function insertPaidDeal(stripe: FakeStripe, renterId: string, listerId: string, opts: PaidDealOptions = {}) {
  const day = 86_400_000;
  const now = Date.now();
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const moveIn = opts.moveInPast ? date(now - 2 * day) : date(now + 60 * day);
  const { dealId, listingId } = await insertSignedDeal(renterId, listerId, { moveIn, moveOut: date(Date.parse(moveIn) + 90 * day), listing: { from: "2020-01-01", to: "2040-12-31" } });
  const { paymentIntentId, chargeId } = stripe.charge(dealId, 94_500);
  const iso = (ms: number) => new Date(ms).toISOString();
  await env.DB.prepare(
    `UPDATE deals SET status = ?, payment_status = ?, case_reason = ?, problem_kind = ?, problem_opened_at = ?, paid_cents = 94500, paid_rent_cents = 90000, paid_at = ?,
       held_until = ?, payment_intent_id = ?, charge_id = ?, expires_at = NULL, cancel_requested_at = ?, cancel_decide_by = ? WHERE id = ?`,
  )
    .bind(
      opts.disputed ? "disputed" : "paid",
      opts.disputed ? "disputed" : "held",
      opts.disputed ? "problem" : null,
      opts.disputed ? "other" : null,
      opts.disputed ? iso(now - day) : null,
      iso(now - 3 * day),
      opts.heldPast ? iso(now - 3_600_000) : iso(now + 30 * day),
      paymentIntentId,
      chargeId,
      opts.cancellationDueInMs === undefined ? null : iso(now - 3_600_000),
      opts.cancellationDueInMs === undefined ? null : iso(now + opts.cancellationDueInMs),
      dealId,
    )
    .run();
  return { dealId, listingId, paymentIntentId, chargeId };
}

/** What Stripe holds for a deal: the renter's refunds of its payment, and what its transfer group still holds. */
export function moneyAtStripe(stripe: FakeStripe, dealId: string, paymentIntentId: string) {
  const refunded = stripe.refunds.filter((r) => r.payment_intent === paymentIntentId).reduce((sum, r) => sum + r.amount, 0);
  const transferred = stripe.transfers.filter((t) => t.transfer_group === dealId).reduce((sum, t) => sum + t.amount - t.amount_reversed, 0);
  return { refunded, transferred };
}

/** The deal row as stored (payment columns included). */
export const dealRow = (id: string) => env.DB.prepare(`SELECT * FROM deals WHERE id = ?`).bind(id).first<Record<string, unknown> & { status: string; payment_status: string; version: number }>();

/** Signs `event` like Stripe and posts it to the platform webhook route. */
export async function deliverPlatform(event: object, { secret = DEV_WEBHOOK_SECRET, path = "/api/v1/payments/webhook", bindings }: { secret?: string; path?: string; bindings?: Record<string, string> } = {}) {
  const payload = JSON.stringify(event);
  const signature = await signWebhookPayload(secret, payload);
  const init = { method: "POST", body: payload, headers: { "stripe-signature": signature, "content-type": "application/json" } };
  return bindings ? fetchWithBindings(bindings, path, init) : api(path, init);
}

/** Stripe keys as a deployment sets them; the fake below answers the SDK. */
export const STRIPE_KEYS = { STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: "whsec_fake_secret" } as const;

/** The worker with other bindings (Stripe keys, production), like a deploy with those secrets. */
export async function fetchWithBindings(bindings: Record<string, string>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await entry.fetch(new Request(`http://localhost${path}`, init) as Request<unknown, IncomingRequestCfProperties>, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

// ---------------------------------------------------------------------------------------------
// The fake Stripe.

interface FakeTransfer {
  id: string;
  object: "transfer";
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  source_transaction: string | null;
  metadata: Record<string, string>;
}
interface FakeRefund {
  id: string;
  object: "refund";
  amount: number;
  payment_intent: string;
  status: "succeeded";
}
interface FakeCharge {
  id: string;
  object: "charge";
  amount: number;
  amount_refunded: number;
  payment_intent: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
}

export interface FakeStripe {
  calls: { method: string; path: string; form: URLSearchParams; idempotencyKey: string | null }[];
  sessions: Map<string, { id: string; form: URLSearchParams; expired: boolean }>;
  charges: Map<string, FakeCharge>;
  intents: Map<string, { id: string; latest_charge: string; amount: number }>;
  refunds: FakeRefund[];
  transfers: FakeTransfer[];
  /** Destinations whose transfers Stripe refuses (a restricted account). */
  refuseTransfersTo: Set<string>;
  /** Stripe answers this many transfer requests with a 500 (an outage): nothing is made, nothing recorded under the key. */
  failTransfers: number;
  /** Stripe refuses reversals (the connected account's balance cannot cover them). */
  refuseReversals: boolean;
  /** Runs after a transfer is created, before the answer (a crash test's hook). */
  onTransfer?: (t: FakeTransfer) => void;
  /** Pays a session as Stripe would: a payment intent and its charge, and the completed event (intent id only). */
  pay(sessionId: string): { event: ReturnType<typeof stripeEvent>; paymentIntentId: string; chargeId: string };
  /** Forgets every idempotency key (Stripe keeps them 24 hours). */
  forgetKeys(): void;
  /** A payment already made for a deal (its intent and charge, in the deal's transfer group), as after Checkout. */
  charge(dealId: string, amount: number): { paymentIntentId: string; chargeId: string };
}

export const stripeEvent = (type: string, object: Record<string, unknown>) => ({
  id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
  object: "event",
  api_version: "2025-01-01",
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  type,
  data: { object },
});

/** The fake Stripe API behind a fetch spy (other hosts pass through). */
export function fakeStripe(): FakeStripe {
  const realFetch = globalThis.fetch;
  const keys = new Map<string, { status: number; body: unknown }>();
  const fake: FakeStripe = {
    calls: [],
    sessions: new Map(),
    charges: new Map(),
    intents: new Map(),
    refunds: [],
    transfers: [],
    refuseTransfersTo: new Set(),
    failTransfers: 0,
    refuseReversals: false,
    pay(sessionId) {
      const s = fake.sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      const amount = [...s.form.entries()].filter(([k]) => /^line_items\[\d+\]\[price_data\]\[unit_amount\]$/.test(k)).reduce((sum, [, v]) => sum + Number(v), 0);
      const pi = `pi_${crypto.randomUUID().slice(0, 12)}`;
      const ch = `ch_${crypto.randomUUID().slice(0, 12)}`;
      const group = s.form.get("payment_intent_data[transfer_group]");
      const metadata = { kind: s.form.get("metadata[kind]") ?? "", deal_id: s.form.get("metadata[deal_id]") ?? "" };
      fake.intents.set(pi, { id: pi, latest_charge: ch, amount });
      fake.charges.set(ch, { id: ch, object: "charge", amount, amount_refunded: 0, payment_intent: pi, transfer_group: group, metadata });
      const event = stripeEvent("checkout.session.completed", {
        id: sessionId,
        object: "checkout.session",
        mode: s.form.get("mode"),
        status: "complete",
        payment_status: "paid",
        amount_total: amount,
        currency: "usd",
        client_reference_id: s.form.get("client_reference_id"),
        metadata,
        payment_intent: pi,
      });
      return { event, paymentIntentId: pi, chargeId: ch };
    },
    forgetKeys: () => keys.clear(),
    charge(dealId, amount) {
      const pi = `pi_${crypto.randomUUID().slice(0, 12)}`;
      const ch = `ch_${crypto.randomUUID().slice(0, 12)}`;
      fake.intents.set(pi, { id: pi, latest_charge: ch, amount });
      fake.charges.set(ch, { id: ch, object: "charge", amount, amount_refunded: 0, payment_intent: pi, transfer_group: dealId, metadata: { kind: DEAL_METADATA_KIND, deal_id: dealId } });
      return { paymentIntentId: pi, chargeId: ch };
    },
  };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname !== "api.stripe.com") return realFetch(input, init);
    const form = new URLSearchParams(request.method === "GET" ? url.search : await request.text());
    const idempotencyKey = request.headers.get("idempotency-key");
    fake.calls.push({ method: request.method, path: url.pathname, form, idempotencyKey });
    const reply = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "request-id": "req_fake" } });
    // Stripe's idempotency keys: the same key answers the first answer again.
    if (idempotencyKey && request.method === "POST" && keys.has(idempotencyKey)) {
      const first = keys.get(idempotencyKey)!;
      return reply(first.status, first.body);
    }
    const answer = (status: number, body: unknown) => {
      if (idempotencyKey && request.method === "POST") keys.set(idempotencyKey, { status, body });
      return reply(status, body);
    };
    const list = (data: unknown[]) => answer(200, { object: "list", data, has_more: false, url: url.pathname });
    const p = url.pathname;
    let m: RegExpExecArray | null;
    if (request.method === "POST" && p === "/v1/checkout/sessions") {
      const id = `cs_fake_${crypto.randomUUID().slice(0, 12)}`;
      fake.sessions.set(id, { id, form, expired: false });
      return answer(200, { id, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${id}` });
    }
    if (request.method === "POST" && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(p))) {
      const s = fake.sessions.get(m[1]!);
      if (s) s.expired = true;
      return answer(200, { id: m[1], object: "checkout.session", status: "expired" });
    }
    if (request.method === "GET" && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(p))) {
      const pi = fake.intents.get(m[1]!);
      return pi ? answer(200, { object: "payment_intent", ...pi }) : answer(404, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
    }
    if (request.method === "GET" && (m = /^\/v1\/charges\/([^/]+)$/.exec(p))) {
      const ch = fake.charges.get(m[1]!);
      return ch ? answer(200, ch) : answer(404, { error: { type: "invalid_request_error", message: "No such charge" } });
    }
    if (request.method === "GET" && p === "/v1/refunds") return list(fake.refunds.filter((r) => r.payment_intent === form.get("payment_intent")));
    if (request.method === "POST" && p === "/v1/refunds") {
      const pi = form.get("payment_intent")!;
      const charge = [...fake.charges.values()].find((c) => c.payment_intent === pi);
      if (!charge) return answer(400, { error: { type: "invalid_request_error", message: "No such payment_intent" } });
      const amount = form.get("amount") ? Number(form.get("amount")) : charge.amount - charge.amount_refunded;
      if (amount <= 0 || charge.amount_refunded + amount > charge.amount) return answer(400, { error: { type: "invalid_request_error", code: "charge_already_refunded", message: "Charge has already been refunded" } });
      charge.amount_refunded += amount;
      const refund: FakeRefund = { id: `re_${crypto.randomUUID().slice(0, 12)}`, object: "refund", amount, payment_intent: pi, status: "succeeded" };
      fake.refunds.push(refund);
      return answer(200, refund);
    }
    if (request.method === "GET" && p === "/v1/transfers") return list(fake.transfers.filter((t) => t.transfer_group === form.get("transfer_group")).reverse());
    if (request.method === "POST" && p === "/v1/transfers") {
      if (fake.failTransfers > 0) {
        fake.failTransfers--;
        return new Response(JSON.stringify({ error: { type: "api_error", message: "An outage" } }), { status: 500, headers: { "content-type": "application/json", "stripe-should-retry": "false" } });
      }
      const destination = form.get("destination")!;
      if (fake.refuseTransfersTo.has(destination)) {
        return answer(400, { error: { type: "invalid_request_error", code: "account_invalid", message: "The destination account cannot receive transfers (restricted)" } });
      }
      const t: FakeTransfer = {
        id: `tr_${crypto.randomUUID().slice(0, 12)}`,
        object: "transfer",
        amount: Number(form.get("amount")),
        amount_reversed: 0,
        currency: form.get("currency") ?? "usd",
        destination,
        transfer_group: form.get("transfer_group"),
        source_transaction: form.get("source_transaction"),
        metadata: { kind: form.get("metadata[kind]") ?? "", deal_id: form.get("metadata[deal_id]") ?? "" },
      };
      fake.transfers.push(t);
      fake.onTransfer?.(t);
      return answer(200, t);
    }
    if (request.method === "GET" && (m = /^\/v1\/transfers\/([^/]+)$/.exec(p))) {
      const t = fake.transfers.find((x) => x.id === m![1]);
      return t ? answer(200, t) : answer(404, { error: { type: "invalid_request_error", message: "No such transfer" } });
    }
    if (request.method === "POST" && (m = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(p))) {
      const t = fake.transfers.find((x) => x.id === m![1]);
      if (!t) return answer(404, { error: { type: "invalid_request_error", message: "No such transfer" } });
      if (fake.refuseReversals) return answer(400, { error: { type: "invalid_request_error", code: "insufficient_funds", message: "The connected account's balance cannot cover this reversal" } });
      const amount = Number(form.get("amount") ?? t.amount - t.amount_reversed);
      t.amount_reversed += amount;
      return answer(200, { id: `trr_${crypto.randomUUID().slice(0, 12)}`, object: "transfer_reversal", amount, transfer: t.id });
    }
    return answer(404, { error: { type: "invalid_request_error", message: `not faked: ${request.method} ${p}` } });
  });
  return fake;
}

/** A dispute of a charge, shaped like Stripe's (it names the charge and the intent, never the deal). */
export const disputeEvent = (type: "charge.dispute.created" | "charge.dispute.closed", d: { id: string; charge: string; paymentIntent: string; amount: number; status?: string }) =>
  stripeEvent(type, { id: d.id, object: "dispute", amount: d.amount, charge: d.charge, payment_intent: d.paymentIntent, status: d.status ?? "needs_response", reason: "fraudulent" });

/** A charge.refunded of the fake's charge (what Stripe sends after a refund). */
export const chargeRefundedEvent = (c: { id: string; amount: number; amount_refunded: number; payment_intent: string; transfer_group: string | null }) =>
  stripeEvent("charge.refunded", { ...c, object: "charge", refunded: c.amount_refunded >= c.amount, metadata: { kind: DEAL_METADATA_KIND } });

/** GET deals/{id} as a party. */
export async function dealOf(token: string, id: string) {
  const res = await api(`/api/v1/deals/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await json<{ data: DealJson }>(res)).data;
}

export interface DealJson {
  id: string;
  status: string;
  status_reason: string | null;
  payment: { status: string; rent_cents: number; fee_cents: number; total_cents: number; held_until: string | null; released_at: string | null; refunded_cents: number; paid_at: string | null; fee_percent: number; payable: boolean; waiting_for: string | null };
  cancellation: { requested_at: string; decide_by: string } | null;
  problem: { kind: string; opened_at: string } | null;
  case_reason: string | null;
  moved_in_at: string | null;
}

/** Pays a signed deal through the development test checkout (checkout, then the page's Pay) as its renter. */
export async function paySignedDeal(renterToken: string, dealId: string) {
  const res = await api(`/api/v1/deals/${dealId}/checkout`, { method: "POST", headers: { Authorization: `Bearer ${renterToken}` } });
  if (res.status !== 200) throw new Error(`checkout ${res.status}: ${await res.text()}`);
  const { data } = await json<{ data: { checkout_url: string } }>(res);
  const paid = await api(`${data.checkout_url}/complete`, { method: "POST", redirect: "manual" });
  if (paid.status !== 303) throw new Error(`pay ${paid.status}`);
}

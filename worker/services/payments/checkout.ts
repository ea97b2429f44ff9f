/**
 * The renter pays a deal's first month (docs/decisions/029): Stripe Checkout in payment mode, cards only,
 * charged to the platform with the deal's transfer group; or, in development without keys, the built-in
 * test checkout. The steps are the shared Checkout core's (stripe/checkout.ts); the deal is the subject:
 * refused as the process declares (`checkout`: signed, consent settled, payouts ready), its session written
 * under the deal's version, Stripe's key naming the deal, its version and the minute.
 */
import { refusal } from "../../contract/deal-process";
import { primaryOf, type Db } from "../../db/client";
import {
  findDealCheckoutSession,
  findDealCheckoutSessionByKey,
  forgetStaleDealCheckoutKey,
  insertDealCheckoutSessionStatement,
  openDealCheckoutSession,
} from "../../db/queries/deal-payments";
import { compareAndSet, eventStatement, findDeal, type DealRow } from "../../db/queries/deals";
import { apiError, notFound } from "../../lib/errors";
import type { RequestMeta } from "../../lib/request-meta";
import { eventBy, roleOf, type Effects } from "../deals";
import { startCheckoutSession, type CheckoutAnswer, type CheckoutSubject } from "../stripe/checkout";
import { dealAmounts, feePercentOf } from "./amounts";
import { IDEMPOTENCY_KEYS } from "./idempotency-keys";
import { requireMoneyPath } from "./money-path";
import { usesStripe } from "./move";
import { createDealCheckoutSession } from "./stripe";

export async function startDealCheckout(db: Db, fx: Effects, user: { id: string }, dealId: string, origin: string, key: string | null, meta: RequestMeta, nowMs = Date.now()): Promise<CheckoutAnswer> {
  const primary = primaryOf(db);
  const base = (fx.config.publicBaseUrl || origin).replace(/\/+$/, "");
  const path = `/deals/${encodeURIComponent(dealId)}`;
  let deal: DealRow | null = null;
  const subject: CheckoutSubject = {
    keyReused: "This Idempotency-Key was already used for another deal's checkout",
    async byKey(k, since) {
      const first = await findDealCheckoutSessionByKey(primary, user.id, k, since);
      return first ? { session: first, sameSubject: first.deal_id === dealId } : null;
    },
    forgetStaleKey: (k, before) => forgetStaleDealCheckoutKey(db, user.id, k, before),
    async read() {
      deal = await findDeal(primary, dealId);
      if (!deal) throw notFound("Deal not found");
      const role = roleOf(deal, user.id);
      if (!role) throw notFound("Deal not found");
      const no = refusal("checkout", deal, { now: nowMs, as: role });
      if (no) throw apiError(no.status, { detail: no.detail });
      requireMoneyPath(fx.config);
      return { version: deal.version };
    },
    // No per-minute cap: an open session is answered again, so a deal has one new session an hour (or per change of the deal).
    open: (until) => openDealCheckoutSession(primary, dealId, until),
    stripeKey: (version, minute) => IDEMPOTENCY_KEYS.dealCheckout(dealId, version, minute),
    createAtStripe(expiresAt, idempotencyKey) {
      const d = deal!;
      const pay = dealAmounts(d, fx.config);
      return createDealCheckoutSession(fx.config.stripe, {
        dealId: d.id,
        renterId: d.renter_id,
        title: d.listing_title,
        rentCents: pay.rent_cents,
        feeCents: pay.fee_cents,
        feePercent: feePercentOf(d, fx.config),
        currency: "usd",
        successUrl: `${base}${path}?paid=1`,
        cancelUrl: `${base}${path}?checkout=cancelled`,
        expiresAt,
        idempotencyKey,
      });
    },
    write: (session, expiresAt, version, now) =>
      compareAndSet(primary, dealId, version, { updated_at: now }, [
        insertDealCheckoutSessionStatement({ id: session.id, deal_id: dealId, user_id: user.id, kind: session.kind, url: session.url, expires_at: expiresAt, idempotency_key: key, created_at: now }),
        eventStatement(dealId, { type: "checkout_started", ...eventBy("renter", user.id, now, meta), details: { session: session.id } }),
      ]),
    stored: async (sessionId) => !!(await findDealCheckoutSession(primary, sessionId)),
  };
  return startCheckoutSession(fx.config.stripe, subject, { key, useStripe: usesStripe(fx.config), nowMs, busyDetail: "The deal is changing right now. Please try again." });
}

/**
 * The renter pays a deal's first month (docs/decisions/029): Stripe Checkout in payment mode, cards
 * only, charged to the platform with the deal's transfer group; or, in development without keys, the
 * built-in test checkout. One open session per deal is answered again (two tabs, Back, a double click);
 * the session row is written under the deal's version, so two requests at once make one session.
 */
import { DEAL_MESSAGES, PAYMENT_MESSAGES, consentSettled, firstPayment } from "../../contract/deals";
import { primaryOf, type Db } from "../../db/client";
import { compareAndSet, eventStatement, findDeal, type DealRow } from "../../db/queries/deals";
import {
  findDealCheckoutSessionByKey,
  forgetStaleDealCheckoutKey,
  insertDealCheckoutSessionStatement,
  openDealCheckoutSession,
  type DealCheckoutSessionRow,
} from "../../db/queries/deal-payments";
import { apiError, conflict, forbidden, isUniqueViolation } from "../../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import type { RequestMeta } from "../../lib/request-meta";
import { partyDeal, requireState, type Effects } from "../deals";
import { payoutAccountOf } from "../payouts";
import { expireStripeCheckoutSession } from "../stripe/client";
import { MAX_ATTEMPTS } from "../stripe/once";
import { requireMoneyPath, usesStripe } from "./money";
import { createDealCheckoutSession } from "./stripe";

/** A session can be paid for an hour; an open one is answered again while at least 10 minutes remain. */
const CHECKOUT_SESSION_MS = 3_600_000;
const CHECKOUT_REUSE_MARGIN_MS = 10 * 60_000;

const answer = (s: Pick<DealCheckoutSessionRow, "id" | "url">) => ({ checkout_url: s.url ?? `/dev/checkout/${s.id}`, session_id: s.id });

/** Why a deal cannot be paid now (409 with whose step it is), or nothing. */
async function refusePayment(db: Db, d: DealRow) {
  requireState(d, "signed");
  if (!consentSettled(d.landlord_consent)) throw conflict(PAYMENT_MESSAGES.waitingForConsent);
  const payout = await payoutAccountOf(db, d.lister_id);
  if (!payout || payout.status !== "ready") throw conflict(PAYMENT_MESSAGES.waitingForPayouts);
}

export async function startDealCheckout(db: Db, fx: Effects, user: { id: string }, dealId: string, origin: string, key: string | null, meta: RequestMeta, nowMs = Date.now()) {
  const since = isoNow(nowMs - IDEMPOTENCY_WINDOW_MS);
  const replay = async () => {
    if (!key) return null;
    const first = await findDealCheckoutSessionByKey(primaryOf(db), user.id, key, since);
    if (!first) return null;
    if (first.deal_id !== dealId) throw conflict("This Idempotency-Key was already used for another deal's checkout");
    return answer(first);
  };
  const earlier = await replay();
  if (earlier) return earlier;
  const { deal } = await partyDeal(db, dealId, user.id);
  if (deal.renter_id !== user.id) throw forbidden(DEAL_MESSAGES.onlyRenter);
  await refusePayment(db, deal);
  requireMoneyPath(fx.config);
  if (key) await forgetStaleDealCheckoutKey(db, user.id, key, since);

  const stripe = usesStripe(fx.config);
  const base = (fx.config.publicBaseUrl || origin).replace(/\/+$/, "");
  const path = `/deals/${encodeURIComponent(dealId)}`;
  let created: { id: string; url: string } | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      const again = await replay();
      if (again) return again;
    }
    const d = await findDeal(primaryOf(db), dealId);
    if (!d) break;
    await refusePayment(db, d);
    const open = await openDealCheckoutSession(primaryOf(db), d.id, isoNow(nowMs + CHECKOUT_REUSE_MARGIN_MS));
    if (open && open.kind === (stripe ? "stripe" : "test")) {
      if (created && stripe && created.id !== open.id) await expireLoser(fx, created.id);
      return answer(open);
    }
    // Stripe's key is the operation's: this deal at this version in this minute (the expiry is of the minute too,
    // so a retry sends the same parameters). A retry after our write was lost, or a racer, gets the same session.
    const minute = Math.floor(nowMs / 60_000);
    const expiresAt = minute * 60_000 + CHECKOUT_SESSION_MS;
    if (!created) {
      const pay = firstPayment(d.monthly_rent, d.move_in, d.move_out, d.fee_percent ?? 0);
      if (stripe) {
        created = await createDealCheckoutSession(fx.config.stripe, {
          dealId: d.id,
          renterId: d.renter_id,
          title: d.listing_title,
          rentCents: pay.rent_cents,
          feeCents: pay.fee_cents,
          feePercent: d.fee_percent ?? 0,
          currency: "usd",
          successUrl: `${base}${path}?paid=1`,
          cancelUrl: `${base}${path}?checkout=cancelled`,
          expiresAt: Math.floor(expiresAt / 1000),
          idempotencyKey: `deal-checkout-${d.id}-${d.version}-${minute}`,
        }).catch((err: unknown) => {
          log.error("deal_checkout_failed", { deal_id: d.id, message: err instanceof Error ? err.message : "unknown" });
          throw apiError(502, { detail: "Could not start the payment with Stripe. Please try again." });
        });
      } else {
        const id = `cs_test_${newId(24)}`;
        created = { id, url: `/dev/checkout/${id}` };
      }
    }
    const now = isoNow(nowMs);
    try {
      const won = await compareAndSet(primaryOf(db), d.id, d.version, { updated_at: now }, [
        insertDealCheckoutSessionStatement({ id: created.id, deal_id: d.id, user_id: user.id, kind: stripe ? "stripe" : "test", url: created.url, expires_at: isoNow(expiresAt), idempotency_key: key, created_at: now }),
        eventStatement(d.id, { type: "checkout_started", actorId: user.id, actorRole: "renter", at: now, ip: meta.ip, userAgent: meta.userAgent, details: { session: created.id } }),
      ]);
      if (won) return answer(created);
    } catch (err) {
      // The same key at once from another request: its session is the answer (next attempt).
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw apiError(503, { detail: "The deal is changing right now. Please try again." });
}

/** A Stripe session that lost the race to another request's: nobody should pay it. */
async function expireLoser(fx: Effects, sessionId: string) {
  await expireStripeCheckoutSession(fx.config.stripe, sessionId).catch((err: unknown) =>
    log.warn("stripe_expire_failed", { session_id: sessionId, message: err instanceof Error ? err.message : "unknown" }),
  );
}

/** The owner buys a weekly promotion: Stripe Checkout in subscription mode (or the development test checkout). */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { StripeConfig } from "../../env";
import { findListing } from "../../db/queries/listings";
import { checkoutSessionsStartedSince, findCheckoutSession, findCheckoutSessionByKey, forgetStaleCheckoutKey, insertCheckoutSessionIf, liveSubscriptionsOfListing, openCheckoutSessionOfListing, promotionBatch, updateListingPromotionIf, type CheckoutSessionRow } from "../../db/queries/promotions";
import { canBuyPromotion } from "../../contract/owner-rules";
import { PROMOTION_MESSAGES, PROMOTION_PLAN } from "../../contract/promotions";
import { expireStripeCheckoutSession, stripeClient, stripeConfigured } from "../stripe/client";
import { applied, RETRY, untilApplied } from "../stripe/once";
import { blocksCheckout, busy, ownListing } from "./record";
import { apiError, conflict, isUniqueViolation, tooManyRequests } from "../../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../../lib/idempotency";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";

/** A checkout session can be paid for an hour (Stripe accepts 30 minutes to 24 hours). */
const CHECKOUT_SESSION_MS = 3_600_000;
/** An open session is answered again only if the owner still has this long to pay. */
const CHECKOUT_REUSE_MARGIN_MS = 10 * 60_000;
/** New checkout sessions a user may start a minute (each one is a call to Stripe). */
export const CHECKOUT_SESSIONS_PER_MINUTE = 10;

export interface CheckoutRequest {
  listingId: string;
  userId: string;
  listingTitle: string;
  successUrl: string;
  cancelUrl: string;
  /** Epoch seconds after which the session cannot be paid (Stripe accepts 30 minutes to 24 hours). */
  expiresAt: number;
}

/** A Checkout session in subscription mode for the weekly plan; its id and hosted page address. */
export async function createStripeCheckoutSession(config: StripeConfig, req: CheckoutRequest): Promise<{ id: string; url: string }> {
  const metadata = { listing_id: req.listingId, user_id: req.userId };
  const session = await stripeClient(config).checkout.sessions.create(
    {
      mode: "subscription",
      line_items: [
        config.priceId
          ? { price: config.priceId, quantity: 1 }
          : {
              quantity: 1,
              price_data: {
                currency: PROMOTION_PLAN.currency,
                unit_amount: PROMOTION_PLAN.amount,
                recurring: { interval: PROMOTION_PLAN.interval },
                product_data: { name: `${PROMOTION_PLAN.name}: ${req.listingTitle}`.slice(0, 250) },
              },
            },
      ],
      metadata,
      subscription_data: { metadata },
      client_reference_id: req.listingId,
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      expires_at: req.expiresAt,
    },
  );
  if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
  return { id: session.id, url: session.url };
}

const sessionAnswer = (session: Pick<CheckoutSessionRow, "id" | "url">) => ({ checkout_url: session.url ?? `/dev/checkout/${session.id}`, session_id: session.id });

/**
 * Starts a checkout for the owner's approved or pending listing: Stripe Checkout with keys; without
 * them (development only) the built-in test checkout.
 *
 * One live subscription per listing: a listing that holds a subscription (or waits for a delayed
 * payment) is refused (409); one with a session that can still be paid answers that session again
 * (two tabs, Back, a double click). The session row is written under the listing's promotion_version,
 * so two requests at once make one session (the loser's Stripe session is expired, and it answers
 * the winner's). The same Idempotency-Key from the same user within 24 hours answers the first
 * session. A user starts at most CHECKOUT_SESSIONS_PER_MINUTE new sessions a minute.
 */
export async function startCheckout(db: Db, config: Config, user: { id: string }, listingId: string, origin: string, idempotencyKey: string | null = null) {
  const windowStart = isoNow(Date.now() - IDEMPOTENCY_WINDOW_MS);
  const answerForKey = async () => {
    if (!idempotencyKey) return null;
    const first = await findCheckoutSessionByKey(db, user.id, idempotencyKey, windowStart);
    if (!first) return null;
    if (first.listingId !== listingId) throw conflict("This Idempotency-Key was already used for another listing's checkout");
    return sessionAnswer(first);
  };
  const replay = await answerForKey();
  if (replay) return replay;
  let listing = await ownListing(db, user, listingId);
  const facts = { user_id: listing.userId, verification_status: listing.verificationStatus, status: listing.status, moderation_status: listing.moderationStatus };
  if (!canBuyPromotion(user, facts)) {
    throw conflict(
      listing.moderationStatus !== "visible"
        ? "This listing was hidden by staff and cannot be promoted"
        : "Only approved listings, or listings waiting for review, can be promoted",
    );
  }
  if (idempotencyKey) await forgetStaleCheckoutKey(db, user.id, idempotencyKey, windowStart).run();
  const base = (config.publicBaseUrl || origin).replace(/\/+$/, "");
  const id = encodeURIComponent(listing.id);
  const successUrl = `${base}/profile?promotion_success=true&listing_id=${id}`;
  const cancelUrl = `${base}/promote?listing_id=${id}`;
  const useStripe = stripeConfigured(config.stripe);
  if (!useStripe && !config.isDevelopment) throw apiError(503, { detail: PROMOTION_MESSAGES.checkoutFailed });

  return untilApplied(busy, async (attempt) => {
    if (attempt > 0) {
      const again = await answerForKey();
      if (again) return again;
      listing = (await findListing(db, listing.id)) ?? listing;
    }
    const version = listing.promotionVersion;
    const now = Date.now();
    const nowIso = isoNow(now);
    if ((await liveSubscriptionsOfListing(db, listing.id)).some((r) => blocksCheckout(r, nowIso))) {
      throw conflict("This listing already has an active promotion subscription");
    }
    const open = await openCheckoutSessionOfListing(db, listing.id, isoNow(now + CHECKOUT_REUSE_MARGIN_MS));
    if (open && open.kind === (useStripe ? "stripe" : "test")) return sessionAnswer(open);

    const started = await checkoutSessionsStartedSince(db, user.id, isoNow(now - 60_000));
    if (started && started.n >= CHECKOUT_SESSIONS_PER_MINUTE) {
      const retryAfter = started.oldest ? Math.max(1, Math.ceil((Date.parse(started.oldest) + 60_000 - now) / 1000)) : 60;
      throw tooManyRequests(retryAfter, "Too many checkout attempts. Please wait a minute and try again.");
    }
    const expiresAt = now + CHECKOUT_SESSION_MS;
    let session: { id: string; url: string; kind: "stripe" | "test"; successUrl: string; cancelUrl: string };
    if (useStripe) {
      const created = await createStripeCheckoutSession(config.stripe, {
        listingId: listing.id,
        userId: user.id,
        listingTitle: listing.title,
        successUrl,
        cancelUrl,
        expiresAt: Math.floor(expiresAt / 1000),
        // No Stripe idempotency key of ours: its parameters (expires_at) differ on every try, so Stripe
        // would refuse a reused key. Duplicates are prevented by the (user, key) unique index instead.
      });
      session = { ...created, kind: "stripe", successUrl, cancelUrl };
    } else {
      // The test checkout is served by this worker: its return addresses are paths on the same origin
      // (whatever port the development server runs on; the CSP's form-action 'self' covers them).
      const sessionId = `cs_test_${newId(24)}`;
      session = { id: sessionId, url: `/dev/checkout/${sessionId}`, kind: "test", successUrl: successUrl.slice(base.length), cancelUrl: cancelUrl.slice(base.length) };
    }
    let won = false;
    try {
      won = applied(
        await promotionBatch(db, [
          insertCheckoutSessionIf(db, { ...session, listingId: listing.id, userId: user.id, expiresAt: isoNow(expiresAt), idempotencyKey, createdAt: nowIso }, version),
          updateListingPromotionIf(db, listing.id, version, {}),
        ]),
      );
    } catch (err) {
      // The same key at once from another request: answer the session it made (next attempt).
      if (!isUniqueViolation(err)) throw err;
    }
    if (won) return sessionAnswer(session);
    // Another write came first (most likely the same owner's other request): nobody should pay this
    // one, unless it is the session that request stored and answered.
    if (useStripe && !(await findCheckoutSession(db, session.id))) {
      await expireStripeCheckoutSession(config.stripe, session.id).catch((err) =>
        log.warn("stripe_expire_failed", { session_id: session.id, message: err instanceof Error ? err.message : "unknown" }),
      );
    }
    return RETRY;
  });
}

/** The owner buys a weekly promotion: Stripe Checkout in subscription mode (or the development test checkout). */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { StripeConfig } from "../../env";
import { findListing } from "../../db/queries/listings";
import { checkoutSessionsStartedSince, findCheckoutSession, findCheckoutSessionByKey, forgetStaleCheckoutKey, insertCheckoutSessionIf, liveSubscriptionsOfListing, openCheckoutSessionOfListing, promotionBatch, updateListingPromotionIf } from "../../db/queries/promotions";
import { canBuyPromotion } from "../../contract/owner-rules";
import { PROMOTION_MESSAGES, PROMOTION_PLAN } from "../../contract/promotions";
import { startCheckoutSession, type CheckoutSubject } from "../stripe/checkout";
import { stripeClient, stripeConfigured } from "../stripe/client";
import { applied } from "../stripe/once";
import { blocksCheckout, ownListing } from "./record";
import { apiError, conflict } from "../../lib/errors";
import { isoNow } from "../../lib/time";

export { CHECKOUT_SESSIONS_PER_MINUTE } from "../stripe/checkout";

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

/**
 * Starts a checkout for the owner's approved or pending listing through the shared Checkout core
 * (stripe/checkout.ts): Stripe Checkout with keys; without them (development only) the built-in test checkout.
 *
 * One live subscription per listing: a listing that holds a subscription (or waits for a delayed
 * payment) is refused (409); one with a session that can still be paid answers that session again. The
 * session row is written under the listing's promotion_version, so two requests at once make one session.
 */
export async function startCheckout(db: Db, config: Config, user: { id: string }, listingId: string, origin: string, idempotencyKey: string | null = null) {
  let listing = await ownListing(db, user, listingId);
  const facts = { user_id: listing.userId, verification_status: listing.verificationStatus, status: listing.status, moderation_status: listing.moderationStatus };
  if (!canBuyPromotion(user, facts)) {
    throw conflict(
      listing.moderationStatus !== "visible"
        ? "This listing was hidden by staff and cannot be promoted"
        : "Only approved listings, or listings waiting for review, can be promoted",
    );
  }
  const base = (config.publicBaseUrl || origin).replace(/\/+$/, "");
  const id = encodeURIComponent(listing.id);
  const successUrl = `${base}/profile?promotion_success=true&listing_id=${id}`;
  const cancelUrl = `${base}/promote?listing_id=${id}`;
  const useStripe = stripeConfigured(config.stripe);
  if (!useStripe && !config.isDevelopment) throw apiError(503, { detail: PROMOTION_MESSAGES.checkoutFailed });

  const subject: CheckoutSubject = {
    keyReused: "This Idempotency-Key was already used for another listing's checkout",
    async byKey(key, since) {
      const first = await findCheckoutSessionByKey(db, user.id, key, since);
      return first ? { session: first, sameSubject: first.listingId === listing.id } : null;
    },
    forgetStaleKey: (key, before) => forgetStaleCheckoutKey(db, user.id, key, before).run(),
    async read() {
      listing = (await findListing(db, listing.id)) ?? listing;
      const nowIso = isoNow();
      if ((await liveSubscriptionsOfListing(db, listing.id)).some((r) => blocksCheckout(r, nowIso))) throw conflict("This listing already has an active promotion subscription");
      return { version: listing.promotionVersion };
    },
    open: (until) => openCheckoutSessionOfListing(db, listing.id, until).then((r) => r ?? null),
    startedSince: (since) => checkoutSessionsStartedSince(db, user.id, since).then((r) => r ?? null),
    // No Stripe idempotency key of ours: duplicates are prevented by the (user, key) unique index (decision 013).
    stripeKey: () => null,
    createAtStripe: (expiresAt) => createStripeCheckoutSession(config.stripe, { listingId: listing.id, userId: user.id, listingTitle: listing.title, successUrl, cancelUrl, expiresAt }),
    async write(session, expiresAt, version, nowIso) {
      // The test checkout is served by this worker: its return addresses are paths on the same origin.
      const urls = session.kind === "stripe" ? { successUrl, cancelUrl } : { successUrl: successUrl.slice(base.length), cancelUrl: cancelUrl.slice(base.length) };
      return applied(
        await promotionBatch(db, [
          insertCheckoutSessionIf(db, { ...session, ...urls, listingId: listing.id, userId: user.id, expiresAt, idempotencyKey, createdAt: nowIso }, version),
          updateListingPromotionIf(db, listing.id, version, {}),
        ]),
      );
    },
    stored: async (sessionId) => !!(await findCheckoutSession(db, sessionId)),
  };
  return startCheckoutSession(config.stripe, subject, { key: idempotencyKey, useStripe, busyDetail: "The promotion is being updated by another request. Please try again." });
}

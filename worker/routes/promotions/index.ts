/**
 * Paid promotion (api-contract "Promotions (Stripe)"). The owner's calls and Stripe's webhook;
 * everything they change goes through services/promotions/.
 */
import {
  checkoutSessionSchema,
  type BillingHistoryResponse,
  type CheckoutSessionResponse,
  type PromotionStatusResponse,
} from "../../contract/promotions";
import { createRouter } from "../../lib/context";
import { idempotencyKeyOf } from "../../lib/idempotency";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { billingHistory, cancelPromotion, promotionStatus, startCheckout } from "../../services/promotions";
import { receivePlatformWebhook } from "../../services/payments";
import { deferOf } from "../../lib/request-meta";

export const promotionsRoutes = createRouter()
  .post("/create-checkout-session", async (c) => {
    const user = await requireUser(c);
    // The shared write budget; startCheckout also caps new sessions (CHECKOUT_SESSIONS_PER_MINUTE).
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const idempotencyKey = idempotencyKeyOf(c);
    const { listing_id } = await parseJson(c, checkoutSessionSchema);
    const data = await startCheckout(c.var.db, c.var.config, user, listing_id, new URL(c.req.url).origin, idempotencyKey);
    return c.json<CheckoutSessionResponse>({ data });
  })

  // Stripe's events: the raw body is what the signature covers. The platform's one entry (decision 029):
  // a deal's events arriving here are applied by the deal's payments, as at payments/webhook.
  .post("/webhook", async (c) => {
    const result = await receivePlatformWebhook(c.var.db, c.env, c.var.config, await c.req.text(), c.req.header("stripe-signature"), deferOf(c));
    return c.json({ received: true, applied: result.applied });
  })

  .get("/status/:listingId", async (c) => {
    const user = await requireUser(c);
    return c.json<PromotionStatusResponse>({ data: await promotionStatus(c.var.db, user, c.req.param("listingId")) });
  })

  .get("/billing-history/:listingId", async (c) => {
    const user = await requireUser(c);
    return c.json<BillingHistoryResponse>({ data: await billingHistory(c.var.db, user, c.req.param("listingId")) });
  })

  .post("/cancel/:listingId", async (c) => {
    const user = await requireUser(c);
    return c.json<PromotionStatusResponse>({ data: await cancelPromotion({ db: c.var.db, env: c.env, config: c.var.config }, user, c.req.param("listingId")) });
  });

/**
 * Stripe's platform webhook (docs/decisions/029): `POST payments/webhook`. The same entry answers the
 * older `promotions/webhook`; a deal's events go to its payments, the rest to promotions.
 */
import { createRouter } from "../../lib/context";
import { deferOf } from "../../lib/request-meta";
import { receivePlatformWebhook } from "../../services/payments";

export const paymentsWebhookRoutes = createRouter()
  // The raw body is what the signature covers.
  .post("/webhook", async (c) => {
    const result = await receivePlatformWebhook(c.var.db, c.env, c.var.config, await c.req.text(), c.req.header("stripe-signature"), deferOf(c));
    return c.json({ received: true, applied: result.applied });
  });

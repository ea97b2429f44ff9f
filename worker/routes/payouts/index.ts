/**
 * Payouts (api-contract "Deals"; docs/decisions/030): a lister's onboarding and status, the Connect
 * endpoint Stripe sends account events to, and the development onboarding page. Everything they change
 * goes through services/payouts/.
 */
import { z } from "zod";
import type { PayoutOnboardingResponse, PayoutStatusResponse } from "../../contract/payouts";
import type { Context } from "hono";
import { createRouter, type AppContext } from "../../lib/context";
import { deferOf } from "../../lib/request-meta";
import { notFound } from "../../lib/errors";
import { parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { payoutStatus, startOnboarding } from "../../services/payouts";
import { receiveConnectWebhook } from "../../services/payouts/connect-webhook";
import { completeDevOnboarding, DEV_CONNECT_CSS, devConnectPage } from "../../services/payouts/dev-connect";

const effectsOf = (c: Context<AppContext>) => ({ env: c.env, config: c.var.config, defer: deferOf(c) });

/** `/api/v1/payouts` */
export const payoutsRoutes = createRouter()
  .post("/onboarding", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    return c.json<PayoutOnboardingResponse>({ data: await startOnboarding(c.var.db, c.var.config, user, new URL(c.req.url).origin) });
  })
  .get("/status", async (c) => {
    const user = await requireUser(c);
    const { refresh } = parseQuery(c, z.object({ refresh: z.enum(["0", "1"]).optional() }));
    // A refresh asks Stripe: it spends the caller's write budget, a plain read does not.
    if (refresh === "1") await enforceLimit(c, "WRITE_LIMITER", user.id);
    return c.json<PayoutStatusResponse>({ data: await payoutStatus(c.var.db, effectsOf(c), user.id, { refresh: refresh === "1" }) }, 200, { "Cache-Control": "no-store" });
  });

/** `/api/v1/payments/connect-webhook`: Stripe's Connect events; the raw body is what the signature covers. */
export const connectWebhookRoutes = createRouter().post("/", async (c) => {
  const result = await receiveConnectWebhook(c.var.db, effectsOf(c), await c.req.text(), c.req.header("stripe-signature"));
  return c.json({ received: true, applied: result.applied });
});

/** `/dev/connect/*` (outside /api): the development onboarding page; 404 outside development. */
export const devConnectRoutes = createRouter()
  .use("*", async (c, next) => {
    if (!c.var.config.isDevelopment) throw notFound();
    await next();
  })
  .get("/connect.css", (c) => c.body(DEV_CONNECT_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-store" }))
  .get("/connect/:accountId", async (c) => c.html(await devConnectPage(c.var.db, c.req.param("accountId")), 200, { "Cache-Control": "no-store" }))
  .post("/connect/:accountId/complete", async (c) => c.redirect(await completeDevOnboarding(c.var.db, effectsOf(c), c.req.param("accountId")), 303));

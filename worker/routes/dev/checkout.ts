/**
 * The development test checkout's pages (/dev/checkout/*, outside /api): 404 outside development.
 * The page has no script and takes its styles from a stylesheet route (the worker's CSP).
 */
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { cancelTestCheckout, completeTestCheckout, TEST_CHECKOUT_CSS, testCheckoutPage } from "../../services/dev-checkout";

export const devCheckoutRoutes = createRouter()
  .use("*", async (c, next) => {
    if (!c.var.config.isDevelopment) throw notFound();
    await next();
  })
  .get("/checkout.css", (c) => c.body(TEST_CHECKOUT_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-store" }))
  .get("/checkout/:sessionId", async (c) => c.html(await testCheckoutPage(c.var.db, c.req.param("sessionId")), 200, { "Cache-Control": "no-store" }))
  .post("/checkout/:sessionId/complete", async (c) => c.redirect(await completeTestCheckout(c.var.db, c.env, c.var.config, c.req.param("sessionId")), 303))
  .post("/checkout/:sessionId/cancel", async (c) => c.redirect(await cancelTestCheckout(c.var.db, c.req.param("sessionId")), 303));

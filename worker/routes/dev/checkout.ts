/**
 * The development test checkout's pages (/dev/checkout/*, outside /api): 404 outside development.
 * The page has no script and takes its styles from a stylesheet route (the worker's CSP).
 */
import { createRouter, type AppContext } from "../../lib/context";
import { notFound } from "../../lib/errors";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { cancelTestCheckout, checkoutNoticePage, completeTestCheckout, TEST_CHECKOUT_CSS, testCheckoutPage } from "../../services/dev-checkout";

/**
 * A refused request (an unknown or expired session) answered as a page a person can read, with its
 * detail and the way back, since these addresses are opened in a browser, not by the SPA.
 */
async function asPage(c: Context<AppContext>, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof HTTPException) || err.status >= 500) throw err;
    const { detail } = (await err.getResponse().json()) as { detail: string };
    const heading = err.status === 404 ? "Checkout not found" : "Checkout not available";
    const text = err.status === 404 ? `${detail}. It may have expired or been replaced; start again from your listing's Promote button. You were not charged.` : detail;
    return c.html(checkoutNoticePage(heading, text, { href: "/profile", label: "Go to your profile" }), err.status, { "Cache-Control": "no-store" });
  }
}

export const devCheckoutRoutes = createRouter()
  .use("*", async (c, next) => {
    if (!c.var.config.isDevelopment) throw notFound();
    await next();
  })
  .get("/checkout.css", (c) => c.body(TEST_CHECKOUT_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-store" }))
  .get("/checkout/:sessionId", (c) => asPage(c, async () => c.html(await testCheckoutPage(c.var.db, c.var.config, c.req.param("sessionId")), 200, { "Cache-Control": "no-store" })))
  .post("/checkout/:sessionId/complete", (c) => asPage(c, async () => c.redirect(await completeTestCheckout(c.var.db, c.env, c.var.config, c.req.param("sessionId")), 303)))
  .post("/checkout/:sessionId/cancel", (c) => asPage(c, async () => c.html(await cancelTestCheckout(c.var.db, c.req.param("sessionId")), 200, { "Cache-Control": "no-store" })));

/**
 * The development test checkout (api-contract "Local development conventions"): without Stripe keys,
 * create-checkout-session sends the browser here. Paying builds the events Stripe would send,
 * signs them with the webhook secret and delivers them through the webhook's own entry
 * (receiveWebhook), so the same verification and the same promotions service apply them.
 * Development only: the routes answer 404 elsewhere.
 */
import type { Config } from "../env";
import type { Db } from "../db/client";
import { findListing } from "../db/queries/listings";
import { findCheckoutSession, findSubscription, liveSubscriptionsOfListing, markCheckoutSessionCompleted, reopenCheckoutSession } from "../db/queries/promotions";
import { PROMOTION_PLAN } from "../contract/promotions";
import { newId } from "../lib/ids";
import { notFound, conflict } from "../lib/errors";
import { isoNow } from "../lib/time";
import { testCheckoutCompleted, testInvoice, type TestSubscription } from "./promotions/events";
import { signWebhookPayload } from "./stripe/webhook";
import { receiveWebhook } from "./promotions";
import { completeDealTestCheckout, dealCancelUrl, dealTestCheckoutPage, dealTestSession } from "./payments/dev-checkout";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** Signs `event` like Stripe and hands it to the webhook's entry; throws if it was refused. */
async function deliver(db: Db, env: Env, config: Config, event: object): Promise<void> {
  const payload = JSON.stringify(event);
  const signature = await signWebhookPayload(config.stripe.webhookSecret, payload);
  await receiveWebhook(db, env, config, payload, signature);
}

async function testSession(db: Db, sessionId: string) {
  const session = await findCheckoutSession(db, sessionId);
  if (!session || session.kind !== "test") throw notFound("Checkout session not found");
  return session;
}

/** The checkout page: plan, listing, a test-card note, Pay and Cancel (no script: the worker's CSP). */
export async function testCheckoutPage(db: Db, sessionId: string): Promise<string> {
  // A deal's first payment has its own page (services/payments/dev-checkout.ts, docs/decisions/029).
  const dealPage = await dealTestCheckoutPage(db, sessionId);
  if (dealPage) return dealPage;
  const session = await testSession(db, sessionId);
  const listing = await findListing(db, session.listingId);
  const title = listing?.title ?? "Your listing";
  const id = encodeURIComponent(session.id);
  const price = `$${(PROMOTION_PLAN.amount / 100).toFixed(0)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test checkout · CampusNest</title><link rel="stylesheet" href="/dev/checkout.css"></head>
<body><main class="card">
<p class="badge">Test mode</p>
<h1>${escapeHtml(PROMOTION_PLAN.name)} ${escapeHtml(price)}/week</h1>
<p class="plan">Plan: ${escapeHtml(PROMOTION_PLAN.name)} ${escapeHtml(PROMOTION_PLAN.priceLabel)}, renews every week until cancelled.</p>
<p>Listing: <strong>${escapeHtml(title)}</strong></p>
${session.completedAt ? `<p class="note">This checkout is already paid.</p>` : ""}
<p class="note">This is the built-in test checkout of development: no card is charged. With Stripe keys set, Stripe's own checkout page is used (test card 4242 4242 4242 4242).</p>
<form method="post" action="/dev/checkout/${id}/complete"><button type="submit" class="pay">Pay ${escapeHtml(price)}</button></form>
<form method="post" action="/dev/checkout/${id}/cancel"><button type="submit" class="cancel">Cancel</button></form>
</main></body></html>`;
}

// The body's side padding keeps the card off the screen's edges on a phone.
export const TEST_CHECKOUT_CSS = `body{margin:0;padding:0 16px;font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;background:#f6f7f9;color:#14171c}
.card{max-width:440px;margin:48px auto;background:#fff;border:1px solid #dde1e7;border-radius:12px;padding:28px}
h1{font-size:22px;margin:8px 0 12px}.badge{display:inline-block;background:#fff4ce;color:#5c4400;border-radius:6px;padding:2px 8px;font-size:13px;margin:0}
.note{font-size:14px;color:#5b6472}form{margin-top:12px}button{width:100%;font:inherit;font-weight:700;border-radius:8px;padding:12px;cursor:pointer}
.pay{background:#1f6feb;color:#fff;border:0}.cancel{background:#fff;color:#14171c;border:1px solid #dde1e7}
@media (max-width:480px){.card{margin:16px auto;padding:20px}}`;

/**
 * Pay: checkout.session.completed + invoice.paid, signed and delivered; answers where to go. The
 * session is claimed first, so paying twice (even at once) plays nothing the second time; an expired
 * session cannot be paid.
 */
export async function completeTestCheckout(db: Db, env: Env, config: Config, sessionId: string): Promise<string> {
  const dealPaid = await completeDealTestCheckout(db, env, config, sessionId);
  if (dealPaid) return dealPaid;
  const session = await testSession(db, sessionId);
  if (session.completedAt) return session.successUrl;
  if (session.expiresAt && session.expiresAt <= isoNow()) throw conflict("This checkout has expired. Start a new one from the promote page.");
  const claimed = await markCheckoutSessionCompleted(db, session.id, isoNow()).run();
  if (!claimed.meta.changes) return session.successUrl;
  const now = Math.floor(Date.now() / 1000);
  const sub: TestSubscription = { subscriptionId: `sub_test_${newId(24)}`, listingId: session.listingId, userId: session.userId };
  try {
    await deliver(db, env, config, testCheckoutCompleted(session.id, sub, now));
    await deliver(db, env, config, testInvoice("invoice.paid", sub, now, now));
  } catch (err) {
    await reopenCheckoutSession(db, session.id).run();
    throw err;
  }
  return session.successUrl;
}

export async function cancelTestCheckout(db: Db, sessionId: string): Promise<string> {
  const deal = await dealTestSession(db, sessionId);
  if (deal) return dealCancelUrl(deal.deal_id);
  return (await testSession(db, sessionId)).cancelUrl;
}

/** Plays the next renewal of the listing's subscription: paid, or failed. */
export async function playRenewal(db: Db, env: Env, config: Config, listingId: string, outcome: "paid" | "failed"): Promise<void> {
  const live = await liveSubscriptionsOfListing(db, listingId);
  const current = live.sort((a, b) => (b.createdAt > a.createdAt ? 1 : -1))[0];
  if (!current) throw conflict("This listing has no promotion subscription");
  // As Stripe: a subscription told not to renew (Cancel, or the listing taken, hidden, paused, deleted) gets no renewal invoice.
  if (current.cancelAtPeriodEnd && outcome === "paid") throw conflict("This promotion does not renew: it was cancelled");
  const record = (await findSubscription(db, current.id))!;
  const now = Math.floor(Date.now() / 1000);
  const periodStart = record.currentPeriodEnd ? Math.floor(Date.parse(record.currentPeriodEnd) / 1000) : now;
  const sub: TestSubscription = { subscriptionId: record.id, listingId: record.listingId, userId: record.userId };
  await deliver(db, env, config, testInvoice(outcome === "paid" ? "invoice.paid" : "invoice.payment_failed", sub, periodStart, now));
}

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
import { completeDealTestCheckout, dealCancelUrl, dealPaidUrl, dealTestCheckoutPage, dealTestSession } from "./payments/dev-checkout";

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

/** A test-checkout page around `body` (no script, no style attribute: the worker's CSP). */
function checkoutHtml(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · CampusNest</title><link rel="stylesheet" href="/dev/checkout.css"></head>
<body><main class="card">
<p class="badge">Test mode</p>
${body}
</main></body></html>`;
}

/**
 * The checkout page: plan, listing, a test-card note, Pay and Cancel (no script: the worker's CSP).
 * A paid session shows its paid state and the way on, never a Pay button.
 */
export async function testCheckoutPage(db: Db, config: Config, sessionId: string): Promise<string> {
  // A deal's first payment has its own page (services/payments/dev-checkout.ts, docs/decisions/029).
  const dealPage = await dealTestCheckoutPage(db, config, sessionId);
  if (dealPage) return checkoutHtml(dealPage.title, dealPage.body);
  const session = await testSession(db, sessionId);
  const listing = await findListing(db, session.listingId);
  const title = listing?.title ?? "Your listing";
  const id = encodeURIComponent(session.id);
  const price = `$${(PROMOTION_PLAN.amount / 100).toFixed(0)}`;
  const head = `<h1>${escapeHtml(PROMOTION_PLAN.name)} ${escapeHtml(price)}/week</h1>
<p class="plan">Plan: ${escapeHtml(PROMOTION_PLAN.name)} ${escapeHtml(PROMOTION_PLAN.priceLabel)}, renews every week until cancelled.</p>
<p>Listing: <strong>${escapeHtml(title)}</strong></p>`;
  if (session.completedAt) {
    return checkoutHtml(
      "Paid",
      `${head}
<p class="paid" role="status">Paid. This checkout is complete; there is nothing more to pay.</p>
<p><a class="button pay" href="${escapeHtml(session.successUrl)}">Go to your profile</a></p>`,
    );
  }
  return checkoutHtml(
    "Test checkout",
    `${head}
<p class="note">This is the built-in test checkout of development: no card is charged. With Stripe keys set, Stripe's own checkout page is used (test card 4242 4242 4242 4242).</p>
<form method="post" action="/dev/checkout/${id}/complete"><button type="submit" class="pay">Pay ${escapeHtml(price)}</button></form>
<form method="post" action="/dev/checkout/${id}/cancel"><button type="submit" class="cancel">Cancel</button></form>`,
  );
}

/** A page that says one thing (cancelled, not found, expired) and where to go next: never raw JSON in a browser. */
export function checkoutNoticePage(heading: string, text: string, next: { href: string; label: string }): string {
  return checkoutHtml(heading, `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
<p><a class="button pay" href="${escapeHtml(next.href)}">${escapeHtml(next.label)}</a></p>`);
}

// The body's side padding keeps the card off the screen's edges on a phone; the colours follow the
// device's light or dark setting (the page runs no script, so it cannot read the app's own toggle).
export const TEST_CHECKOUT_CSS = `:root{color-scheme:light dark;--bg:#f6f7f9;--text:#14171c;--muted:#5b6472;--surface:#fff;--border:#dde1e7;--brand:#1f6feb;--on-brand:#fff;--badge-bg:#fff4ce;--badge:#5c4400;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--text:#e6edf3;--muted:#9da7b3;--surface:#161b22;--border:#30363d;--brand:#4c8dff;--on-brand:#0d1117;--badge-bg:#3d2e00;--badge:#f2cc60;--ok:#3fb950}}
body{margin:0;padding:0 16px;font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;background:var(--bg);color:var(--text)}
.card{max-width:440px;margin:48px auto;background:var(--surface);border:1px solid var(--border);border-radius:12px;padding:28px}
h1{font-size:22px;margin:8px 0 12px}.badge{display:inline-block;background:var(--badge-bg);color:var(--badge);border-radius:6px;padding:2px 8px;font-size:13px;margin:0}
.note{font-size:14px;color:var(--muted)}.paid{font-weight:700;color:var(--ok)}form{margin-top:12px}
button,.button{display:block;box-sizing:border-box;width:100%;font:inherit;font-weight:700;border-radius:8px;padding:12px;cursor:pointer;text-align:center;text-decoration:none}
.pay{background:var(--brand);color:var(--on-brand);border:0}.cancel{background:var(--surface);color:var(--text);border:1px solid var(--border)}
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

/** Cancel: says nothing was charged (a paid session says it was paid), with the way back. */
export async function cancelTestCheckout(db: Db, sessionId: string): Promise<string> {
  const deal = await dealTestSession(db, sessionId);
  if (deal?.completed_at) return checkoutNoticePage("Already paid", "This checkout was paid before it was cancelled: the deal is paid, and CampusNest holds the rent as the deal page says.", { href: dealPaidUrl(deal.deal_id), label: "Go to the deal" });
  if (deal) return checkoutNoticePage("Checkout cancelled", "You were not charged. The deal is still waiting for its first payment.", { href: dealCancelUrl(deal.deal_id), label: "Back to the deal" });
  const session = await testSession(db, sessionId);
  if (session.completedAt) return checkoutNoticePage("Already paid", "This checkout was paid before it was cancelled: your promotion is running. Cancel it from Billing if you do not want it to renew.", { href: session.successUrl, label: "Go to your profile" });
  return checkoutNoticePage("Checkout cancelled", "You were not charged. Your listing is not promoted.", { href: session.cancelUrl, label: "Back to promoting your listing" });
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

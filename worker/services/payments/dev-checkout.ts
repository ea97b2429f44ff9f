/**
 * The development test checkout of a deal's first payment (docs/decisions/029): the same page as the
 * promotion's (services/dev-checkout.ts), showing what is paid: the first month's rent, the service fee
 * and that CampusNest holds the rent until 48 hours after move-in. Paying signs Stripe's event with the
 * development webhook secret and delivers it through the platform webhook's entry. Development only.
 */
import { DEAL_CANCELLATION_POLICY, DEAL_WORDS, shortDate } from "../../contract/deals";
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { findDeal } from "../../db/queries/deals";
import { claimDealCheckoutSession, findDealCheckoutSession, reopenDealCheckoutSession } from "../../db/queries/deal-payments";
import { conflict } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { dealAmounts, feePercentOf } from "./amounts";
import { signWebhookPayload } from "../stripe/webhook";
import { testDealCheckoutCompleted } from "./events";
import { receivePlatformWebhook } from "./webhook";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The deal's test session, or null when the id is not one (the promotion's page answers then). */
export async function dealTestSession(db: Db, sessionId: string) {
  const s = await findDealCheckoutSession(db, sessionId);
  return s && s.kind === "test" ? s : null;
}

/**
 * The deal's checkout page, as a title and the body the promotion's page frame wraps (services/dev-checkout.ts);
 * null when the id is not a deal's. A paid session shows its paid state and the way back, never Pay nor Cancel.
 */
export async function dealTestCheckoutPage(db: Db, config: Config, sessionId: string): Promise<{ title: string; body: string } | null> {
  const session = await dealTestSession(db, sessionId);
  if (!session) return null;
  const d = await findDeal(db, session.deal_id);
  if (!d) return null;
  const pay = dealAmounts(d, config);
  const id = encodeURIComponent(session.id);
  const head = `<h1>${session.completed_at ? "Paid" : "Pay"} ${escapeHtml(usd(pay.total_cents))}</h1>
<p>Sublease: <strong>${escapeHtml(d.listing_title)}</strong>, ${escapeHtml(shortDate(d.move_in))} to ${escapeHtml(shortDate(d.move_out))}</p>
<p class="plan">First month's rent${pay.by_days ? " (the stay, by days)" : ""}: ${escapeHtml(usd(pay.rent_cents))}<br>CampusNest service fee (${escapeHtml(String(feePercentOf(d, config)))}%): ${escapeHtml(usd(pay.fee_cents))}<br><strong>Total: ${escapeHtml(usd(pay.total_cents))}</strong></p>`;
  if (session.completed_at) {
    return {
      title: "Paid",
      body: `${head}
<p class="paid" role="status">Paid. This checkout is complete; there is nothing more to pay.</p>
<p><a class="button pay" href="${escapeHtml(dealPaidUrl(session.deal_id))}">Go to the deal</a></p>`,
    };
  }
  return {
    title: "Test checkout",
    body: `${head}
<p class="note">CampusNest holds the rent until ${DEAL_WORDS.releaseHours} hours after move-in, or until you tap "I have the keys" (and at least ${DEAL_WORDS.minimumHoldHours} hours after you pay). Later months are paid directly to the lister, as the agreement says.</p>
<ul class="note">${DEAL_CANCELLATION_POLICY.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p class="note">This is the built-in test checkout of development: no card is charged. With Stripe keys set, Stripe's own checkout page is used (test card 4242 4242 4242 4242).</p>
<form method="post" action="/dev/checkout/${id}/complete"><button type="submit" class="pay">Pay ${escapeHtml(usd(pay.total_cents))}</button></form>
<form method="post" action="/dev/checkout/${id}/cancel"><button type="submit" class="cancel">Cancel</button></form>`,
  };
}

export const dealPaidUrl = (dealId: string) => `/deals/${encodeURIComponent(dealId)}?paid=1`;
export const dealCancelUrl = (dealId: string) => `/deals/${encodeURIComponent(dealId)}?checkout=cancelled`;

/**
 * Pay: checkout.session.completed, signed and delivered through the platform webhook's entry; answers where
 * to go. The session is claimed first, so paying twice (even at once) plays nothing the second time.
 */
export async function completeDealTestCheckout(db: Db, env: Env, config: Config, sessionId: string): Promise<string | null> {
  const session = await dealTestSession(db, sessionId);
  if (!session) return null;
  if (session.completed_at) return dealPaidUrl(session.deal_id);
  if (session.expires_at <= isoNow()) throw conflict("This checkout has expired. Start a new one from the deal.");
  const d = await findDeal(db, session.deal_id);
  if (!d) return null;
  if (!(await claimDealCheckoutSession(db, session.id, isoNow()))) return dealPaidUrl(session.deal_id);
  const pay = dealAmounts(d, config);
  const suffix = newId(24);
  const event = testDealCheckoutCompleted({ sessionId: session.id, dealId: d.id, paymentIntentId: `pi_test_${suffix}`, chargeId: `ch_test_${suffix}`, amountTotal: pay.total_cents });
  const payload = JSON.stringify(event);
  try {
    await receivePlatformWebhook(db, env, config, payload, await signWebhookPayload(config.stripe.webhookSecret, payload));
  } catch (err) {
    await reopenDealCheckoutSession(db, session.id);
    throw err;
  }
  return dealPaidUrl(session.deal_id);
}

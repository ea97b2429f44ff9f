/**
 * The promotion's price has one source (worker/contract/promotion-plan.json). A configured
 * STRIPE_PRICE_ID replaces the inline price at checkout, so `npm run deploy` refuses one whose amount,
 * currency or interval differs from the plan the screens announce (read through the Stripe SDK).
 */
import { readFileSync } from "node:fs";
import Stripe from "stripe";

export const PROMOTION_PLAN = JSON.parse(readFileSync(new URL("../../worker/contract/promotion-plan.json", import.meta.url), "utf8"));

/**
 * Null when there is nothing to check (no STRIPE_PRICE_ID: checkout sends the plan's inline price) or
 * the price matches; otherwise the reason deploy must stop.
 */
export async function promotionPriceProblem({ priceId, secretKey, apiHost, apiPort, apiProtocol }) {
  if (!priceId) return null;
  if (!secretKey) return "STRIPE_PRICE_ID is set but STRIPE_SECRET_KEY is not: deploy reads the price from Stripe to check its amount.";
  const stripe = new Stripe(secretKey, {
    maxNetworkRetries: 1,
    ...(apiHost && { host: apiHost }),
    ...(apiPort && { port: Number(apiPort) }),
    ...(apiProtocol && { protocol: apiProtocol }),
  });
  let price;
  try {
    price = await stripe.prices.retrieve(priceId);
  } catch (err) {
    return `Could not read STRIPE_PRICE_ID ${priceId} from Stripe: ${err instanceof Error ? err.message : String(err)}`;
  }
  const plan = PROMOTION_PLAN;
  const interval = price.recurring ? `${price.recurring.interval_count === 1 ? "" : `${price.recurring.interval_count} `}${price.recurring.interval}` : "one-time";
  if (price.unit_amount === plan.amount && price.currency === plan.currency && interval === plan.interval) return null;
  const show = (amount, currency, every) => `${amount} ${String(currency).toUpperCase()} minor units per ${every}`;
  return (
    `STRIPE_PRICE_ID ${priceId} charges ${show(price.unit_amount, price.currency, interval)}, but the promotion is ` +
    `${show(plan.amount, plan.currency, plan.interval)} (worker/contract/promotion-plan.json). Fix the price in Stripe, or unset STRIPE_PRICE_ID.`
  );
}

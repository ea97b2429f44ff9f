/**
 * Paid promotion (api-contract "Promotions (Stripe)"): the plan, the requests the SPA sends and the
 * answers it reads. The worker's promotions service is the only code that changes a promotion.
 */
import { z } from "./zod";
import type { OwnerListing } from "./listings";
import plan from "./promotion-plan.json";

/** Whole dollars without cents ("$5"), otherwise with them ("$5.50"). */
const dollars = (cents: number) => `$${(cents / 100).toFixed(cents % 100 ? 2 : 0)}`;

/**
 * The one plan. Its price has one source, promotion-plan.json: the checkout's inline price, the
 * screens' labels and `npm run deploy` (which refuses a STRIPE_PRICE_ID of another amount) read it.
 */
export const PROMOTION_PLAN = {
  name: plan.name,
  /** Minor units. */
  amount: plan.amount,
  currency: plan.currency,
  interval: plan.interval as "week",
  days: plan.days,
  /** "$5" */
  price: dollars(plan.amount),
  /** "$5/week" */
  priceLabel: `${dollars(plan.amount)}/${plan.interval}`,
} as const;

/** The product's promotion and billing texts (docs/product-rules.md "Wording"). */
export const PROMOTION_MESSAGES = {
  noListing: "No listing ID provided",
  signIn: "Please log in to promote a listing",
  fetchListingFailed: "Failed to fetch listing",
  /** A link to a listing that does not exist (or was deleted): trying again cannot help. */
  listingNotFound: "Listing not found. It may have been deleted, or the link is wrong.",
  checkoutFailed: "Failed to create checkout session",
  statusFailed: "Failed to fetch promotion status",
  cancelFailed: "Failed to cancel promotion",
  promotedListingsFailed: "Failed to fetch promoted listings",
  cancelSubscriptionFailed: "Failed to cancel subscription",
} as const;

export const checkoutSessionSchema = z.object({ listing_id: z.string().trim().min(1, PROMOTION_MESSAGES.noListing).max(64) });

/**
 * Where a listing's paid promotion stands: `promoted` renews at promotion_end; `cancelled` runs to
 * promotion_end and stops; `past_due` a renewal payment failed (Stripe retries); `awaiting_approval`
 * paid while the listing waits for review (starts on approval); `none` nothing running.
 */
export type PromotionState = "promoted" | "cancelled" | "past_due" | "awaiting_approval" | "none";

/** GET promotions/status/{listingId} (and the answer of cancel). */
export interface PromotionStatus {
  promoted: boolean;
  promotion_start: string | null;
  promotion_end: string | null;
  days_remaining: number;
  auto_renew: boolean;
  state: PromotionState;
}
export interface PromotionStatusResponse {
  data: PromotionStatus;
}

/** POST promotions/create-checkout-session. */
export interface CheckoutSessionResponse {
  data: { checkout_url: string; session_id: string };
}

/** A billing history entry: money in minor units, times in epoch seconds. */
export interface BillingHistoryEntry {
  id: string;
  amount: number;
  currency: string;
  period_start: number;
  period_end: number;
  created: number;
  status: string;
}
export interface BillingHistoryResponse {
  data: BillingHistoryEntry[];
}

/** GET users/promoted-listings: own listings that are or were promoted, with where each stands. */
/** `deleted`: the owner deleted it; its promotion and billing history stay readable (only on those). */
export type PromotedListing = OwnerListing & { promotion_state: PromotionState; deleted?: true };
export interface PromotedListingsResponse {
  data: PromotedListing[];
}

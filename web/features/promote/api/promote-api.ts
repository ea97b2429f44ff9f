/** The promote page's call: start a checkout session for one of the user's listings. */
import { useMutation } from "@tanstack/react-query";
import { PROMOTION_MESSAGES, type CheckoutSessionResponse } from "@contract/promotions";
import { ApiError, apiRequest } from "../../../lib/api-client";
import { browserNavigation } from "../../../lib/browser-navigation";

/**
 * `key` is the checkout's Idempotency-Key: one per visit of the promote page for a listing, so a
 * retried click (after a dropped connection or an error) answers the session the first one made.
 */
export const createCheckoutSession = ({ listingId, key }: { listingId: string; key: string }) =>
  apiRequest<CheckoutSessionResponse>("promotions/create-checkout-session", {
    method: "POST",
    body: { listing_id: listingId },
    headers: { "Idempotency-Key": key },
  }).then((r) => r.data);

/** A fresh Idempotency-Key for one intended checkout. */
export const newCheckoutKey = () => `checkout-${crypto.randomUUID()}`;

/** The server's reason when it gave one (403 not yours, 409 already subscribed, 429 too many tries), else the product's text (docs/product-rules.md "Wording"). */
export function checkoutErrorMessage(err: unknown): string {
  if (err instanceof ApiError && typeof err.body?.detail === "string" && err.body.detail) return err.body.detail;
  return PROMOTION_MESSAGES.checkoutFailed;
}

/**
 * Creates the checkout session and sends the browser to it. The checkout (Stripe, or the worker's
 * built-in /dev/checkout page) is outside the SPA, so this is a full navigation, not the router; it is
 * done here, at the hook, so it happens even if the page unmounts while the call is in flight.
 */
export function useCreateCheckoutSession() {
  return useMutation({
    mutationFn: createCheckoutSession,
    onSuccess: ({ checkout_url }) => {
      browserNavigation.assign(checkout_url);
    },
  });
}

/**
 * Promotions, one operation per module: staff (and the clock), record (the subscription state
 * machine and the listing's columns derived from it), webhook, checkout, owner reads, cancel, and
 * deletion (money stops first). The Stripe core they share is services/stripe/.
 */
export { promoteByStaff, unpromoteByStaff, endLapsedStaffPromotions, endLapsedPromotions, endLapsedCancelledSubscriptions, startPendingPromotion } from "./staff";
export { promotionStateOf, type SubscriptionRecord } from "./record";
export { applyStripeEvent, receiveWebhook, type WebhookResult } from "./webhook";
export { startCheckout, CHECKOUT_SESSIONS_PER_MINUTE } from "./checkout";
export { promotionStatus, billingHistory, promotedListingsWithState } from "./owner";
export { cancelPromotion, stopRenewal, stopRenewalOfUnavailableListings } from "./cancel";
export { deleteAfterStoppingSubscriptions, endSubscriptionsNow, stopSubscriptionsOfSuspendedUsers } from "./deletion";

/** A deal's payments (docs/decisions/029, 035): one module per operation and per Stripe event; this is what routes and other services use. */
export { startDealCheckout } from "./checkout";
export { receivePlatformWebhook } from "./webhook";
export { applyDealEvent } from "./apply-event";
export { cancelDeal } from "./cancel-paid";
export { decideCancellation } from "./decision";
export { movedIn, releaseHeld } from "./release";
export { addStatement, reportProblem } from "./problem";
export { resolveCase } from "./resolve";
export { freezeHeldDealsOf, refuseDeletionWhileMoneyHeld } from "./suspension";
export { runDealPaymentJobs, type DealJobsResult } from "./jobs";

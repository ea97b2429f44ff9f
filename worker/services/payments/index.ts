/** A deal's payments (docs/decisions/029): one module per operation; this is what routes and other services use. */
export { startDealCheckout } from "./checkout";
export { receivePlatformWebhook } from "./webhook";
export { addStatement, cancelAnyDeal, decideCancellation, freezeHeldDealsOf, movedIn, refuseDeletionWhileMoneyHeld, reportProblem, resolveCase, runDealPaymentJobs, type DealJobsResult } from "./actions";
export { applyDealEvent, releaseHeld } from "./money";

/**
 * A promotion's Stripe events: verified (stripe/webhook.ts), then applied once as one compare-and-set
 * on the listing's promotion_version (stripe/once.ts; decision 013).
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { purgeListingCache } from "../edge-cache";
import { findListing } from "../../db/queries/listings";
import { insertStripeEventIf } from "../../db/queries/stripe-events";
import { VERSION_IS, findSubscription, insertBillingRowIf, liveSubscriptionsOfListing, markCheckoutSessionCompletedIf, markSubscriptionRefused, promotionBatch, saveSubscriptionIf, updateListingPromotionIf, type GuardedStatement } from "../../db/queries/promotions";
import { notify } from "../notify";
import { cancelAndRefundSubscription, refundStripeInvoice, stripeConfigured } from "../stripe/client";
import { MalformedEventError, verifiedEvent, type StripeEventEnvelope } from "../stripe/webhook";
import { acknowledgeEvent, applied, eventAlreadyApplied, RETRY, untilApplied } from "../stripe/once";
import { readSubscriptionEvent, type SubscriptionChange } from "./events";
import { busy, holdsListing, isPastDue, listingColumnsFor, mergeSubscription } from "./record";
import { apiError, badRequest, isUniqueViolation } from "../../lib/errors";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";

export interface WebhookResult {
  applied: boolean;
  reason?: "duplicate" | "ignored" | "unknown_listing";
}

type Statement = GuardedStatement;

/**
 * A subscription nobody should pay for (a duplicate, or for a listing deleted, hidden or suspended):
 * ended at Stripe now (unless `cancel` is false: already done) and `billing`'s invoice refunded.
 * Idempotency keys make a repeat refund nothing twice. Without keys there is nothing to tell Stripe.
 */
async function cancelAndRefund(config: Config, subscriptionId: string, billing: SubscriptionChange["billing"], cancel = true) {
  if (!stripeConfigured(config.stripe)) return;
  try {
    if (cancel) await cancelAndRefundSubscription(config.stripe, subscriptionId);
    if (billing && billing.amount > 0) await refundStripeInvoice(config.stripe, billing.id);
  } catch (err) {
    log.error("stripe_refund_failed", { subscription_id: subscriptionId, message: err instanceof Error ? err.message : "unknown" });
    throw apiError(502, { detail: "Could not refund a promotion subscription that cannot be kept. Please retry." });
  }
}

/**
 * Applies one verified Stripe event, once, as one compare-and-set (decision 013): the subscription
 * record and the listing are read with the listing's promotion_version; the event id, the record,
 * the billing row and the listing's columns are written in one batch whose every statement requires
 * that version, the last one moving it on. Another write in between (an event, the owner's Cancel,
 * staff, the cron) makes the batch change nothing: re-read and apply again (MAX_ATTEMPTS, then 503 so
 * Stripe retries). The event id is inserted in the same batch, so a second delivery changes nothing.
 *
 * One live subscription per listing: a subscription that becomes live while another holds the listing
 * (two tabs, Back, a checkout left open) is cancelled at Stripe and refunded before it is recorded as
 * such, and the owner is told.
 */
export async function applyStripeEvent(db: Db, env: Env, config: Config, event: StripeEventEnvelope): Promise<WebhookResult> {
  let change: SubscriptionChange | null;
  try {
    change = readSubscriptionEvent(event);
  } catch (err) {
    if (err instanceof MalformedEventError) throw badRequest(`Malformed ${event.type} event: ${err.message}`);
    throw err;
  }
  return untilApplied(busy, async () => {
    if (await eventAlreadyApplied(db, event.id)) return { applied: false, reason: "duplicate" };
    const known = change ? await findSubscription(db, change.subscriptionId) : undefined;
    const listingId = known?.listingId ?? change?.listingId;
    // The listing (its version) is read BEFORE what the event merges with: a write committed after
    // this read moves the version on, so the batch below cannot apply on top of an older record.
    const listing = listingId ? await findListing(db, listingId) : undefined;
    if (!change || !listing) {
      // Our subscription, paid for a listing deleted meanwhile (a checkout tab left open): nobody is
      // billed for a listing that is gone. Cancelled and refunded before the id is recorded (502: Stripe retries).
      if (change && listingId && !change.ended && (change.checkedOut || change.awaitingPayment || change.periodEnd !== undefined)) {
        await cancelAndRefund(config, change.subscriptionId, change.billing);
      }
      // Nothing of ours to change: the id alone, so a repeat is known.
      await acknowledgeEvent(db, event.id, event.type);
      if (change) log.warn("stripe_event_unknown_listing", { event_id: event.id, type: event.type });
      return { applied: false, reason: change ? "unknown_listing" : "ignored" };
    }
    const version = listing.promotionVersion;
    const existing = await findSubscription(db, change.subscriptionId);
    if (existing && existing.listingId !== listing.id) return RETRY;
    const now = Date.now();
    const nowIso = isoNow(now);
    const others = (await liveSubscriptionsOfListing(db, listing.id)).filter((r) => r.id !== change.subscriptionId);
    let record = mergeSubscription(existing, change, listing, now);
    // Only when this event makes it live: a subscription that already held the listing stays as it is.
    const becomesLive = !record.duplicate && holdsListing(record, nowIso) && !(existing && holdsListing(existing, nowIso));
    const becomesDuplicate = becomesLive && others.some((o) => holdsListing(o, nowIso));
    // A checkout paid after staff hid the listing or suspended its owner (a tab left open) is refused the same way.
    const refused = becomesDuplicate || (becomesLive && listing.moderationStatus !== "visible");
    if (refused) record = { ...record, duplicate: true, ended: true, status: "canceled" };
    // Money back before the record says so: a Stripe failure answers 502 and Stripe delivers again.
    if (refused) {
      await cancelAndRefund(config, record.id, change.billing);
      // Recorded at once (not under the version): a retry after a lost race must not see a subscription
      // cancelled at Stripe as live. The owner is told once, by the request that recorded it.
      const firstToRecord = !!(await markSubscriptionRefused(db, record)).meta.changes;
      if (firstToRecord && becomesDuplicate) {
        await notify({ db, env, config }, { userId: listing.userId }, { kind: "promotion_duplicate_refunded", listingId: listing.id, title: listing.title });
      }
    } else if (record.duplicate && change.billing) await cancelAndRefund(config, record.id, change.billing, false);
    const columns = listingColumnsFor(record, listing, now, others.length > 0);
    const statements: Statement[] = [insertStripeEventIf(db, event.id, event.type, VERSION_IS, listing.id, version), saveSubscriptionIf(db, record, version)];
    if (change.billing) {
      const billing = { ...change.billing, status: record.duplicate ? "refunded" : change.billing.status };
      statements.push(insertBillingRowIf(db, { ...billing, listingId: listing.id, subscriptionId: record.id }, version));
    }
    if (change.checkoutSessionId) statements.push(markCheckoutSessionCompletedIf(db, change.checkoutSessionId, nowIso, listing.id, version));
    statements.push(updateListingPromotionIf(db, listing.id, version, columns ? { ...columns, updatedAt: nowIso } : {}));
    let results: D1Result[];
    try {
      results = await promotionBatch(db, statements);
    } catch (err) {
      if (isUniqueViolation(err) && (await eventAlreadyApplied(db, event.id))) return { applied: false, reason: "duplicate" };
      throw err;
    }
    if (!applied(results)) return RETRY;
    if (columns) await purgeListingCache([listing.id]);
    if (change.paymentFailed && isPastDue(record) && !(existing && isPastDue(existing) && existing.failedPeriodEnd === record.failedPeriodEnd)) {
      await notify({ db, env, config }, { userId: listing.userId }, { kind: "promotion_payment_failed", listingId: listing.id, title: listing.title });
    }
    // Every paid invoice is a receipt (the event is applied once, so it is sent once).
    const bill = change.billing;
    if (bill && !record.duplicate && bill.status === "paid" && bill.amount > 0) {
      const receipt = { invoiceId: bill.id, amount: bill.amount, currency: bill.currency, periodStart: bill.periodStart, periodEnd: bill.periodEnd, paidAt: bill.created };
      await notify({ db, env, config }, { userId: listing.userId }, { kind: "promotion_receipt", listingId: listing.id, title: listing.title, ...receipt });
    }
    return { applied: true };
  });
}


/**
 * The webhook's entry: verifies the Stripe-Signature of the raw body (tolerance 300 s) and applies
 * the event. A bad or stale signature, or a signed payload that is not an event of the expected shape,
 * is a 400 and changes nothing (the event is not recorded as applied).
 */
export async function receiveWebhook(db: Db, env: Env, config: Config, rawBody: string, signature: string | undefined): Promise<WebhookResult> {
  return applyStripeEvent(db, env, config, await verifiedEvent(config.stripe, rawBody, signature));
}

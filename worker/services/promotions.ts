/**
 * The only code that starts, extends or ends a promotion. A promotion is a window
 * (promotion_start..promotion_end) with a source (stripe | admin) and an auto_renew flag; one
 * bought while the listing awaited review waits in promotion_pending_days and starts on approval.
 *
 * Ending a promotion clears the window, its source and auto_renew, everywhere (staff, cleanup,
 * cron). A purchase still waiting for approval is not a running promotion: only staff's unpromote
 * cancels it too.
 */
import type { BatchItem } from "drizzle-orm/batch";
import { getConfig, type Config } from "../env";
import { createDb, type Db } from "../db/client";
import { purgeListingCache } from "./edge-cache";
import { findListing, promotedListingsOfUser, updateLapsedPromotionsNotRenewing, updateLapsedStaffPromotions, updateListing } from "../db/queries/listings";
import {
  billingHistoryOfListing,
  findSubscription,
  insertBillingRow,
  insertCheckoutSession,
  insertStripeEvent,
  isEventApplied,
  liveSubscriptionsOfListing,
  liveSubscriptionsOfUser,
  markLapsedCancelledSubscriptionsEnded,
  pendingPromotionsOfUser,
  saveSubscription,
  type SubscriptionRecord,
} from "../db/queries/promotions";
import { canBuyPromotion, canStaffPromoteListing, canViewListing, isListingOwner } from "../contract/policies";
import {
  PROMOTION_MESSAGES,
  PROMOTION_PLAN,
  type BillingHistoryEntry,
  type PromotedListing,
  type PromotionState,
  type PromotionStatus,
} from "../contract/promotions";
import { audit } from "./audit";
import { notifyPromotionPaymentFailed } from "./notifications";
import {
  cancelStripeSubscriptionAtPeriodEnd,
  cancelStripeSubscriptionNow,
  createStripeCheckoutSession,
  readSubscriptionEvent,
  stripeConfigured,
  verifyWebhookEvent,
  type SubscriptionChange,
} from "./payments";
import { apiError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { log } from "../lib/log";
import { isoIn, isoNow } from "../lib/time";

const DAY_MS = 86_400_000;
const ADMIN_PROMOTION_DAYS = 7;

type PromotionSource = "stripe" | "admin";

/** The columns of a promotion that runs `days` from `now` (replacing any window it had). */
const promotionStarted = (days: number, source: PromotionSource, now: number) => ({
  promotionStart: isoNow(now),
  promotionEnd: isoIn(days * DAY_MS, now),
  promotionSource: source,
});

/** The columns of a listing whose promotion ended. */
const promotionEnded = () => ({ promotionStart: null, promotionEnd: null, promotionSource: null, autoRenew: false });

/** On approval: the promotion bought while the listing was pending starts now (columns to merge into the review update). */
export function startPendingPromotion(pendingDays: number | null, now: number) {
  return pendingDays ? { ...promotionStarted(pendingDays, "stripe", now), promotionPendingDays: null } : {};
}

/** Staff promote an approved listing for a week (a running promotion starts again from now). */
export async function promoteByStaff(db: Db, actor: string, id: string): Promise<{ promotion_end: string }> {
  const row = await findListing(db, id);
  if (!row) throw notFound("Listing not found");
  if (!canStaffPromoteListing({ verification_status: row.verificationStatus })) throw badRequest("Only approved listings can be promoted");
  const now = Date.now();
  const started = promotionStarted(ADMIN_PROMOTION_DAYS, "admin", now);
  await db.batch([
    updateListing(db, id, { ...started, autoRenew: false, updatedAt: isoNow(now) }),
    audit(db, actor, "listing_promote", "listings", id),
  ]);
  await purgeListingCache([id]);
  return { promotion_end: started.promotionEnd };
}

/** Staff end a listing's promotion and cancel one waiting for approval; false when there is no such listing. */
export async function unpromoteByStaff(db: Db, actor: string, id: string): Promise<boolean> {
  // A paid promotion is the owner's subscription: ending only the window would keep charging them.
  if ((await liveSubscriptionsOfListing(db, id)).length) {
    throw conflict("This promotion is paid by a subscription. Delete the listing (which cancels it) or cancel the subscription in Stripe.");
  }
  const [res] = await db.batch([
    updateListing(db, id, { ...promotionEnded(), promotionPendingDays: null, updatedAt: isoNow() }),
    audit(db, actor, "listing_unpromote", "listings", id),
  ]);
  await purgeListingCache([id]);
  return !!res.meta.changes;
}

/** Staff's cleanup: ends staff promotions whose window has passed. Returns how many ended. */
export async function endLapsedStaffPromotions(db: Db, actor: string): Promise<number> {
  const now = isoNow();
  const [res] = await db.batch([
    updateLapsedStaffPromotions(db, now, { ...promotionEnded(), updatedAt: now }),
    audit(db, actor, "cleanup_expired_promotions", "listings", null),
  ]);
  return res.meta.changes ?? 0;
}

/** The cron's statement (for its db.batch): lapsed promotions that will not renew end. */
export const endLapsedPromotions = (db: Db, nowIso: string) => updateLapsedPromotionsNotRenewing(db, nowIso, { ...promotionEnded(), updatedAt: nowIso });

/* ---------- paid promotion (Stripe) ---------- */

/**
 * Each Stripe subscription has a record (stripe_subscriptions) that webhook events only ever move
 * forward: the paid period grows, `checked_out` and `ended` never go back, and a subscription
 * update older than the one applied is ignored. The listing's promotion columns are derived from
 * that record here, so events give the same result in any order: a deletion that arrives before
 * the checkout's completion still ends in "ended".
 */
export type { SubscriptionRecord };

const isoAt = (ms: number) => new Date(ms).toISOString();
const laterIso = (a: string | null, b: string | null) => (!a ? b : !b ? a : a > b ? a : b);

/** Paid for (an invoice) or checked out, and not ended: the promotion runs (or waits for approval). */
const isLive = (r: SubscriptionRecord) => !r.ended && (r.checkedOut || !!r.currentPeriodEnd);
/** A renewal failed: its period reaches beyond what was paid. */
const isPastDue = (r: SubscriptionRecord) => !r.ended && !!r.failedPeriodEnd && (!r.currentPeriodEnd || r.failedPeriodEnd > r.currentPeriodEnd);
/** Blocks a second purchase: not ended, unless it was cancelled and its paid period is over. */
const blocksCheckout = (r: SubscriptionRecord, nowIso: string) => !r.ended && !(r.cancelAtPeriodEnd && r.currentPeriodEnd && r.currentPeriodEnd <= nowIso);

/** The record after one event's facts. */
function mergeSubscription(existing: SubscriptionRecord | undefined, change: SubscriptionChange, listing: ListingRecord, now: number): SubscriptionRecord {
  const base: SubscriptionRecord = existing ?? {
    id: change.subscriptionId,
    listingId: listing.id,
    userId: change.userId ?? listing.userId,
    status: "incomplete",
    currentPeriodEnd: null,
    failedPeriodEnd: null,
    cancelAtPeriodEnd: false,
    updatedEventAt: 0,
    checkedOut: false,
    ended: false,
    createdAt: isoNow(now),
  };
  const r = { ...base };
  if (change.periodEnd) r.currentPeriodEnd = laterIso(r.currentPeriodEnd, isoAt(change.periodEnd * 1000));
  if (change.paymentFailed) {
    const failedEnd = change.failedPeriodEnd
      ? isoAt(change.failedPeriodEnd * 1000)
      : isoAt(Math.max(now, r.currentPeriodEnd ? Date.parse(r.currentPeriodEnd) : 0) + PROMOTION_PLAN.days * DAY_MS);
    r.failedPeriodEnd = laterIso(r.failedPeriodEnd, failedEnd);
  }
  if (change.checkedOut) r.checkedOut = true;
  if (change.update && change.update.at >= r.updatedEventAt) {
    r.updatedEventAt = change.update.at;
    r.cancelAtPeriodEnd = change.update.cancelAtPeriodEnd;
    r.status = change.update.status;
  }
  if (change.ended) {
    r.ended = true;
    r.status = "canceled";
  }
  return r;
}

type ListingRecord = NonNullable<Awaited<ReturnType<typeof findListing>>>;

/** The listing's promotion columns that follow from its subscription record (null: leave them). */
function listingColumnsFor(r: SubscriptionRecord, listing: ListingRecord, now: number) {
  if (r.ended) {
    // Only the promotion this subscription paid for ends (not a newer one, not staff's).
    const ours =
      listing.stripeSubscriptionId === r.id ||
      (listing.stripeSubscriptionId === null && (listing.promotionSource === "stripe" || listing.promotionPendingDays !== null));
    return ours ? { ...promotionEnded(), stripeSubscriptionId: null, promotionPendingDays: null } : null;
  }
  if (!isLive(r)) return null;
  const renewing = !r.cancelAtPeriodEnd;
  // Spec: a renewing promotion carries its subscription id ('Promoted'); a cancelled one does not ('Cancelled').
  const subscription = { autoRenew: renewing, stripeSubscriptionId: renewing ? r.id : null };
  const paidEnd = r.currentPeriodEnd ? Date.parse(r.currentPeriodEnd) : null;
  if (listing.verificationStatus !== "approved") {
    // Bought while the listing awaits review: what was paid for waits and starts on approval.
    const days = Math.max(1, Math.ceil(((paidEnd ?? now + PROMOTION_PLAN.days * DAY_MS) - now) / DAY_MS));
    return { ...subscription, promotionPendingDays: days };
  }
  const running = listing.promotionSource === "stripe" && !!listing.promotionEnd && Date.parse(listing.promotionEnd) > now;
  // To the end of the period paid for (the record's period only moves forward); until an invoice
  // tells it, 7 days from the checkout.
  const end = paidEnd ?? (running ? Date.parse(listing.promotionEnd!) : now + PROMOTION_PLAN.days * DAY_MS);
  return {
    ...subscription,
    promotionStart: running && listing.promotionStart ? listing.promotionStart : isoNow(now),
    promotionEnd: isoAt(end),
    promotionSource: "stripe" as const,
    promotionPendingDays: null,
  };
}

export interface WebhookResult {
  applied: boolean;
  reason?: "duplicate" | "ignored" | "unknown_listing";
}

/**
 * Applies one verified Stripe event, once: the event id is inserted in the same batch as its
 * effect, so a second delivery (even a concurrent one) changes nothing.
 */
export async function applyStripeEvent(env: Env, config: Config, event: { id: string; type: string; created: number; data: { object: unknown } }): Promise<WebhookResult> {
  const db = createDb(env);
  if (await isEventApplied(db, event.id)) return { applied: false, reason: "duplicate" };
  const change = readSubscriptionEvent(event);
  const existing = change ? await findSubscription(db, change.subscriptionId) : undefined;
  const listingId = existing?.listingId ?? change?.listingId;
  const listing = listingId ? await findListing(db, listingId) : undefined;
  if (!change || !listing) {
    await insertStripeEvent(db, event.id, event.type).onConflictDoNothing();
    if (change) log.warn("stripe_event_unknown_listing", { event_id: event.id, type: event.type });
    return { applied: false, reason: change ? "unknown_listing" : "ignored" };
  }
  const now = Date.now();
  const record = mergeSubscription(existing, change, listing, now);
  const columns = listingColumnsFor(record, listing, now);
  const statements: BatchItem<"sqlite">[] = [insertStripeEvent(db, event.id, event.type), saveSubscription(db, record)];
  if (change.billing) statements.push(insertBillingRow(db, { ...change.billing, listingId: listing.id, subscriptionId: record.id }));
  if (columns) statements.push(updateListing(db, listing.id, { ...columns, updatedAt: isoNow(now) }));
  try {
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (err) {
    if (isUniqueViolation(err) && (await isEventApplied(db, event.id))) return { applied: false, reason: "duplicate" };
    throw err;
  }
  if (columns) await purgeListingCache([listing.id]);
  if (change.paymentFailed && isPastDue(record) && !(existing && isPastDue(existing) && existing.failedPeriodEnd === record.failedPeriodEnd)) {
    await notifyPromotionPaymentFailed(env, config, listing.userId, listing.title, listing.id);
  }
  return { applied: true };
}

/** The facts the rules read, from a listing row and its subscription record. */
interface PromotionFacts {
  verificationStatus: string;
  pendingDays: number | null;
  promotionStart: string | null;
  promotionEnd: string | null;
  autoRenew: boolean;
  subscriptionId: string | null;
}

const isRunning = (f: Pick<PromotionFacts, "promotionStart" | "promotionEnd">, now: number) =>
  !!f.promotionEnd && Date.parse(f.promotionEnd) > now && (!f.promotionStart || Date.parse(f.promotionStart) <= now);

/** Where a listing's promotion stands (contract PromotionState). */
export function promotionStateOf(f: PromotionFacts, subscription: SubscriptionRecord | undefined, now = Date.now()): PromotionState {
  if (f.pendingDays && f.verificationStatus !== "approved") return "awaiting_approval";
  if (subscription && isPastDue(subscription)) return "past_due";
  if (!isRunning(f, now)) return "none";
  return f.autoRenew && f.subscriptionId ? "promoted" : "cancelled";
}

function statusOf(listing: ListingRecord, subscription: SubscriptionRecord | undefined, now = Date.now()): PromotionStatus {
  const facts: PromotionFacts = {
    verificationStatus: listing.verificationStatus,
    pendingDays: listing.promotionPendingDays,
    promotionStart: listing.promotionStart,
    promotionEnd: listing.promotionEnd,
    autoRenew: listing.autoRenew,
    subscriptionId: listing.stripeSubscriptionId,
  };
  const promoted = isRunning(facts, now);
  return {
    promoted,
    promotion_start: listing.promotionStart,
    promotion_end: listing.promotionEnd,
    days_remaining: promoted ? Math.max(0, Math.ceil((Date.parse(listing.promotionEnd!) - now) / DAY_MS)) : 0,
    auto_renew: listing.autoRenew,
    state: promotionStateOf(facts, subscription, now),
  };
}

/** The owner's listing (404 to those who cannot see it, 403 to others who can). */
async function ownListing(db: Db, user: { id: string }, listingId: string): Promise<ListingRecord> {
  const listing = await findListing(db, listingId);
  const facts = listing && { user_id: listing.userId, verification_status: listing.verificationStatus, status: listing.status, moderation_status: listing.moderationStatus };
  if (!listing || !facts || !canViewListing(user, facts)) throw notFound("Listing not found");
  if (!isListingOwner(user, facts)) throw forbidden("Only the listing's owner can manage its promotion");
  return listing;
}

/** The listing's current subscription record: the live one, if any. */
async function currentSubscription(db: Db, listingId: string): Promise<SubscriptionRecord | undefined> {
  const live = await liveSubscriptionsOfListing(db, listingId);
  return live.sort((a, b) => (b.createdAt > a.createdAt ? 1 : -1))[0];
}

export async function promotionStatus(env: Env, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const db = createDb(env);
  const listing = await ownListing(db, user, listingId);
  return statusOf(listing, await currentSubscription(db, listing.id));
}

export async function billingHistory(env: Env, user: { id: string }, listingId: string): Promise<BillingHistoryEntry[]> {
  const db = createDb(env);
  const listing = await ownListing(db, user, listingId);
  const rows = await billingHistoryOfListing(db, listing.id);
  return rows.map((r) => ({
    id: r.id,
    amount: r.amount,
    currency: r.currency,
    period_start: r.periodStart,
    period_end: r.periodEnd,
    created: r.created,
    status: r.status,
  }));
}

/**
 * Starts a checkout for the owner's approved or pending listing: Stripe Checkout with keys; without
 * them (development only) the built-in test checkout.
 */
export async function startCheckout(env: Env, config: Config, user: { id: string }, listingId: string, origin: string) {
  const db = createDb(env);
  const listing = await ownListing(db, user, listingId);
  const facts = { user_id: listing.userId, verification_status: listing.verificationStatus, status: listing.status, moderation_status: listing.moderationStatus };
  if (!canBuyPromotion(user, facts)) {
    throw conflict(
      listing.moderationStatus !== "visible"
        ? "This listing was hidden by staff and cannot be promoted"
        : "Only approved listings, or listings waiting for review, can be promoted",
    );
  }
  const nowIso = isoNow();
  if ((await liveSubscriptionsOfListing(db, listing.id)).some((r) => blocksCheckout(r, nowIso))) {
    throw conflict("This listing already has an active promotion subscription");
  }
  const base = (config.publicBaseUrl || origin).replace(/\/+$/, "");
  const id = encodeURIComponent(listing.id);
  const successUrl = `${base}/profile?promotion_success=true&listing_id=${id}`;
  const cancelUrl = `${base}/promote?listing_id=${id}`;
  if (stripeConfigured(config.stripe)) {
    const session = await createStripeCheckoutSession(config.stripe, { listingId: listing.id, userId: user.id, listingTitle: listing.title, successUrl, cancelUrl });
    await insertCheckoutSession(db, { id: session.id, listingId: listing.id, userId: user.id, kind: "stripe", successUrl, cancelUrl });
    return { checkout_url: session.url, session_id: session.id };
  }
  if (!config.isDevelopment) throw apiError(503, { detail: PROMOTION_MESSAGES.checkoutFailed });
  // The test checkout is served by this worker: its return addresses are paths on the same origin
  // (whatever port the development server runs on; the CSP's form-action 'self' covers them).
  const sessionId = `cs_test_${newId(24)}`;
  await insertCheckoutSession(db, {
    id: sessionId,
    listingId: listing.id,
    userId: user.id,
    kind: "test",
    successUrl: successUrl.slice(base.length),
    cancelUrl: cancelUrl.slice(base.length),
  });
  return { checkout_url: `/dev/checkout/${sessionId}`, session_id: sessionId };
}

/**
 * The owner stops renewal: the promotion runs to promotion_end and then ends (cron or Stripe's
 * deletion). With keys Stripe is told first; the same change is applied here at once.
 */
export async function cancelPromotion(env: Env, config: Config, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const db = createDb(env);
  const listing = await ownListing(db, user, listingId);
  const subscription = await currentSubscription(db, listing.id);
  if (!subscription) throw conflict("This listing has no promotion subscription to cancel");
  if (!subscription.cancelAtPeriodEnd) {
    if (stripeConfigured(config.stripe)) await cancelStripeSubscriptionAtPeriodEnd(config.stripe, subscription.id);
    const now = Date.now();
    const record: SubscriptionRecord = { ...subscription, cancelAtPeriodEnd: true, updatedEventAt: Math.max(subscription.updatedEventAt, Math.floor(now / 1000)) };
    const columns = listingColumnsFor(record, listing, now);
    const statements: BatchItem<"sqlite">[] = [saveSubscription(db, record)];
    if (columns) statements.push(updateListing(db, listing.id, { ...columns, updatedAt: isoNow(now) }));
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    if (columns) await purgeListingCache([listing.id]);
  }
  const fresh = (await findListing(db, listing.id))!;
  return statusOf(fresh, await currentSubscription(db, listing.id));
}

/** GET users/promoted-listings: the user's listings that are or were promoted (or wait for approval), with their state. */
export async function promotedListingsWithState(env: Env, userId: string): Promise<PromotedListing[]> {
  const db = createDb(env);
  const [listings, subscriptions, pending] = await Promise.all([
    promotedListingsOfUser(env.DB, userId),
    liveSubscriptionsOfUser(db, userId),
    pendingPromotionsOfUser(db, userId),
  ]);
  const subOf = new Map(subscriptions.map((s) => [s.listingId, s]));
  const pendingOf = new Map(pending.map((p) => [p.id, p.promotionPendingDays]));
  const now = Date.now();
  return listings.map((l) => ({
    ...l,
    promotion_state: promotionStateOf(
      {
        verificationStatus: l.verification_status,
        pendingDays: pendingOf.get(l.id) ?? null,
        promotionStart: l.promotion_start,
        promotionEnd: l.promotion_end,
        autoRenew: l.auto_renew,
        subscriptionId: l.stripe_subscription_id,
      },
      subOf.get(l.id),
      now,
    ),
  }));
}

/** The cron's statement: cancelled subscriptions whose paid period is over are ended (Stripe's deletion may follow; it changes nothing then). */
export const endLapsedCancelledSubscriptions = (db: Db, nowIso: string) => markLapsedCancelledSubscriptionsEnded(db, nowIso);

/**
 * The webhook's entry: verifies the Stripe-Signature of the raw body (tolerance 300 s) and applies
 * the event. A bad or stale signature is a 400 and changes nothing.
 */
export async function receiveWebhook(env: Env, config: Config, rawBody: string, signature: string | undefined): Promise<WebhookResult> {
  if (!signature || !config.stripe.webhookSecret) throw badRequest("Invalid signature");
  let event: Awaited<ReturnType<typeof verifyWebhookEvent>>;
  try {
    event = await verifyWebhookEvent(config.stripe, rawBody, signature);
  } catch {
    throw badRequest("Invalid signature");
  }
  return applyStripeEvent(env, config, event as unknown as Parameters<typeof applyStripeEvent>[2]);
}

/**
 * Before a listing (or a whole account) is deleted: its live subscriptions are cancelled at Stripe
 * now, so nobody keeps paying for a listing that is gone. Without keys there is nothing to tell.
 * A Stripe failure stops the deletion (502): retrying is better than charging on.
 */
export async function stopSubscriptionsBeforeDelete(env: Env, scope: { listingId: string } | { userId: string }): Promise<void> {
  const config = getConfig(env);
  if (!stripeConfigured(config.stripe)) return;
  const db = createDb(env);
  const live = "listingId" in scope ? await liveSubscriptionsOfListing(db, scope.listingId) : await liveSubscriptionsOfUser(db, scope.userId);
  for (const subscription of live) {
    try {
      await cancelStripeSubscriptionNow(config.stripe, subscription.id);
    } catch (err) {
      log.error("stripe_cancel_failed", { subscription_id: subscription.id, message: err instanceof Error ? err.message : "unknown" });
      throw apiError(502, { detail: "Could not cancel the promotion subscription. Please try again." });
    }
  }
}

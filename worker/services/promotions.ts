/**
 * The only code that starts, extends or ends a promotion. A promotion is a window
 * (promotion_start..promotion_end) with a source (stripe | admin) and an auto_renew flag; one
 * bought while the listing awaited review waits in promotion_pending_days and starts on approval.
 *
 * Ending a promotion clears the window, its source and auto_renew, everywhere (staff, cleanup,
 * cron). A purchase still waiting for approval is not a running promotion: only staff's unpromote
 * cancels it too.
 */
import { getConfig, type Config } from "../env";
import type { Db } from "../db/client";
import { purgeListingCache } from "./edge-cache";
import { findListing, promotedListingsOfUser, updateLapsedPromotionsNotRenewing, updateLapsedStaffPromotions, updateListing } from "../db/queries/listings";
import {
  billingHistoryOfListing,
  checkoutSessionsStartedSince,
  closeCheckoutSessions,
  deleteIfPromotionVersion,
  findCheckoutSession,
  findCheckoutSessionByKey,
  findSubscription,
  forgetStaleCheckoutKey,
  insertBillingRowIf,
  insertCheckoutSessionIf,
  insertStripeEvent,
  insertStripeEventIf,
  isEventApplied,
  liveSubscriptionsOfListing,
  liveSubscriptionsOfUser,
  markCheckoutSessionCompletedIf,
  markSubscriptionRefused,
  markLapsedCancelledSubscriptionsEnded,
  nextPromotionVersion,
  openCheckoutSessionOfListing,
  openCheckoutSessionsOf,
  pendingPromotionStarts,
  pendingPromotionsOfUser,
  promotionBatch,
  promotionVersionOf,
  saveSubscriptionIf,
  suspendedUsersWithLiveSubscriptions,
  updateListingPromotionIf,
  updateListingPromotionNow,
  type GuardedStatement,
  type CheckoutSessionRow,
  type SubscriptionRecord,
} from "../db/queries/promotions";
import { canViewListing, isListingOwner } from "../contract/policies";
import { canBuyPromotion, canStaffPromoteListing, isPromotedNow } from "../contract/owner-rules";
import {
  PROMOTION_MESSAGES,
  PROMOTION_PLAN,
  type BillingHistoryEntry,
  type PromotedListing,
  type PromotionState,
  type PromotionStatus,
} from "../contract/promotions";
import { insertAudit } from "../db/queries/audit";
import { notify } from "./notify";
import {
  cancelAndRefundSubscription,
  cancelStripeSubscriptionAtPeriodEnd,
  cancelStripeSubscriptionNow,
  createStripeCheckoutSession,
  eventEnvelope,
  expireStripeCheckoutSession,
  MalformedEventError,
  readSubscriptionEvent,
  refundStripeInvoice,
  stripeConfigured,
  verifyWebhookEvent,
  type StripeEventEnvelope,
  type SubscriptionChange,
} from "./payments";
import { apiError, badRequest, conflict, forbidden, isUniqueViolation, notFound, tooManyRequests } from "../lib/errors";
import { IDEMPOTENCY_WINDOW_MS } from "../lib/idempotency";
import { newId } from "../lib/ids";
import { log } from "../lib/log";
import { isoIn, isoNow } from "../lib/time";

const DAY_MS = 86_400_000;
const ADMIN_PROMOTION_DAYS = 7;
/**
 * A promotion write that lost its compare-and-set re-reads and tries again this many times; then
 * 503 (Stripe retries the event later; the owner's click can be repeated). Decision 013.
 */
const MAX_ATTEMPTS = 8;
/** A checkout session can be paid for an hour (Stripe accepts 30 minutes to 24 hours). */
const CHECKOUT_SESSION_MS = 3_600_000;
/** An open session is answered again only if the owner still has this long to pay. */
const CHECKOUT_REUSE_MARGIN_MS = 10 * 60_000;
/** New checkout sessions a user may start a minute (each one is a call to Stripe). */
export const CHECKOUT_SESSIONS_PER_MINUTE = 10;

const busy = () => apiError(503, { detail: "The promotion is being updated by another request. Please try again." });

/**
 * Writes of the promotion columns that do not read them first (staff, approval, the cron) still move
 * the version on, so a guarded write based on a read from before them retries. (drizzle writes an
 * SQL value as it is; the insert type only knows numbers.)
 */
const bumpVersion = { promotionVersion: nextPromotionVersion as unknown as number };

type PromotionSource = "stripe" | "admin";

/** The columns of a promotion that runs `days` from `now` (replacing any window it had). */
const promotionStarted = (days: number, source: PromotionSource, now: number) => ({
  promotionStart: isoNow(now),
  promotionEnd: isoIn(days * DAY_MS, now),
  promotionSource: source,
});

/** The columns of a listing whose promotion ended. */
const promotionEnded = () => ({ promotionStart: null, promotionEnd: null, promotionSource: null, autoRenew: false });

/**
 * On approval: the promotion bought while the listing was pending starts now (columns to merge into
 * the review update; db/queries/promotions pendingPromotionStarts, also used by "approve all").
 * (`_pendingDaysRead` is kept for the caller's signature.)
 */
export function startPendingPromotion(_pendingDaysRead: number | null, now: number) {
  return pendingPromotionStarts(isoNow(now));
}

/** Staff promote an approved listing for a week (a running promotion starts again from now). */
export async function promoteByStaff(db: Db, actor: string, id: string): Promise<{ promotion_end: string }> {
  const row = await findListing(db, id);
  if (!row) throw notFound("Listing not found");
  if (!canStaffPromoteListing({ verification_status: row.verificationStatus })) throw badRequest("Only approved listings can be promoted");
  const now = Date.now();
  const started = promotionStarted(ADMIN_PROMOTION_DAYS, "admin", now);
  await db.batch([
    updateListing(db, id, { ...started, autoRenew: false, ...bumpVersion, updatedAt: isoNow(now) }),
    insertAudit(db, actor, "listing_promote", "listings", id),
  ]);
  await purgeListingCache([id]);
  return { promotion_end: started.promotionEnd };
}

/** Staff end a listing's promotion and cancel one waiting for approval; false when there is no such listing. */
export async function unpromoteByStaff(db: Db, actor: string, id: string): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const listing = await findListing(db, id);
    if (!listing) return false;
    // A paid promotion is the owner's subscription: ending only the window would keep charging them.
    if ((await liveSubscriptionsOfListing(db, id)).length) {
      throw conflict("This promotion is paid by a subscription. Delete the listing (which cancels it) or cancel the subscription in Stripe.");
    }
    // Guarded: a checkout completed since the check above makes this retry (and then refuse).
    const res = await updateListingPromotionNow(db, id, listing.promotionVersion, { ...promotionEnded(), promotionPendingDays: null, updatedAt: isoNow() });
    if (!res.meta.changes) continue;
    await insertAudit(db, actor, "listing_unpromote", "listings", id);
    await purgeListingCache([id]);
    return true;
  }
  throw busy();
}

/** Staff's cleanup: ends staff promotions whose window has passed. Returns how many ended. */
export async function endLapsedStaffPromotions(db: Db, actor: string): Promise<number> {
  const now = isoNow();
  const [res] = await db.batch([
    updateLapsedStaffPromotions(db, now, { ...promotionEnded(), ...bumpVersion, updatedAt: now }),
    insertAudit(db, actor, "cleanup_expired_promotions", "listings", null),
  ]);
  return res.meta.changes ?? 0;
}

/** The cron's statement (for its db.batch): lapsed promotions that will not renew end. */
export const endLapsedPromotions = (db: Db, nowIso: string) => updateLapsedPromotionsNotRenewing(db, nowIso, { ...promotionEnded(), ...bumpVersion, updatedAt: nowIso });

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
/** The subscription the listing's promotion belongs to: live, and not a cancelled one whose paid period is over. */
const holdsListing = (r: SubscriptionRecord, nowIso: string) => isLive(r) && !(r.cancelAtPeriodEnd && r.currentPeriodEnd && r.currentPeriodEnd <= nowIso);
/** Blocks a second purchase: holds the listing, or its delayed payment is on its way. */
const blocksCheckout = (r: SubscriptionRecord, nowIso: string) => !r.ended && (holdsListing(r, nowIso) || r.awaitingPayment);

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
    awaitingPayment: false,
    ended: false,
    duplicate: false,
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
  // Waiting for a delayed payment only until it is paid (checked out, or an invoice paid).
  if (change.awaitingPayment && !r.checkedOut) r.awaitingPayment = true;
  if (r.checkedOut || r.currentPeriodEnd) r.awaitingPayment = false;
  if (change.update && change.update.at >= r.updatedEventAt) {
    r.updatedEventAt = change.update.at;
    r.cancelAtPeriodEnd = change.update.cancelAtPeriodEnd;
    r.status = change.update.status;
  }
  if (change.ended) {
    r.ended = true;
    r.status = "canceled";
  }
  if (r.ended) r.awaitingPayment = false;
  return r;
}

type ListingRecord = NonNullable<Awaited<ReturnType<typeof findListing>>>;

/**
 * The listing's promotion columns that follow from its subscription record (null: leave them).
 * `othersLive`: another subscription of the listing has not ended (then an ended one only clears
 * what names it).
 */
function listingColumnsFor(r: SubscriptionRecord, listing: ListingRecord, now: number, othersLive = false) {
  if (r.duplicate) return null;
  if (r.ended) {
    // Only the promotion this subscription paid for ends (not a newer one, not staff's).
    const wasLive = r.checkedOut || !!r.currentPeriodEnd;
    const ours =
      listing.stripeSubscriptionId === r.id ||
      (wasLive && !othersLive && listing.stripeSubscriptionId === null && (listing.promotionSource === "stripe" || listing.promotionPendingDays !== null));
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
/** Whether a guarded batch applied: its last statement (the listing's version) changed a row. */
const applied = (results: D1Result[]) => !!results[results.length - 1]!.meta.changes;

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
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await isEventApplied(db, event.id)) return { applied: false, reason: "duplicate" };
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
      await insertStripeEvent(db, event.id, event.type).onConflictDoNothing();
      if (change) log.warn("stripe_event_unknown_listing", { event_id: event.id, type: event.type });
      return { applied: false, reason: change ? "unknown_listing" : "ignored" };
    }
    const version = listing.promotionVersion;
    const existing = await findSubscription(db, change.subscriptionId);
    if (existing && existing.listingId !== listing.id) continue;
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
    const statements: Statement[] = [insertStripeEventIf(db, event.id, event.type, listing.id, version), saveSubscriptionIf(db, record, version)];
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
      if (isUniqueViolation(err) && (await isEventApplied(db, event.id))) return { applied: false, reason: "duplicate" };
      throw err;
    }
    if (!applied(results)) continue;
    if (columns) await purgeListingCache([listing.id]);
    if (change.paymentFailed && isPastDue(record) && !(existing && isPastDue(existing) && existing.failedPeriodEnd === record.failedPeriodEnd)) {
      await notify({ db, env, config }, { userId: listing.userId }, { kind: "promotion_payment_failed", listingId: listing.id, title: listing.title });
    }
    return { applied: true };
  }
  throw busy();
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

/** Where a listing's promotion stands (contract PromotionState). */
export function promotionStateOf(f: PromotionFacts, subscription: SubscriptionRecord | undefined, now = Date.now()): PromotionState {
  if (f.pendingDays && f.verificationStatus !== "approved") return "awaiting_approval";
  if (subscription && isPastDue(subscription)) return "past_due";
  if (!isPromotedNow(f.promotionStart, f.promotionEnd, now)) return "none";
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
  const promoted = isPromotedNow(facts.promotionStart, facts.promotionEnd, now);
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

const newest = (records: SubscriptionRecord[]) => [...records].sort((a, b) => (b.createdAt > a.createdAt ? 1 : -1))[0];

/** The listing's current subscription record: the live one, if any. */
async function currentSubscription(db: Db, listingId: string): Promise<SubscriptionRecord | undefined> {
  return newest(await liveSubscriptionsOfListing(db, listingId));
}

export async function promotionStatus(db: Db, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const listing = await ownListing(db, user, listingId);
  return statusOf(listing, await currentSubscription(db, listing.id));
}

export async function billingHistory(db: Db, user: { id: string }, listingId: string): Promise<BillingHistoryEntry[]> {
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

const sessionAnswer = (session: Pick<CheckoutSessionRow, "id" | "url">) => ({ checkout_url: session.url ?? `/dev/checkout/${session.id}`, session_id: session.id });

/**
 * Starts a checkout for the owner's approved or pending listing: Stripe Checkout with keys; without
 * them (development only) the built-in test checkout.
 *
 * One live subscription per listing: a listing that holds a subscription (or waits for a delayed
 * payment) is refused (409); one with a session that can still be paid answers that session again
 * (two tabs, Back, a double click). The session row is written under the listing's promotion_version,
 * so two requests at once make one session (the loser's Stripe session is expired, and it answers
 * the winner's). The same Idempotency-Key from the same user within 24 hours answers the first
 * session. A user starts at most CHECKOUT_SESSIONS_PER_MINUTE new sessions a minute.
 */
export async function startCheckout(db: Db, config: Config, user: { id: string }, listingId: string, origin: string, idempotencyKey: string | null = null) {
  const windowStart = isoNow(Date.now() - IDEMPOTENCY_WINDOW_MS);
  const answerForKey = async () => {
    if (!idempotencyKey) return null;
    const first = await findCheckoutSessionByKey(db, user.id, idempotencyKey, windowStart);
    if (!first) return null;
    if (first.listingId !== listingId) throw conflict("This Idempotency-Key was already used for another listing's checkout");
    return sessionAnswer(first);
  };
  const replay = await answerForKey();
  if (replay) return replay;
  let listing = await ownListing(db, user, listingId);
  const facts = { user_id: listing.userId, verification_status: listing.verificationStatus, status: listing.status, moderation_status: listing.moderationStatus };
  if (!canBuyPromotion(user, facts)) {
    throw conflict(
      listing.moderationStatus !== "visible"
        ? "This listing was hidden by staff and cannot be promoted"
        : "Only approved listings, or listings waiting for review, can be promoted",
    );
  }
  if (idempotencyKey) await forgetStaleCheckoutKey(db, user.id, idempotencyKey, windowStart).run();
  const base = (config.publicBaseUrl || origin).replace(/\/+$/, "");
  const id = encodeURIComponent(listing.id);
  const successUrl = `${base}/profile?promotion_success=true&listing_id=${id}`;
  const cancelUrl = `${base}/promote?listing_id=${id}`;
  const useStripe = stripeConfigured(config.stripe);
  if (!useStripe && !config.isDevelopment) throw apiError(503, { detail: PROMOTION_MESSAGES.checkoutFailed });

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      const again = await answerForKey();
      if (again) return again;
      listing = (await findListing(db, listing.id)) ?? listing;
    }
    const version = listing.promotionVersion;
    const now = Date.now();
    const nowIso = isoNow(now);
    if ((await liveSubscriptionsOfListing(db, listing.id)).some((r) => blocksCheckout(r, nowIso))) {
      throw conflict("This listing already has an active promotion subscription");
    }
    const open = await openCheckoutSessionOfListing(db, listing.id, isoNow(now + CHECKOUT_REUSE_MARGIN_MS));
    if (open && open.kind === (useStripe ? "stripe" : "test")) return sessionAnswer(open);

    const started = await checkoutSessionsStartedSince(db, user.id, isoNow(now - 60_000));
    if (started && started.n >= CHECKOUT_SESSIONS_PER_MINUTE) {
      const retryAfter = started.oldest ? Math.max(1, Math.ceil((Date.parse(started.oldest) + 60_000 - now) / 1000)) : 60;
      throw tooManyRequests(retryAfter, "Too many checkout attempts. Please wait a minute and try again.");
    }
    const expiresAt = now + CHECKOUT_SESSION_MS;
    let session: { id: string; url: string; kind: "stripe" | "test"; successUrl: string; cancelUrl: string };
    if (useStripe) {
      const created = await createStripeCheckoutSession(config.stripe, {
        listingId: listing.id,
        userId: user.id,
        listingTitle: listing.title,
        successUrl,
        cancelUrl,
        expiresAt: Math.floor(expiresAt / 1000),
        // No Stripe idempotency key of ours: its parameters (expires_at) differ on every try, so Stripe
        // would refuse a reused key. Duplicates are prevented by the (user, key) unique index instead.
      });
      session = { ...created, kind: "stripe", successUrl, cancelUrl };
    } else {
      // The test checkout is served by this worker: its return addresses are paths on the same origin
      // (whatever port the development server runs on; the CSP's form-action 'self' covers them).
      const sessionId = `cs_test_${newId(24)}`;
      session = { id: sessionId, url: `/dev/checkout/${sessionId}`, kind: "test", successUrl: successUrl.slice(base.length), cancelUrl: cancelUrl.slice(base.length) };
    }
    let won = false;
    try {
      won = applied(
        await promotionBatch(db, [
          insertCheckoutSessionIf(db, { ...session, listingId: listing.id, userId: user.id, expiresAt: isoNow(expiresAt), idempotencyKey, createdAt: nowIso }, version),
          updateListingPromotionIf(db, listing.id, version, {}),
        ]),
      );
    } catch (err) {
      // The same key at once from another request: answer the session it made (next attempt).
      if (!isUniqueViolation(err)) throw err;
    }
    if (won) return sessionAnswer(session);
    // Another write came first (most likely the same owner's other request): nobody should pay this
    // one, unless it is the session that request stored and answered.
    if (useStripe && !(await findCheckoutSession(db, session.id))) {
      await expireStripeCheckoutSession(config.stripe, session.id).catch((err) =>
        log.warn("stripe_expire_failed", { session_id: session.id, message: err instanceof Error ? err.message : "unknown" }),
      );
    }
  }
  throw busy();
}

/** Moves a listing's live subscription records and promotion columns under the compare-and-set, retrying a lost race. */
async function changeSubscriptionsOfListing(
  db: Db,
  listingId: string,
  change: (live: SubscriptionRecord[], listing: ListingRecord, now: number) => { records: SubscriptionRecord[]; columns: ReturnType<typeof listingColumnsFor> } | null,
): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const listing = await findListing(db, listingId);
    if (!listing) return false;
    const now = Date.now();
    const next = change(await liveSubscriptionsOfListing(db, listingId), listing, now);
    if (!next) return false;
    const statements: Statement[] = next.records.map((r) => saveSubscriptionIf(db, r, listing.promotionVersion));
    statements.push(updateListingPromotionIf(db, listingId, listing.promotionVersion, next.columns ? { ...next.columns, updatedAt: isoNow(now) } : {}));
    if (!applied(await promotionBatch(db, statements))) continue;
    if (next.columns) await purgeListingCache([listingId]);
    return true;
  }
  throw busy();
}

/**
 * The owner stops renewal of every live subscription of the listing (normally one): the promotion
 * runs to promotion_end and then ends (cron or Stripe's deletion). With keys Stripe is told first; the
 * same change is applied here at once, under the compare-and-set.
 */
export async function cancelPromotion(db: Db, config: Config, user: { id: string }, listingId: string): Promise<PromotionStatus> {
  const listing = await ownListing(db, user, listingId);
  const live = await liveSubscriptionsOfListing(db, listing.id);
  if (!live.length) throw conflict("This listing has no promotion subscription to cancel");
  // Only these are marked cancelled here: one recorded after this read was not told to Stripe.
  const toldStripe = new Set(live.filter((r) => !r.cancelAtPeriodEnd).map((r) => r.id));
  if (stripeConfigured(config.stripe)) {
    for (const id of toldStripe) await cancelStripeSubscriptionAtPeriodEnd(config.stripe, id);
  }
  await changeSubscriptionsOfListing(db, listing.id, (current, row, now) => {
    const toCancel = current.filter((r) => !r.cancelAtPeriodEnd && toldStripe.has(r.id));
    if (!toCancel.length) return null;
    const at = Math.floor(now / 1000);
    const records = toCancel.map((r) => ({ ...r, cancelAtPeriodEnd: true, updatedEventAt: Math.max(r.updatedEventAt, at) }));
    const holder = newest(current.map((r) => records.find((c) => c.id === r.id) ?? r));
    return { records, columns: holder ? listingColumnsFor(holder, row, now) : null };
  });
  const fresh = (await findListing(db, listing.id))!;
  return statusOf(fresh, await currentSubscription(db, listing.id));
}

/** GET users/promoted-listings: the user's listings that are or were promoted (or wait for approval), with their state. */
export async function promotedListingsWithState(db: Db, userId: string): Promise<PromotedListing[]> {
  const [listings, subscriptions, pending] = await Promise.all([
    promotedListingsOfUser(db, userId),
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
 * the event. A bad or stale signature, or a signed payload that is not an event of the expected shape,
 * is a 400 and changes nothing (the event is not recorded as applied).
 */
export async function receiveWebhook(db: Db, env: Env, config: Config, rawBody: string, signature: string | undefined): Promise<WebhookResult> {
  if (!signature || !config.stripe.webhookSecret) throw badRequest("Invalid signature");
  let payload: unknown;
  try {
    payload = await verifyWebhookEvent(config.stripe, rawBody, signature);
  } catch {
    throw badRequest("Invalid signature");
  }
  const event = eventEnvelope(payload);
  if (!event) throw badRequest("Malformed event: expected an object with id, type, created and data.object");
  return applyStripeEvent(db, env, config, event);
}

/**
 * Before a listing (or a whole account) is deleted, and when an account is suspended: its live
 * subscriptions (every one, not only the newest) are cancelled at Stripe now, so nobody keeps paying
 * for a listing that is gone or that nobody can see, and are ended here at once (the listing's paid
 * promotion with them); open checkout sessions are expired. Without keys there is nothing to tell
 * Stripe. A Stripe failure stops a deletion (502): retrying is better than charging on. A suspension
 * calls this after its takedown and does not wait for Stripe: the cron retries
 * (stopSubscriptionsOfSuspendedUsers).
 */
export async function stopSubscriptionsBeforeDelete(db: Db, env: Env, scope: { listingId: string } | { userId: string }): Promise<void> {
  const config = getConfig(env);
  // Checkouts still open (a tab left open) are closed first. Best effort: a session paid anyway is
  // cancelled and refunded when its events arrive (applyStripeEvent).
  const open = await openCheckoutSessionsOf(db, scope, isoNow());
  if (open.length) {
    for (const session of open) {
      if (session.kind !== "stripe" || !stripeConfigured(config.stripe)) continue;
      await expireStripeCheckoutSession(config.stripe, session.id).catch((err) =>
        log.warn("stripe_expire_failed", { session_id: session.id, message: err instanceof Error ? err.message : "unknown" }),
      );
    }
    await closeCheckoutSessions(db, open.map((s) => s.id), isoNow()).run();
  }
  const live = "listingId" in scope ? await liveSubscriptionsOfListing(db, scope.listingId) : await liveSubscriptionsOfUser(db, scope.userId);
  if (stripeConfigured(config.stripe)) {
    for (const subscription of live) {
      try {
        await cancelStripeSubscriptionNow(config.stripe, subscription.id);
      } catch (err) {
        log.error("stripe_cancel_failed", { subscription_id: subscription.id, message: err instanceof Error ? err.message : "unknown" });
        throw apiError(502, { detail: "Could not cancel the promotion subscription. Please try again." });
      }
    }
  }
  const stopped = new Set(live.map((r) => r.id));
  for (const listingId of new Set(live.map((r) => r.listingId))) {
    await changeSubscriptionsOfListing(db, listingId, (current, row, now) => {
      const ending = current.filter((r) => stopped.has(r.id)).map((r) => ({ ...r, ended: true, status: "canceled" }));
      if (!ending.length) return null;
      const othersLive = current.some((r) => !stopped.has(r.id));
      const columns = ending.map((r) => listingColumnsFor(r, row, now, othersLive)).find((c) => c) ?? null;
      return { records: ending, columns };
    });
  }
}

/**
 * The cron's retry of a suspension's last step: suspended users whose subscriptions could not be
 * cancelled then (Stripe down) are stopped now. The number of users stopped.
 */
export async function stopSubscriptionsOfSuspendedUsers(db: Db, env: Env): Promise<number> {
  let stopped = 0;
  for (const { userId } of await suspendedUsersWithLiveSubscriptions(db)) {
    try {
      await stopSubscriptionsBeforeDelete(db, env, { userId });
      stopped++;
    } catch (err) {
      log.error("suspended_subscriptions_stop_failed", { message: err instanceof Error ? err.message : "unknown" });
    }
  }
  return stopped;
}

/**
 * Deletes a listing or an account with no subscription left live: every live one is stopped first
 * (stopSubscriptionsBeforeDelete), then the row is deleted only if no Stripe event made one live in
 * between (the promotion version it read); otherwise it stops again. An event that read the row before
 * the delete finds it gone and cancels at Stripe itself (applyStripeEvent). False: nothing to delete.
 */
export async function deleteAfterStoppingSubscriptions(db: Db, env: Env, scope: { listingId: string } | { userId: string }): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    await stopSubscriptionsBeforeDelete(db, env, scope);
    const version = await promotionVersionOf(db, scope);
    if (version === null) return false;
    const live = "listingId" in scope ? await liveSubscriptionsOfListing(db, scope.listingId) : await liveSubscriptionsOfUser(db, scope.userId);
    if (live.length) continue;
    if ((await deleteIfPromotionVersion(db, scope, version)).meta.changes) return true;
  }
  throw busy();
}

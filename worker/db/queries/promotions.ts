/** Paid promotion's tables: Stripe subscriptions, applied webhook events, billing history, checkout sessions. */
import { and, desc, eq, isNotNull, lte } from "drizzle-orm";
import type { Db } from "../client";
import { billingHistory, checkoutSessions, listings, stripeEvents, stripeSubscriptions } from "../schema";

export type SubscriptionRecord = typeof stripeSubscriptions.$inferSelect;
export type BillingRow = typeof billingHistory.$inferInsert;
export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

export const findSubscription = (db: Db, id: string) => db.select().from(stripeSubscriptions).where(eq(stripeSubscriptions.id, id)).get();

/** The listing's subscriptions that have not ended (normally at most one). */
export const liveSubscriptionsOfListing = (db: Db, listingId: string) =>
  db
    .select()
    .from(stripeSubscriptions)
    .where(and(eq(stripeSubscriptions.listingId, listingId), eq(stripeSubscriptions.ended, false)))
    .all();

/** Writes the whole record (insert or replace its fields). */
export const saveSubscription = (db: Db, record: SubscriptionRecord) => {
  const { id, createdAt: _createdAt, ...rest } = record;
  return db
    .insert(stripeSubscriptions)
    .values({ ...rest, id })
    .onConflictDoUpdate({ target: stripeSubscriptions.id, set: rest });
};

/** Plain insert: a second delivery of the same event fails on the primary key (and its batch with it). */
export const insertStripeEvent = (db: Db, id: string, type: string) => db.insert(stripeEvents).values({ id, type });

export const isEventApplied = async (db: Db, id: string) =>
  !!(await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).get());

export const insertBillingRow = (db: Db, row: BillingRow) => db.insert(billingHistory).values(row).onConflictDoNothing();

export const billingHistoryOfListing = (db: Db, listingId: string) =>
  db.select().from(billingHistory).where(eq(billingHistory.listingId, listingId)).orderBy(desc(billingHistory.created)).limit(200).all();

export const insertCheckoutSession = (db: Db, row: typeof checkoutSessions.$inferInsert) => db.insert(checkoutSessions).values(row);

export const findCheckoutSession = (db: Db, id: string) => db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).get();

export const markCheckoutSessionCompleted = (db: Db, id: string, at: string) =>
  db.update(checkoutSessions).set({ completedAt: at }).where(eq(checkoutSessions.id, id));

/** A user's subscriptions that have not ended. */
export const liveSubscriptionsOfUser = (db: Db, userId: string) =>
  db
    .select()
    .from(stripeSubscriptions)
    .where(and(eq(stripeSubscriptions.userId, userId), eq(stripeSubscriptions.ended, false)))
    .all();

/** A user's listings holding a promotion bought while pending review. */
export const pendingPromotionsOfUser = (db: Db, userId: string) =>
  db
    .select({ id: listings.id, promotionPendingDays: listings.promotionPendingDays })
    .from(listings)
    .where(and(eq(listings.userId, userId), isNotNull(listings.promotionPendingDays)))
    .all();

/** Cancelled subscriptions whose paid period has passed are ended. */
export const markLapsedCancelledSubscriptionsEnded = (db: Db, nowIso: string) =>
  db
    .update(stripeSubscriptions)
    .set({ ended: true, status: "canceled" })
    .where(
      and(
        eq(stripeSubscriptions.ended, false),
        eq(stripeSubscriptions.cancelAtPeriodEnd, true),
        isNotNull(stripeSubscriptions.currentPeriodEnd),
        lte(stripeSubscriptions.currentPeriodEnd, nowIso),
      ),
    );

/** Paid promotion's tables: Stripe subscriptions, applied webhook events, billing history, checkout sessions. */
import { and, desc, eq, gt, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import { inValues } from "../bounded";
import type { Db } from "../client";
import { billingHistory, checkoutSessions, deletedPromotedListings, listings, stripeSubscriptions, users } from "../schema";

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

/* ---------- compare-and-set on the listing's promotion_version (decision 013) ---------- */

/**
 * A guarded batch's statements are D1 statements (drizzle 0.45 cannot batch raw SQL with parameters);
 * `promotionBatch` runs them as one D1 batch, that is one transaction.
 */
export type GuardedStatement = D1PreparedStatement;

const d1 = (db: Db) => db.$client;
const raw = (db: Db, query: string, ...params: unknown[]) => d1(db).prepare(query).bind(...params);
const fromDrizzle = (db: Db, query: { toSQL(): { sql: string; params: unknown[] } }) => {
  const { sql: text, params } = query.toSQL();
  return raw(db, text, ...params);
};

/** Runs a guarded batch; its results in order (the last one's `changes` says whether it applied). */
export const promotionBatch = (db: Db, statements: GuardedStatement[]) => d1(db).batch(statements);

/**
 * True while the listing's promotion_version still is the one the caller read. Every statement of a
 * guarded batch carries it and the batch's LAST statement moves the version on (updateListingPromotionIf),
 * so inside the batch's transaction either every statement applies or none does.
 */
export const VERSION_IS = "EXISTS (SELECT 1 FROM listings WHERE id = ? AND promotion_version = ?)";

/** For writes that do not read first (staff, approval, the cron): any guarded batch based on an older read then retries. */
export const nextPromotionVersion = sql`promotion_version + 1`;

/**
 * An approval's promotion columns: a promotion bought while the listing was pending starts at `nowIso`
 * for its promotion_pending_days. Evaluated by the UPDATE on each row (not from an earlier read), and
 * the version moves on, so an event applied from a read of "pending" retries on the approved listing.
 * (drizzle writes an SQL value as it is; the insert type only knows plain values.)
 */
export function pendingPromotionStarts(nowIso: string) {
  const pending = sql`promotion_pending_days IS NOT NULL`;
  const asText = (v: SQL) => v as unknown as string;
  return {
    promotionStart: asText(sql`CASE WHEN ${pending} THEN ${nowIso} ELSE promotion_start END`),
    promotionEnd: asText(sql`CASE WHEN ${pending} THEN strftime('%Y-%m-%dT%H:%M:%fZ', ${nowIso}, '+' || promotion_pending_days || ' days') ELSE promotion_end END`),
    promotionSource: asText(sql`CASE WHEN ${pending} THEN 'stripe' ELSE promotion_source END`),
    promotionPendingDays: null,
    promotionVersion: nextPromotionVersion as unknown as number,
  };
}

const listingPromotionUpdate = (db: Db, listingId: string, version: number, changes: Partial<typeof listings.$inferInsert>) =>
  db
    .update(listings)
    .set({ ...changes, promotionVersion: version + 1 })
    .where(and(eq(listings.id, listingId), eq(listings.promotionVersion, version)));

/**
 * The guarded batch's last statement: the listing's promotion columns, and the version moved on. Its
 * `changes` is 1 when the batch applied, 0 when another write came first (re-read and retry).
 */
export const updateListingPromotionIf = (db: Db, listingId: string, version: number, changes: Partial<typeof listings.$inferInsert>) =>
  fromDrizzle(db, listingPromotionUpdate(db, listingId, version, changes));

/** The same, alone (not in a batch): 1 change when it applied. */
export const updateListingPromotionNow = (db: Db, listingId: string, version: number, changes: Partial<typeof listings.$inferInsert>) =>
  listingPromotionUpdate(db, listingId, version, changes).run();

/**
 * Writes the whole record, under the version guard. `ended`, `checked_out`, `duplicate` and the
 * periods also only move forward here (the cron ends subscriptions without the guard).
 */
export const saveSubscriptionIf = (db: Db, r: SubscriptionRecord, version: number) =>
  raw(
    db,
    `INSERT INTO stripe_subscriptions
      (id, listing_id, user_id, status, current_period_end, failed_period_end, cancel_at_period_end, updated_event_at, checked_out, awaiting_payment, ended, duplicate, created_at)
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${VERSION_IS}
    ON CONFLICT (id) DO UPDATE SET
      status = CASE WHEN stripe_subscriptions.ended THEN stripe_subscriptions.status ELSE excluded.status END,
      current_period_end = coalesce(max(stripe_subscriptions.current_period_end, excluded.current_period_end), stripe_subscriptions.current_period_end, excluded.current_period_end),
      failed_period_end = coalesce(max(stripe_subscriptions.failed_period_end, excluded.failed_period_end), stripe_subscriptions.failed_period_end, excluded.failed_period_end),
      cancel_at_period_end = excluded.cancel_at_period_end,
      updated_event_at = max(stripe_subscriptions.updated_event_at, excluded.updated_event_at),
      checked_out = max(stripe_subscriptions.checked_out, excluded.checked_out),
      awaiting_payment = excluded.awaiting_payment,
      ended = max(stripe_subscriptions.ended, excluded.ended),
      duplicate = max(stripe_subscriptions.duplicate, excluded.duplicate)`,
    r.id,
    r.listingId,
    r.userId,
    r.status,
    r.currentPeriodEnd,
    r.failedPeriodEnd,
    +r.cancelAtPeriodEnd,
    r.updatedEventAt,
    +r.checkedOut,
    +r.awaitingPayment,
    +r.ended,
    +r.duplicate,
    r.createdAt,
    r.listingId,
    version,
  );

/**
 * A subscription cancelled and refunded at Stripe (a duplicate, or refused), recorded at once and
 * WITHOUT the version guard: if the guarded batch that follows loses its race, the retry must not
 * see it as live. Forward only (ended, duplicate). 1 change only for the first to record it.
 */
export const markSubscriptionRefused = (db: Db, r: SubscriptionRecord) =>
  raw(
    db,
    `INSERT INTO stripe_subscriptions
      (id, listing_id, user_id, status, current_period_end, failed_period_end, cancel_at_period_end, updated_event_at, checked_out, awaiting_payment, ended, duplicate, created_at)
    VALUES (?, ?, ?, 'canceled', ?, ?, ?, ?, ?, 0, 1, 1, ?)
    ON CONFLICT (id) DO UPDATE SET ended = 1, duplicate = 1, status = 'canceled', awaiting_payment = 0 WHERE stripe_subscriptions.duplicate = 0`,
    r.id,
    r.listingId,
    r.userId,
    r.currentPeriodEnd,
    r.failedPeriodEnd,
    +r.cancelAtPeriodEnd,
    r.updatedEventAt,
    +r.checkedOut,
    r.createdAt,
  ).run();

export const insertBillingRowIf = (db: Db, row: BillingRow, version: number) =>
  raw(
    db,
    `INSERT INTO billing_history (id, listing_id, subscription_id, amount, currency, period_start, period_end, created, status)
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${VERSION_IS}
    ON CONFLICT (id) DO NOTHING`,
    row.id,
    row.listingId,
    row.subscriptionId ?? null,
    row.amount,
    row.currency,
    row.periodStart,
    row.periodEnd,
    row.created,
    row.status,
    row.listingId,
    version,
  );

/** The checkout's session is paid for (or Stripe's completion arrived): it is not offered again. */
export const markCheckoutSessionCompletedIf = (db: Db, sessionId: string, at: string, listingId: string, version: number) =>
  raw(db, `UPDATE checkout_sessions SET completed_at = ? WHERE id = ? AND completed_at IS NULL AND ${VERSION_IS}`, at, sessionId, listingId, version);

/** A new checkout session, under the version guard (two requests at once make one). */
export const insertCheckoutSessionIf = (db: Db, row: typeof checkoutSessions.$inferInsert & { createdAt: string }, version: number) =>
  raw(
    db,
    `INSERT INTO checkout_sessions (id, listing_id, user_id, kind, success_url, cancel_url, url, expires_at, idempotency_key, created_at)
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${VERSION_IS}`,
    row.id,
    row.listingId,
    row.userId,
    row.kind,
    row.successUrl,
    row.cancelUrl,
    row.url ?? null,
    row.expiresAt ?? null,
    row.idempotencyKey ?? null,
    row.createdAt,
    row.listingId,
    version,
  );

export const billingHistoryOfListing = (db: Db, listingId: string) =>
  db.select().from(billingHistory).where(eq(billingHistory.listingId, listingId)).orderBy(desc(billingHistory.created)).limit(200).all();

/** The session this user started with this Idempotency-Key since `sinceIso`. */
export const findCheckoutSessionByKey = (db: Db, userId: string, key: string, sinceIso: string) =>
  db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.idempotencyKey, key), gt(checkoutSessions.createdAt, sinceIso)))
    .get();

/** A key older than the idempotency window is forgotten, so it can start a new session. */
export const forgetStaleCheckoutKey = (db: Db, userId: string, key: string, sinceIso: string) =>
  db
    .update(checkoutSessions)
    .set({ idempotencyKey: null })
    .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.idempotencyKey, key), lte(checkoutSessions.createdAt, sinceIso)));

/** The listing's newest session that can still be paid until `openUntilIso` (not completed, not expired). */
export const openCheckoutSessionOfListing = (db: Db, listingId: string, openUntilIso: string) =>
  db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.listingId, listingId), isNull(checkoutSessions.completedAt), gt(checkoutSessions.expiresAt, openUntilIso)))
    .orderBy(desc(checkoutSessions.createdAt))
    .get();

/** How many sessions the user started since `sinceIso`, and the oldest of them (the checkout rate cap). */
export const checkoutSessionsStartedSince = (db: Db, userId: string, sinceIso: string) =>
  db
    .select({ n: sql<number>`count(*)`, oldest: sql<string | null>`min(${checkoutSessions.createdAt})` })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.userId, userId), gt(checkoutSessions.createdAt, sinceIso)))
    .get();

/** A session that could not be claimed (the test checkout's Pay failed) can be paid again. */
export const reopenCheckoutSession = (db: Db, id: string) => db.update(checkoutSessions).set({ completedAt: null }).where(eq(checkoutSessions.id, id));

export const findCheckoutSession = (db: Db, id: string) => db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).get();

/** Claims the session for payment: 1 change for the one request that claims it, 0 when already paid. */
export const markCheckoutSessionCompleted = (db: Db, id: string, at: string) =>
  db
    .update(checkoutSessions)
    .set({ completedAt: at })
    .where(and(eq(checkoutSessions.id, id), isNull(checkoutSessions.completedAt)));

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

/** Sessions of a listing or of a user that can still be paid at `nowIso` (not completed, not expired). */
export const openCheckoutSessionsOf = (db: Db, scope: { listingId: string } | { userId: string }, nowIso: string) =>
  db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        "listingId" in scope ? eq(checkoutSessions.listingId, scope.listingId) : eq(checkoutSessions.userId, scope.userId),
        isNull(checkoutSessions.completedAt),
        gt(checkoutSessions.expiresAt, nowIso),
      ),
    )
    .all();

/** Sessions expired on purpose (deletion, suspension): never offered again. */
export const closeCheckoutSessions = (db: Db, ids: string[], at: string) =>
  db
    .update(checkoutSessions)
    .set({ completedAt: at })
    .where(and(inValues(checkoutSessions.id, ids), isNull(checkoutSessions.completedAt)));

/** For the suspension's batch: a Stripe event applied from a read before it retries (and sees the suspension). */
export const bumpPromotionVersionsOfUser = (db: Db, userId: string) =>
  db.update(listings).set({ promotionVersion: nextPromotionVersion as unknown as number }).where(eq(listings.userId, userId));

/** Suspended users who still have a subscription that has not ended (the cron retries stopping them). */
export const suspendedUsersWithLiveSubscriptions = (db: Db) =>
  db
    .selectDistinct({ userId: stripeSubscriptions.userId })
    .from(stripeSubscriptions)
    .innerJoin(users, eq(users.id, stripeSubscriptions.userId))
    .where(and(eq(stripeSubscriptions.ended, false), isNotNull(users.suspendedAt)))
    .limit(50)
    .all();

/**
 * What a deletion checks its delete against: the listing's promotion_version, or the sum over the
 * user's listings (versions only grow, so the sum moves when any one does). Null: nothing to delete.
 */
export const promotionVersionOf = async (db: Db, scope: { listingId: string } | { userId: string }) =>
  "listingId" in scope
    ? ((await db.select({ v: listings.promotionVersion }).from(listings).where(eq(listings.id, scope.listingId)).get())?.v ?? null)
    : ((
        await db
          .select({ v: sql<number>`(SELECT coalesce(sum(promotion_version), 0) FROM listings WHERE user_id = ${scope.userId})` })
          .from(users)
          .where(eq(users.id, scope.userId))
          .get()
      )?.v ?? null);

/**
 * Deletes the listing (or the account, its listings cascading) only if no promotion write came since
 * `version` was read (a Stripe event that made a subscription live in between): 1 change when deleted.
 */
export const deleteIfPromotionVersion = (db: Db, scope: { listingId: string } | { userId: string }, version: number) =>
  "listingId" in scope
    ? db.delete(listings).where(and(eq(listings.id, scope.listingId), eq(listings.promotionVersion, version))).run()
    : db
        .delete(users)
        .where(and(eq(users.id, scope.userId), sql`(SELECT coalesce(sum(promotion_version), 0) FROM listings WHERE user_id = ${scope.userId}) = ${version}`))
        .run();

/** Whether the listing was ever promoted or paid for (its snapshot is kept when it is deleted). */
export const wasPromoted = async (db: Db, listingId: string) =>
  !!(await db
    .select({ id: listings.id })
    .from(listings)
    .where(
      and(
        eq(listings.id, listingId),
        sql`(${listings.promotionEnd} IS NOT NULL OR ${listings.promotionPendingDays} IS NOT NULL OR EXISTS (SELECT 1 FROM billing_history b WHERE b.listing_id = ${listings.id}))`,
      ),
    )
    .get());

/** Keeps what a deleted promoted listing was (JSON), for its owner's promoted listings and billing. */
export const archivePromotedListing = (db: Db, row: { listingId: string; userId: string; listing: string; deletedAt: string }) =>
  db.insert(deletedPromotedListings).values(row).onConflictDoUpdate({ target: deletedPromotedListings.listingId, set: { listing: row.listing, deletedAt: row.deletedAt } });

/** A user's deleted promoted listings, newest deletion first (a snapshot whose deletion did not go through is left out). */
export const deletedPromotedListingsOfUser = (db: Db, userId: string) =>
  db
    .select()
    .from(deletedPromotedListings)
    .where(and(eq(deletedPromotedListings.userId, userId), sql`NOT EXISTS (SELECT 1 FROM listings l WHERE l.id = ${deletedPromotedListings.listingId})`))
    .orderBy(desc(deletedPromotedListings.deletedAt))
    .limit(200)
    .all();

export const findDeletedPromotedListing = (db: Db, listingId: string) => db.select().from(deletedPromotedListings).where(eq(deletedPromotedListings.listingId, listingId)).get();

/** Taken, hidden or paused listings with a live subscription that still renews (at most 100). */
export const unavailableListingsStillRenewing = (db: Db) =>
  db.$client
    .prepare(
      `SELECT DISTINCT l.id, l.status FROM listings l JOIN stripe_subscriptions s ON s.listing_id = l.id
        WHERE l.status IN ('taken', 'hidden', 'paused') AND s.ended = 0 AND s.duplicate = 0 AND s.cancel_at_period_end = 0
          AND (s.checked_out = 1 OR s.current_period_end IS NOT NULL)
        LIMIT 100`,
    )
    .all<{ id: string; status: string }>()
    .then((r) => r.results);

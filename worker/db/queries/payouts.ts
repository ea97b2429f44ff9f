/**
 * payout_accounts (docs/decisions/030): one Connect account per lister. Every write of what Stripe says
 * of an account is one conditional statement on `stripe_updated` (the `created` time of the event, or the
 * time of a retrieve): a snapshot older than the stored one changes nothing, so events applied in any
 * order end where in-order delivery ends.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { payoutAccounts } from "../schema";

export type PayoutAccountRow = typeof payoutAccounts.$inferSelect;

/** What Stripe says of an account, as we store it. */
export interface AccountSnapshot {
  stripeAccountId: string;
  status: "pending" | "ready";
  detailsSubmitted: boolean;
  transfersActive: boolean;
  payoutsEnabled: boolean;
  requirementsDue: string[];
  /** Epoch seconds: the event's `created`, or when the account was retrieved. */
  observedAt: number;
}

export const findPayoutAccount = (db: Db, userId: string) => db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)).get();

/** The owner and status of the row holding this account, if any. */
export const findPayoutAccountByStripeId = (db: Db, stripeAccountId: string) =>
  db.select({ userId: payoutAccounts.userId, status: payoutAccounts.status }).from(payoutAccounts).where(eq(payoutAccounts.stripeAccountId, stripeAccountId)).get();

/** Stores the account onboarding created; a row already there (a second tap, or its webhook first) is kept. */
export const insertPayoutAccount = (db: Db, userId: string, stripeAccountId: string, nowIso: string) =>
  db.insert(payoutAccounts).values({ userId, stripeAccountId, createdAt: nowIso, updatedAt: nowIso }).onConflictDoNothing();

/**
 * The snapshot written when it is at least as new as the stored one. The row is created when the
 * account's event arrives before onboarding stored it (`userId` from the account's metadata, only while
 * that user exists); a row of the user with another account is never touched.
 */
export function upsertAccountSnapshot(db: Db, userId: string, s: AccountSnapshot, nowIso: string): D1PreparedStatement {
  return db.$client
    .prepare(
      `INSERT INTO payout_accounts (user_id, stripe_account_id, status, details_submitted, transfers_active, payouts_enabled, requirements_due, stripe_updated, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1)
       ON CONFLICT (user_id) DO UPDATE SET status = excluded.status, details_submitted = excluded.details_submitted,
         transfers_active = excluded.transfers_active, payouts_enabled = excluded.payouts_enabled,
         requirements_due = excluded.requirements_due, stripe_updated = excluded.stripe_updated, updated_at = excluded.updated_at
       WHERE payout_accounts.stripe_account_id = excluded.stripe_account_id AND payout_accounts.stripe_updated <= excluded.stripe_updated`,
    )
    .bind(userId, s.stripeAccountId, s.status, s.detailsSubmitted ? 1 : 0, s.transfersActive ? 1 : 0, s.payoutsEnabled ? 1 : 0, JSON.stringify(s.requirementsDue), s.observedAt, nowIso);
}

/** The same, for an account whose owner we know only by the stored row (no metadata): an update, never an insert. */
export function updateAccountSnapshot(db: Db, s: AccountSnapshot, nowIso: string): D1PreparedStatement {
  return db.$client
    .prepare(
      `UPDATE payout_accounts SET status = ?2, details_submitted = ?3, transfers_active = ?4, payouts_enabled = ?5, requirements_due = ?6, stripe_updated = ?7, updated_at = ?8
       WHERE stripe_account_id = ?1 AND stripe_updated <= ?7`,
    )
    .bind(s.stripeAccountId, s.status, s.detailsSubmitted ? 1 : 0, s.transfersActive ? 1 : 0, s.payoutsEnabled ? 1 : 0, JSON.stringify(s.requirementsDue), s.observedAt, nowIso);
}

/** The event id, recorded in the same batch as its effect (decision 013): a second delivery fails the batch on the key. */
export const insertConnectEvent = (db: Db, eventId: string, type: string, nowIso: string): D1PreparedStatement =>
  db.$client.prepare("INSERT INTO stripe_events (id, type, created_at) VALUES (?1, ?2, ?3)").bind(eventId, type, nowIso);

/** The user whose row holds this account, if any. */
export async function ownerOfAccount(db: Db, stripeAccountId: string): Promise<string | null> {
  return (await findPayoutAccountByStripeId(db, stripeAccountId))?.userId ?? null;
}

/**
 * Payouts (docs/decisions/026): a lister is paid through a Stripe Connect account. This module owns
 * the `payout_accounts` row; onboarding and the Connect webhook write it, deals read it here.
 */
import { eq } from "drizzle-orm";
import type { PayoutStatus } from "../../contract/deals";
import type { Db } from "../../db/client";
import { payoutAccounts } from "../../db/schema";

export interface PayoutAccount {
  stripeAccountId: string;
  status: Exclude<PayoutStatus, "none">;
}

/** The lister's Connect account, or null before onboarding started. A deal is payable only when `ready`. */
export async function payoutAccountOf(db: Db, userId: string): Promise<PayoutAccount | null> {
  const row = await db
    .select({ stripeAccountId: payoutAccounts.stripeAccountId, status: payoutAccounts.status })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.userId, userId))
    .get();
  return row ? { stripeAccountId: row.stripeAccountId, status: row.status === "ready" ? "ready" : "pending" } : null;
}

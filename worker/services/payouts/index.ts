/**
 * Payouts (docs/decisions/026, 030): a lister is paid through a Stripe Connect account. This module owns
 * the `payout_accounts` row: onboarding creates it, the Connect webhook (connect-webhook.ts) and a
 * refresh on return from onboarding keep it current, deals read it here.
 */
import type Stripe from "stripe";
import { PAYMENT_MESSAGES, type PayoutStatus } from "../../contract/deals";
import { ID_VERIFIED } from "../../contract/policies";
import { PAYOUTS_RETURN_PATH, type PayoutStatusData } from "../../contract/payouts";
import { primaryOf, type Db } from "../../db/client";
import { findPayoutAccount, insertPayoutAccount, updateAccountSnapshot, type AccountSnapshot } from "../../db/queries/payouts";
import type { Config } from "../../env";
import { apiError, forbidden } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import { isoNow } from "../../lib/time";
import { stripeClient, stripeConfigured } from "../stripe/client";
import { obj, type Obj } from "../stripe/webhook";
import { IDEMPOTENCY_KEYS } from "../payments/idempotency-keys";
import { announcePayable, type Effects } from "../deals";

export interface PayoutAccount {
  stripeAccountId: string;
  status: Exclude<PayoutStatus, "none">;
}

/** The lister's Connect account, or null before onboarding started. A deal is payable only when `ready`. */
export async function payoutAccountOf(db: Db, userId: string): Promise<PayoutAccount | null> {
  const row = await findPayoutAccount(db, userId);
  return row ? { stripeAccountId: row.stripeAccountId, status: row.status === "ready" ? "ready" : "pending" } : null;
}

/** At most this many of Stripe's `currently_due` entries are kept (each at most 100 characters). */
const REQUIREMENTS_KEPT = 30;

/**
 * What we store of a Connect account object (an `account.updated`'s or a retrieve's). Ready means Stripe
 * says the account can receive transfers (`capabilities.transfers === "active"`), the only thing a
 * release needs (decision 030); everything else is pending.
 */
export function accountSnapshot(account: Obj, observedAt: number): AccountSnapshot {
  const transfersActive = obj(account.capabilities).transfers === "active";
  const due = obj(account.requirements).currently_due;
  return {
    stripeAccountId: String(account.id),
    status: transfersActive ? "ready" : "pending",
    detailsSubmitted: account.details_submitted === true,
    transfersActive,
    payoutsEnabled: account.payouts_enabled === true,
    requirementsDue: Array.isArray(due) ? due.filter((d): d is string => typeof d === "string").map((d) => d.slice(0, 100)).slice(0, REQUIREMENTS_KEPT) : [],
    observedAt,
  };
}

const parseDue = (json: string | null): string[] => {
  try {
    const parsed: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((d): d is string => typeof d === "string") : [];
  } catch {
    return [];
  }
};

const ONBOARDING_FAILED = "Could not reach Stripe to set up payouts. Please try again.";

/**
 * `GET payouts/status`: what the row says. With `refresh` (the profile on return from Stripe's
 * onboarding, decision 030) and Stripe keys, a pending account is first retrieved from Stripe and the
 * answer written like an event observed now, so the profile need not wait for the webhook; a Stripe
 * failure falls back to the stored row (the webhook still brings the news).
 */
export async function payoutStatus(db: Db, fx: Effects, userId: string, { refresh = false, now = Date.now() } = {}): Promise<PayoutStatusData> {
  const config = fx.config;
  let row = await findPayoutAccount(db, userId);
  if (!row) return { status: "none", requirements_due: [] };
  if (refresh && row.status !== "ready" && stripeConfigured(config.stripe)) {
    try {
      const account = await stripeClient(config.stripe).accounts.retrieve(row.stripeAccountId);
      await updateAccountSnapshot(db, accountSnapshot(account as unknown as Obj, Math.floor(now / 1000)), isoNow(now)).run();
      row = (await findPayoutAccount(primaryOf(db), userId)) ?? row;
      // Ready now (the webhook will find it so): the renters of the lister's signed deals are told here.
      if (row.status === "ready") await announcePayable(db, fx, userId, now);
    } catch (err) {
      log.warn("payout_refresh_failed", { message: err instanceof Error ? err.message : "unknown" });
    }
  }
  return { status: row.status === "ready" ? "ready" : "pending", requirements_due: row.status === "ready" ? [] : parseDue(row.requirementsDue) };
}

/**
 * The Connect account Stripe creates for a lister (decision 030): controller properties with the Express
 * dashboard (Stripe collects the requirements and hosts onboarding; the platform pays Stripe's fees and
 * carries losses, as separate charges and transfers put them on the platform anyway), US, transfers only.
 * The idempotency key is the user's: two taps at once, or a retry after a lost answer, get one account.
 */
async function createConnectAccount(config: Config, user: { id: string; email: string }): Promise<string> {
  const params: Stripe.AccountCreateParams = {
    country: "US",
    email: user.email,
    controller: {
      stripe_dashboard: { type: "express" },
      fees: { payer: "application" },
      losses: { payments: "application" },
      requirement_collection: "stripe",
    },
    capabilities: { transfers: { requested: true } },
    business_type: "individual",
    metadata: { user_id: user.id },
  };
  const account = await stripeClient(config.stripe).accounts.create(params, { idempotencyKey: IDEMPOTENCY_KEYS.connectAccount(user.id) });
  return account.id;
}

/**
 * `POST payouts/onboarding`: the lister's account (created once: a stored row is reused, Stripe's
 * idempotency key and the row's primary key make two taps one account) and a link into its onboarding,
 * whose return and refresh addresses both lead to the profile's Payouts section. Without keys (development
 * only) the account is a local one and the link the development onboarding page.
 */
export async function startOnboarding(db: Db, config: Config, user: { id: string; email: string; idVerificationStatus: string }, origin: string, now = Date.now()): Promise<{ url: string }> {
  // A Stripe account per ID-verified lister only: never one per throwaway account (docs/decisions/035).
  if (user.idVerificationStatus !== ID_VERIFIED) throw forbidden(PAYMENT_MESSAGES.onboardingNeedsId);
  const useStripe = stripeConfigured(config.stripe);
  if (!useStripe && !config.isDevelopment) throw apiError(503, { detail: ONBOARDING_FAILED });
  let row = await findPayoutAccount(db, user.id);
  if (!row) {
    let accountId: string;
    try {
      accountId = useStripe ? await createConnectAccount(config, user) : `acct_dev_${newId(16)}`;
    } catch (err) {
      log.error("connect_account_failed", { message: err instanceof Error ? err.message : "unknown" });
      throw apiError(502, { detail: ONBOARDING_FAILED });
    }
    await insertPayoutAccount(db, user.id, accountId, isoNow(now)).run();
    // The stored one: another tap (or the account's own event) may have stored it first.
    row = await findPayoutAccount(primaryOf(db), user.id);
    if (!row) throw apiError(503, { detail: ONBOARDING_FAILED });
  }
  if (!useStripe) return { url: `/dev/connect/${encodeURIComponent(row.stripeAccountId)}` };
  const back = `${(config.publicBaseUrl || origin).replace(/\/+$/, "")}${PAYOUTS_RETURN_PATH}`;
  try {
    const link = await stripeClient(config.stripe).accountLinks.create({
      account: row.stripeAccountId,
      type: "account_onboarding",
      refresh_url: back,
      return_url: back,
      collection_options: { fields: "currently_due" },
    });
    return { url: link.url };
  } catch (err) {
    log.error("connect_account_link_failed", { message: err instanceof Error ? err.message : "unknown" });
    throw apiError(502, { detail: ONBOARDING_FAILED });
  }
}

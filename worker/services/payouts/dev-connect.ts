/**
 * The development onboarding page (api-contract "Deals", development conventions; docs/decisions/030):
 * without Stripe keys, `POST payouts/onboarding` sends the lister here instead of Stripe's hosted
 * onboarding. "Complete onboarding" builds the `account.updated` Stripe would send for an account that
 * can receive transfers, signs it with the Connect webhook's secret and hands it to the Connect
 * endpoint's own entry (receiveConnectWebhook), so the same verification and the same rule apply it.
 * Development only: the routes answer 404 elsewhere, and only local (`acct_dev_`) accounts have a page.
 */
import { PAYOUTS_READY_PATH } from "../../contract/payouts";
import type { Db } from "../../db/client";
import { findPayoutAccountByStripeId } from "../../db/queries/payouts";
import { notFound } from "../../lib/errors";
import { signWebhookPayload } from "../stripe/webhook";
import type { Effects } from "../deals";
import { receiveConnectWebhook } from "./connect-webhook";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

async function devAccount(db: Db, accountId: string) {
  if (!accountId.startsWith("acct_dev_")) throw notFound("Payout account not found");
  const row = await findPayoutAccountByStripeId(db, accountId);
  if (!row) throw notFound("Payout account not found");
  return row;
}

/** The page: what it stands in for, and "Complete onboarding" (no script: the worker's CSP). */
export async function devConnectPage(db: Db, accountId: string): Promise<string> {
  const row = await devAccount(db, accountId);
  const id = encodeURIComponent(accountId);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Payout setup (development) · CampusNest</title><link rel="stylesheet" href="/dev/connect.css"></head>
<body><main class="card" aria-labelledby="title">
<p class="badge">Development</p>
<h1 id="title">Set up payouts</h1>
<p>This page stands in for Stripe's onboarding, where a lister gives the details Stripe needs (name, date of birth, bank account) to receive the rent of their deals.</p>
<p class="note">No details are asked here and no money moves. With Stripe keys set, the lister goes to Stripe's own hosted onboarding instead.</p>
<p>Account: <code>${escapeHtml(accountId)}</code>${row.status === "ready" ? " (already ready)" : ""}</p>
<form method="post" action="/dev/connect/${id}/complete"><button type="submit" class="pay">Complete onboarding</button></form>
<p class="back"><a href="/profile#payouts">Back to your profile</a></p>
</main></body></html>`;
}

// The promotion test checkout's look, with a dark scheme; the body's side padding keeps the card off a phone's edges.
export const DEV_CONNECT_CSS = `:root{color-scheme:light dark}
body{margin:0;padding:0 16px;font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;background:#f6f7f9;color:#14171c;line-height:1.5}
.card{max-width:440px;margin:48px auto;background:#fff;border:1px solid #dde1e7;border-radius:12px;padding:28px}
h1{font-size:22px;margin:8px 0 12px}.badge{display:inline-block;background:#fff4ce;color:#5c4400;border-radius:6px;padding:2px 8px;font-size:13px;margin:0}
.note{font-size:14px;color:#4f5866}code{font-size:13px;word-break:break-all}form{margin-top:16px}
button{width:100%;font:inherit;font-weight:700;border-radius:8px;padding:12px;cursor:pointer;min-height:44px}
.pay{background:#1f5fcc;color:#fff;border:0}button:focus-visible,a:focus-visible{outline:3px solid #1f6feb;outline-offset:2px}
a{color:#1a56b8}.back{font-size:14px;margin:16px 0 0}
@media (prefers-color-scheme:dark){body{background:#0f1216;color:#e6e9ee}.card{background:#181c22;border-color:#2c323b}
.badge{background:#4a3b00;color:#ffe9a3}.note{color:#a9b1bd}.pay{background:#1f5fcc}a{color:#8ab4ff}button:focus-visible,a:focus-visible{outline-color:#8ab4ff}}
@media (max-width:480px){.card{margin:16px auto;padding:20px}}`;

/**
 * "Complete onboarding": the signed `account.updated` of an account whose transfers are active,
 * delivered through the Connect endpoint's entry; answers where to go (the profile's Payouts section).
 * Repeating it changes nothing new (the account is already ready; each event has its own id).
 */
export async function completeDevOnboarding(db: Db, fx: Effects, accountId: string, now = Date.now()): Promise<string> {
  const row = await devAccount(db, accountId);
  const created = Math.floor(now / 1000);
  const event = devAccountUpdated(accountId, row.userId, created, "active");
  const payload = JSON.stringify(event);
  await receiveConnectWebhook(db, fx, payload, await signWebhookPayload(fx.config.stripe.connectWebhookSecret, payload));
  return PAYOUTS_READY_PATH;
}

/** An `account.updated` as Stripe sends it for a Connect account (the fields we read, and a few more). */
export function devAccountUpdated(accountId: string, userId: string, created: number, transfers: "active" | "inactive" | "pending", currentlyDue: string[] = []) {
  return {
    id: `evt_${crypto.randomUUID().replace(/-/g, "")}`,
    object: "event",
    type: "account.updated",
    created,
    account: accountId,
    livemode: false,
    data: {
      object: {
        id: accountId,
        object: "account",
        type: "express",
        country: "US",
        details_submitted: transfers === "active",
        charges_enabled: false,
        payouts_enabled: transfers === "active",
        capabilities: { transfers },
        requirements: { currently_due: currentlyDue, eventually_due: [], past_due: [], disabled_reason: transfers === "active" ? null : "requirements.past_due" },
        metadata: { user_id: userId },
      },
    },
  };
}

/**
 * Payout set-up asked for by a deal comes back to that deal (Stripe's onboarding returns to the profile,
 * PAYOUTS_RETURN_PATH, the same for everyone): the deal page links to the profile with
 * `?payouts_for={dealId}`, the id is kept in this tab's sessionStorage while the lister is at Stripe, and
 * on the return the profile goes on to the deal.
 */
export const PAYOUTS_FOR_DEAL = "payouts_for";
const KEY = "campusnest.payouts-for-deal";

export function rememberPayoutsDeal(dealId: string) {
  try {
    sessionStorage.setItem(KEY, dealId);
  } catch {
    // Storage refused (a private mode): the lister lands on the profile, as before.
  }
}

/** The deal that asked, once (it is forgotten as it is read). */
export function takePayoutsDeal(): string | null {
  try {
    const id = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return id;
  } catch {
    return null;
  }
}

/**
 * Stripe idempotency keys of a deal's money (docs/decisions/029, 035), in one place. Each names one
 * operation: a checkout session of the deal at a version in a minute (a retry after our write was lost
 * gets the same session); a money move of one claim's attempt, one key per kind of move (a resumed claim
 * repeats exactly what its dead worker asked, and Stripe answers it again instead of moving twice); a
 * second payment's refund; the lister's Connect account.
 */
export const IDEMPOTENCY_KEYS = {
  dealCheckout: (dealId: string, version: number, minute: number) => `deal-checkout-${dealId}-${version}-${minute}`,
  refund: (dealId: string, attempt: string) => `deal-${dealId}-${attempt}-refund`,
  transfer: (dealId: string, attempt: string) => `deal-${dealId}-${attempt}-transfer`,
  reversal: (dealId: string, attempt: string, transferId: string) => `deal-${dealId}-${attempt}-reversal-${transferId}`,
  duplicatePayment: (paymentIntentId: string) => `deal-duplicate-${paymentIntentId}`,
  connectAccount: (userId: string) => `connect-account-${userId}`,
} as const;

/** Moving money needs Stripe, or development's simulation (decision 029): elsewhere, without keys, 503 and never a fake payment. */
import { PAYMENT_MESSAGES } from "../../contract/deals";
import type { Config } from "../../env";
import { apiError } from "../../lib/errors";
import { usesStripe } from "./move";

export function requireMoneyPath(config: Config) {
  if (!usesStripe(config) && !config.isDevelopment) throw apiError(503, { detail: PAYMENT_MESSAGES.paymentsUnavailable });
}

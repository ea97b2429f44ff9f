/**
 * Payouts (docs/decisions/030): the signed-in lister's Connect status and the start of Stripe's
 * onboarding. A refresh (`?refresh=1`) asks the server to read the account back from Stripe: only on
 * the return from onboarding, where the webhook may not have arrived yet.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { PayoutOnboardingResponse, PayoutStatusResponse } from "@contract/payouts";
import { apiRequest } from "../../../lib/api-client";
import { browserNavigation } from "../../../lib/browser-navigation";

export const payoutKeys = { status: ["payouts", "status"] as const };

export const usePayoutStatus = (refresh: boolean) =>
  useQuery({
    queryKey: payoutKeys.status,
    queryFn: () => apiRequest<PayoutStatusResponse>("payouts/status", refresh ? { query: { refresh: "1" } } : {}).then((r) => r.data),
  });

/** Creates (or reuses) the account and leaves for its onboarding page. */
export const useStartOnboarding = () =>
  useMutation({
    mutationFn: () => apiRequest<PayoutOnboardingResponse>("payouts/onboarding", { method: "POST" }).then((r) => r.data),
    onSuccess: ({ url }) => browserNavigation.assign(url),
  });

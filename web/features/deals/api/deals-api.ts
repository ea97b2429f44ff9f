/**
 * The deals feature's calls: the request, each party's transitions, the agreement and its PDF, the
 * landlord's consent (lister's side and the landlord's own page), signing, and the payment's steps
 * (checkout, "I have the keys", a problem and statements, a late cancellation's refund). Reads shared
 * with other features (one deal, my deals) and the key factory are in lib/deals-api.ts.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CreateDealInput,
  Deal,
  DealProblemKind,
  DealResponse,
  DealStatement,
  LandlordConsentInput,
  LandlordConsentPage,
  LandlordDecisionInput,
  SignCodeInput,
  SignDealInput,
} from "@contract/deals";
import { apiBlob, apiRequest, ApiError } from "../../../lib/api-client";
import { dealKeys, dealPath, getAgreement, getAgreementPdf } from "../../../lib/deals-api";
import { NotSavedOffline } from "../../../lib/saved-deals";
import { offerPush } from "../../../lib/push/ask";

/** A fresh Idempotency-Key for one intended request (the same key for a repeat of the same stay). */
export const newRequestKey = () => `deal-${crypto.randomUUID()}`;

const post = (id: string, action: string, body?: unknown) =>
  apiRequest<DealResponse>(dealPath(id, `/${action}`), { method: "POST", body: body ?? {} }).then((r) => r.data);

/** Every write answers the deal as it now stands: it is shown at once and every list of deals is read again. */
function useDealWrite<V>(call: (vars: V) => Promise<Deal>, extra?: (deal: Deal) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (deal) => {
      queryClient.setQueryData(dealKeys.detail(deal.id), deal);
      extra?.(deal);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: dealKeys.mine() }),
        queryClient.invalidateQueries({ queryKey: dealKeys.agreement(deal.id) }),
      ]);
    },
  });
}

/** POST deals: the renter's request (201 new, 200 the same open one). */
export function useRequestDeal(onSent?: (deal: Deal) => void) {
  return useDealWrite(
    ({ input, key }: { input: CreateDealInput; key: string }) =>
      apiRequest<DealResponse>("deals", { method: "POST", body: input, headers: { "Idempotency-Key": key } }).then((r) => r.data),
    (deal) => {
      onSent?.(deal);
      // A deal requested is a moment push is worth offering (docs/decisions/027); once, never on load.
      offerPush("deal_requested");
    },
  );
}

export const useAcceptDeal = () => useDealWrite((id: string) => post(id, "accept"));
export const useDeclineDeal = () => useDealWrite(({ id, reason }: { id: string; reason?: string }) => post(id, "decline", reason ? { reason } : {}));
export const useCancelDeal = () => useDealWrite(({ id, reason }: { id: string; reason?: string }) => post(id, "cancel", reason ? { reason } : {}));
export const useLandlordConsent = () => useDealWrite(({ id, input }: { id: string; input: LandlordConsentInput }) => post(id, "landlord-consent", input));
export const useSignDeal = () => useDealWrite(({ id, input }: { id: string; input: SignDealInput }) => post(id, "sign", input));

/**
 * POST deals/{id}/checkout, then the whole page goes to the payment page. The Idempotency-Key is the
 * deal's own, so a second tap (or a second tab) gets the same open session and never a second charge.
 */
export const checkoutKey = (dealId: string) => `deal-checkout-${dealId}`;
/**
 * The full-page move to the payment page: a seam of the deal code's own (jsdom's location.assign cannot
 * be replaced). lib/browser-navigation is promote's; shared, it became one more chunk on `/`'s map.
 */
export const checkoutPage = {
  open(url: string): void {
    window.location.assign(url);
  },
};
export function useCheckout() {
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ data: { checkout_url: string; session_id: string } }>(dealPath(id, "/checkout"), { method: "POST", body: {}, headers: { "Idempotency-Key": checkoutKey(id) } }).then((r) => r.data),
    onSuccess: ({ checkout_url }) => checkoutPage.open(checkout_url),
  });
}

/** The lister attaches the original lease (a private evidence url: only the two parties and staff read it). */
export const useAttachLease = () => useDealWrite(({ id, url }: { id: string; url: string }) => post(id, "lease", { url }));
/** A deal's private evidence photo (a problem's, a statement's, the lease), read with the party's session. */
export const loadEvidence = (path: string) => apiBlob(path);
export const useMovedIn = () => useDealWrite((id: string) => post(id, "moved-in"));

export interface ProblemInput {
  kind: DealProblemKind;
  text: string;
  photos: string[];
}
export const useReportProblem = () => useDealWrite(({ id, input }: { id: string; input: ProblemInput }) => post(id, "problem", input));

/** The lister's answer to a late cancellation: this much of the rent back to the renter (cents), with the reason both read. */
export const useCancellationRefund = () =>
  useDealWrite(({ id, refundCents, reason }: { id: string; refundCents: number; reason?: string }) => post(id, "cancellation-refund", { refund_cents: refundCents, ...(reason && { reason }) }));

/** POST deals/{id}/statement (either party, while disputed): answers the statement; the deal is read again. */
export function useAddStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text, photos }: { id: string; text: string; photos: string[] }) =>
      apiRequest<{ data: DealStatement }>(dealPath(id, "/statement"), { method: "POST", body: { text, photos } }).then((r) => r.data),
    onSuccess: (_statement, { id }) => queryClient.invalidateQueries({ queryKey: dealKeys.detail(id) }),
  });
}

/**
 * POST deals/{id}/sign-code: emails the signer a 6-digit code for the version of the agreement they read
 * (one a minute). A newer version answers 409 (the agreement is read again).
 */
export function useSignCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: string; read: SignCodeInput }) => apiRequest<unknown>(dealPath(id, "/sign-code"), { method: "POST", body: read }),
    onError: (err, { id }) => {
      if (err instanceof ApiError && err.status === 409) return Promise.all([queryClient.invalidateQueries({ queryKey: dealKeys.agreement(id) }), queryClient.invalidateQueries({ queryKey: dealKeys.detail(id) })]);
    },
  });
}

/** The agreement's text; an active deal's is kept on this device and read from it offline (docs/decisions/042). */
export function useAgreement(deal: Deal, enabled: boolean) {
  return useQuery({
    queryKey: dealKeys.agreement(deal.id),
    queryFn: () => getAgreement(deal),
    enabled,
    retry: (failures, err) => !(err instanceof NotSavedOffline) && !(err instanceof ApiError && err.status >= 400 && err.status < 500) && failures < 2,
    networkMode: "always",
  });
}

export { getAgreementPdf };

const landlordPath = (token: string) => `landlord-consent/${encodeURIComponent(token)}`;
const landlordKey = (token: string) => [...dealKeys.all, "landlord", token] as const;

/** The landlord's page: no account, the link's token is the permission. A used link is 410, an unknown one 404. */
export function useLandlordRequest(token: string) {
  return useQuery({
    queryKey: landlordKey(token),
    queryFn: () => apiRequest<{ data: LandlordConsentPage }>(landlordPath(token), { auth: false }).then((r) => r.data),
    retry: (failures, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && failures < 2,
    staleTime: Infinity,
  });
}

export function useLandlordDecision(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LandlordDecisionInput) =>
      apiRequest<{ data: { status: "granted" | "declined" } }>(landlordPath(token), { method: "POST", auth: false, body: input }).then((r) => r.data.status),
    // The link is used now (a new read would be 410): the page keeps the request and shows the answer.
    onSuccess: () => queryClient.setQueryDefaults(landlordKey(token), { staleTime: Infinity }),
  });
}

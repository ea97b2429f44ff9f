/**
 * Staff writes. Each invalidates the lists it changes plus the audit log (every staff action is
 * written there); the screens show their own toasts.
 */
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiError } from "../../../lib/api-client";
import { adminApi, adminSession, type AdminListingEdit, type AdminUserStatus, type ReviewDecision } from "./admin-api";
import { adminKeys } from "./admin-queries";

function useAdminMutation<V, R>(run: (vars: V) => Promise<R>, changes: QueryKey[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => Promise.all([...changes, adminKeys.audit()].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function useAdminLogin() {
  return useMutation({ mutationFn: adminApi.login, onSuccess: ({ token }) => adminSession.set(token) });
}

/** The status also moves the user in and out of the verification queues (and their counts). */
export const useSetUserStatus = () =>
  useAdminMutation((v: { id: string; status: AdminUserStatus }) => adminApi.setUserStatus(v.id, v.status), [adminKeys.users(), adminKeys.verifications(), adminKeys.stats()]);

export const useReviewVerification = () =>
  useAdminMutation(
    (v: { id: string; decision: ReviewDecision; reason?: string }) => adminApi.reviewVerification(v.id, v.decision, v.reason),
    [adminKeys.verifications(), adminKeys.users(), adminKeys.stats()],
  );

/**
 * A review names the version staff saw. A 409 (the owner edited it, or another reviewer decided it,
 * since the list was loaded) reloads the lists, so staff see the new version (the screen shows the detail).
 */
export function useReviewListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; revision: number; decision: ReviewDecision; reason?: string }) => adminApi.reviewListing(v.id, v.decision, v.revision, v.reason),
    onSettled: (_data, error) => {
      if (error && !(error instanceof ApiError && error.status === 409)) return;
      return Promise.all([adminKeys.listings(), adminKeys.stats(), adminKeys.audit()].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

export const useEditListing = () => useAdminMutation((v: { id: string; edit: AdminListingEdit }) => adminApi.editListing(v.id, v.edit), [adminKeys.listings()]);

/** "Not a copy" on a copied-photo match of a listing (docs/decisions/028): the lists drop the pair. */
export const useNotACopy = (listingId: string) =>
  useAdminMutation((v: { picture: string; matched_picture: string }) => adminApi.notACopy(listingId, v.picture, v.matched_picture), [adminKeys.listings()]);

/* The tabs' counts come from admin/stats: every write that moves a listing between tabs refreshes them. */
export const useVerifyAllListings = () => useAdminMutation(() => adminApi.verifyAll(), [adminKeys.listings(), adminKeys.stats()]);

export const usePromoteListing = () => useAdminMutation((id: string) => adminApi.promote(id), [adminKeys.listings(), adminKeys.stats()]);

export const useUnpromoteListing = () => useAdminMutation((id: string) => adminApi.unpromote(id), [adminKeys.listings(), adminKeys.stats()]);

export const useCleanupPromotions = () => useAdminMutation(() => adminApi.cleanup(), [adminKeys.listings(), adminKeys.stats()]);

/** Deleting a listing changes the lists and the dashboard's counts. */
export const useDeleteListing = () => useAdminMutation((id: string) => adminApi.deleteItem("listings", id), [adminKeys.listings(), adminKeys.stats()]);

export const useArchiveFeedback = () => useAdminMutation((id: string) => adminApi.archiveFeedback(id), [adminKeys.feedback(), adminKeys.stats()]);

/** A case's decision changes the deal, every deal list and the dashboard's money. */
export function useResolveDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; refundCents: number; reason?: string }) => adminApi.resolveDeal(v.id, v.refundCents, v.reason),
    onSuccess: (_deal, { id }) =>
      Promise.all([adminKeys.allDeals(), adminKeys.deal(id), adminKeys.stats(), adminKeys.audit()].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** Hiding (a reason, audited) or keeping a review takes it out of the queue; a hide moves the subject's summaries. */
export const useHideReview = () => useAdminMutation((v: { id: string; reason: string }) => adminApi.hideReview(v.id, v.reason), [adminKeys.allReviews()]);
export const useKeepReview = () => useAdminMutation((id: string) => adminApi.keepReview(id), [adminKeys.allReviews()]);

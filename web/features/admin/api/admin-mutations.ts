/**
 * Staff writes. Each invalidates the lists it changes plus the audit log (every staff action is
 * written there); the screens show their own toasts.
 */
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
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

/** The status also moves the user in and out of the verification queues. */
export const useSetUserStatus = () =>
  useAdminMutation((v: { id: string; status: AdminUserStatus }) => adminApi.setUserStatus(v.id, v.status), [adminKeys.users(), adminKeys.verifications()]);

export const useReviewVerification = () =>
  useAdminMutation(
    (v: { id: string; decision: ReviewDecision; reason?: string }) => adminApi.reviewVerification(v.id, v.decision, v.reason),
    [adminKeys.verifications(), adminKeys.users()],
  );

export const useReviewListing = () =>
  useAdminMutation((v: { id: string; decision: ReviewDecision; reason?: string }) => adminApi.reviewListing(v.id, v.decision, v.reason), [adminKeys.listings()]);

export const useEditListing = () => useAdminMutation((v: { id: string; edit: AdminListingEdit }) => adminApi.editListing(v.id, v.edit), [adminKeys.listings()]);

export const useVerifyAllListings = () => useAdminMutation(() => adminApi.verifyAll(), [adminKeys.listings()]);

export const usePromoteListing = () => useAdminMutation((id: string) => adminApi.promote(id), [adminKeys.listings()]);

export const useUnpromoteListing = () => useAdminMutation((id: string) => adminApi.unpromote(id), [adminKeys.listings()]);

export const useCleanupPromotions = () => useAdminMutation(() => adminApi.cleanup(), [adminKeys.listings()]);

/** Deleting a listing changes the lists and the dashboard's counts. */
export const useDeleteListing = () => useAdminMutation((id: string) => adminApi.deleteItem("listings", id), [adminKeys.listings(), adminKeys.stats()]);

export const useArchiveFeedback = () => useAdminMutation((id: string) => adminApi.archiveFeedback(id), [adminKeys.feedback()]);

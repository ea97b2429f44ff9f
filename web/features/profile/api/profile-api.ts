/**
 * The profile's writes. The signed-in user lives in the session store (not the query cache), so
 * each write that changes the user puts the server's answer there.
 */
import { useMutation } from "@tanstack/react-query";
import type { AvatarResponse, NotificationSettingsResponse, PrivateUser, ProfileResponse, SchoolEmailVerifiedResponse } from "@contract/users";
import type { NotificationsUpdate, ProfileUpdate } from "@contract/profile";
import { apiRequest } from "../../../lib/api-client";
import { readAsDataUrl, uploadJson } from "../../../lib/upload";
import { authStore } from "../../../lib/auth-store";

export const updateProfile = (input: ProfileUpdate) =>
  apiRequest<ProfileResponse>("users/profile", { method: "PATCH", body: input }).then((r) => r.data);

export const updateNotifications = (input: NotificationsUpdate) =>
  apiRequest<NotificationSettingsResponse>("users/notifications", { method: "PATCH", body: input }).then((r) => r.data);

export const deleteAccount = () => apiRequest<void>("users/profile", { method: "DELETE" });

export const uploadAvatar = (imageData: string, onProgress: (percent: number) => void) =>
  uploadJson<AvatarResponse>("users/avatar-base64", { image_data: imageData }, onProgress);

/** Puts a change to the signed-in user into the session. */
function updateSessionUser(change: Partial<PrivateUser>) {
  const user = authStore.get()?.user;
  if (user) authStore.setUser({ ...user, ...change });
}

export const useUpdateProfile = () => useMutation({ mutationFn: updateProfile, onSuccess: (user) => authStore.setUser(user) });

export const useUpdateNotifications = () =>
  useMutation({ mutationFn: updateNotifications, onSuccess: (settings) => updateSessionUser({ notification_settings: settings }) });

export const useUploadAvatar = () =>
  useMutation({
    mutationFn: async ({ file, onProgress }: { file: Blob; onProgress: (percent: number) => void }) => uploadAvatar(await readAsDataUrl(file), onProgress),
    onSuccess: ({ avatar_url }) => updateSessionUser({ avatar_url }),
  });

/** The caller signs out on success (before the signed-in page goes away). */
export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount });

/** Mails a 6-digit code to a school address (docs/decisions/028). */
export const useSendSchoolEmailCode = () =>
  useMutation({ mutationFn: (email: string) => apiRequest<{ detail: string }>("users/school-email", { method: "POST", body: { email } }) });

/** Confirms the code; the session's user then carries the badge. */
export const useConfirmSchoolEmail = () =>
  useMutation({
    mutationFn: (code: string) => apiRequest<SchoolEmailVerifiedResponse>("users/school-email/verify", { method: "POST", body: { code } }).then((r) => r.data),
    onSuccess: async ({ domain, verified_at }) => {
      updateSessionUser({ school_email_domain: domain, school_email_verified_at: verified_at });
      // The address itself comes back with the profile.
      const { data } = await apiRequest<ProfileResponse>("users/profile");
      authStore.setUser(data);
    },
  });

import type { NotificationSettings, PrivateUser } from "@contract/users";
import type { ProfileUpdate } from "@contract/profile";
import { apiRequest, uploadJson } from "../../../lib/api-client";

export const updateProfile = (input: ProfileUpdate) =>
  apiRequest<{ data: PrivateUser }>("users/profile", { method: "PATCH", body: input }).then((r) => r.data);

export const updateNotifications = (input: Partial<NotificationSettings>) =>
  apiRequest<{ data: NotificationSettings }>("users/notifications", { method: "PATCH", body: input }).then((r) => r.data);

export const deleteAccount = () => apiRequest<void>("users/profile", { method: "DELETE" });

export const uploadAvatar = (imageData: string, onProgress: (percent: number) => void) =>
  uploadJson<{ avatar_url: string }>("users/avatar-base64", { image_data: imageData }, onProgress);

import type { IdVerificationStatus } from "./constants";

export interface NotificationSettings {
  email_on_message: boolean;
  email_on_listing_review: boolean;
  email_on_verification_review: boolean;
}

/** The User of the spec, as its owner (and admins) see it. Never a password hash. */
export interface PrivateUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  university_id: number | null;
  university: string | null;
  avatar_url: string | null;
  created_at: string;
  is_verified: boolean;
  email_verification_status: "unverified" | "verified";
  id_verification_status: IdVerificationStatus;
  preferred_university_id: number | null;
  preferred_term: string | null;
  notification_settings: NotificationSettings;
}

/** What anyone may see of a user (GET users/{id}): no email, no phone. */
export interface PublicUser {
  id: string;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
  university: string | null;
  created_at: string;
  id_verified: boolean;
}

export interface Preferences {
  preferred_university_id: number | null;
  preferred_term: string | null;
}

/** GET/PATCH users/profile. */
export interface ProfileResponse {
  data: PrivateUser;
}

/** GET users/{id}. */
export interface PublicUserResponse {
  data: PublicUser;
}

/** GET/PATCH users/preferences. */
export interface PreferencesResponse {
  data: Preferences;
}

/** GET/PATCH users/notifications. */
export interface NotificationSettingsResponse {
  data: NotificationSettings;
}

/** POST users/avatar-base64. */
export interface AvatarResponse {
  avatar_url: string | null;
}

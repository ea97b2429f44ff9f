import { z } from "./zod";
import { LEASE_TERMS } from "./constants";
import { phoneSchema } from "./auth";
import { personName } from "./users";

export const profileUpdateSchema = z.object({
  first_name: personName("First name").optional(),
  last_name: personName("Last name").optional(),
  phone: phoneSchema.nullable().optional(),
  university_id: z.number().int().positive().nullable().optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const preferencesSchema = z.object({
  preferred_university_id: z.number().int().positive().nullable().optional(),
  preferred_term: z.enum(LEASE_TERMS).nullable().optional(),
});

export const notificationsSchema = z.object({
  email_on_message: z.boolean().optional(),
  email_on_listing_review: z.boolean().optional(),
  email_on_verification_review: z.boolean().optional(),
  email_on_saved_search: z.boolean().optional(),
});

export const avatarSchema = z.object({ image_data: z.string().min(1, "Please select an image file") });

/** What the profile page makes a person type before it deletes their account. */
export const DELETE_ACCOUNT_CONFIRMATION = "DELETE";

export interface UserStats {
  listings: number;
  favorites: number;
  conversations: number;
  unread_messages: number;
}

/** GET users/stats. */
export interface UserStatsResponse {
  data: UserStats;
}

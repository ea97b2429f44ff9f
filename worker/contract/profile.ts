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

const channelsSchema = z.object({ push: z.boolean().optional(), email: z.boolean().optional() }).strict();
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use HH:MM (24-hour)");
/** An IANA name the runtime knows ("Europe/Berlin"); anything else would make quiet hours guesswork. */
export const timeZoneName = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "Unknown time zone");
export const quietHoursSchema = z
  .object({ start: clock, end: clock, time_zone: timeZoneName })
  .refine((q) => q.start !== q.end, { message: "Quiet hours must start and end at different times", path: ["end"] });

export const notificationsSchema = z.object({
  messages: channelsSchema.optional(),
  deals: channelsSchema.optional(),
  saved_searches: channelsSchema.optional(),
  reviews: channelsSchema.optional(),
  quiet_hours: quietHoursSchema.nullable().optional(),
  email_on_message: z.boolean().optional(),
  email_on_listing_review: z.boolean().optional(),
  email_on_verification_review: z.boolean().optional(),
  email_on_saved_search: z.boolean().optional(),
});
export type NotificationsUpdate = z.infer<typeof notificationsSchema>;

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

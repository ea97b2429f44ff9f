import { z } from "zod";
import { LIMITS } from "./constants";

const reason = z.string().trim().max(LIMITS.rejectionReasonMax, "Reason must be at most 500 characters").nullable().optional();

/** A review: approve, or reject with a required reason. */
export const reviewSchema = z
  .object({ status: z.enum(["approved", "rejected"], "status must be approved or rejected"), rejection_reason: reason })
  .refine((r) => r.status === "approved" || !!r.rejection_reason, {
    message: "Please provide a reason for rejection",
    path: ["rejection_reason"],
  });

/** What staff may correct on any listing (moderation: fix a typo, a price, or hide it). */
export const adminListingEditSchema = z.object({
  title: z.string().trim().min(1, "Title is required").max(LIMITS.titleMaxApi, `Title must be at most ${LIMITS.titleMaxApi} characters`).optional(),
  description: z
    .string()
    .trim()
    .min(1, "Description is required")
    .max(LIMITS.descriptionMaxApi, `Description must be at most ${LIMITS.descriptionMaxApi} characters`)
    .optional(),
  monthly_rent: z.number().int().min(LIMITS.minRent, "Monthly rent must be at least 1").optional(),
  /** Staff's own state: hidden takes the listing out of public view until staff show it again. */
  moderation_status: z.enum(["visible", "hidden"]).optional(),
});

export const adminUserStatusSchema = z.object({ verification_status: z.enum(["unverified", "pending", "verified"]) });
export const adminLoginSchema = z.object({ password: z.string().min(1, "Password is required").max(200) });
export const deleteItemSchema = z.object({ tableName: z.string().min(1).max(64), itemId: z.string().min(1).max(64) });

/** Tables delete-item accepts; anything else is 400. */
export const DELETABLE_TABLES = ["users", "listings", "feedback", "verification_requests", "conversations", "messages"] as const;

export const feedbackSchema = z.object({
  email: z.string().trim().min(1, "Please fill in all fields").pipe(z.email("Please enter a valid email address").max(254)),
  message: z.string().trim().min(1, "Please fill in all fields").max(LIMITS.feedbackMessageMax, "Message is too long"),
});

export interface FeedbackItem {
  id: string;
  email: string;
  message: string;
  timestamp: string;
  archived: boolean;
}

export interface AdminStats {
  users: number;
  listings: number;
  conversations: number;
  messages: number;
  user_growth: { date: string; users: number }[];
}

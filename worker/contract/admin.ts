import { visibleText, z } from "./zod";
import { LIMITS } from "./limits";
import type { OwnerListing, Pagination } from "./listings";
import type { PrivateUser } from "./users";
import type { AdminDealStats, DealStatus } from "./deals";
export { NEXT_TOKEN_HEADER, STAFF_PAGE, staffPageSchema, staffSearch, type StaffSearch } from "./staff-lists";

const reason = visibleText({ multiline: true }).max(LIMITS.rejectionReasonMax, `Reason must be at most ${LIMITS.rejectionReasonMax} characters`).nullable().optional();

/** The answer to a review of a version that is no longer the listing's (409). */
export const LISTING_CHANGED_DETAIL = "This listing changed since you opened it. Review the new version.";

const reviewFields = z.object({ status: z.enum(["approved", "rejected"], "status must be approved or rejected"), rejection_reason: reason });
const reasonWhenRejected: [(r: { status: string; rejection_reason?: string | null }) => boolean, { message: string; path: string[] }] = [
  (r) => r.status === "approved" || !!r.rejection_reason,
  { message: "Please provide a reason for rejection", path: ["rejection_reason"] },
];

/** A review (of an identity document): approve, or reject with a required reason. */
export const reviewSchema = reviewFields.refine(...reasonWhenRejected);

/**
 * A listing review. `revision` is the version staff saw (the listing's `revision` as the staff lists
 * answered it): the decision applies to that version or is refused with 409. The panel always sends
 * it; without it (the API contract's bare body) the decision applies to the listing as it is.
 */
export const listingReviewSchema = reviewFields
  .extend({
    revision: z.number("revision must be a whole number").int("revision must be a whole number").min(0, "revision must be a whole number").optional(),
  })
  .refine(...reasonWhenRejected);

/** What staff may correct on any listing (moderation: fix a typo, a price, or hide it). */
export const adminListingEditSchema = z.object({
  title: visibleText().min(1, "Title is required").max(LIMITS.titleMaxApi, `Title must be at most ${LIMITS.titleMaxApi} characters`).optional(),
  description: visibleText({ multiline: true })
    .min(1, "Description is required")
    .max(LIMITS.descriptionMaxApi, `Description must be at most ${LIMITS.descriptionMaxApi} characters`)
    .optional(),
  monthly_rent: z.number().int().min(LIMITS.minRent, "Monthly rent must be at least 1").optional(),
  /** Staff's own state: hidden takes the listing out of public view until staff show it again. */
  moderation_status: z.enum(["visible", "hidden"]).optional(),
});

export const adminUserStatusSchema = z.object({ verification_status: z.enum(["unverified", "pending", "verified"]) });
export const adminLoginSchema = z.object({ password: z.string().min(1, "Password is required").max(200, "That password is too long: the staff password is at most 200 characters") });
export const deleteItemSchema = z.object({ tableName: z.string().min(1).max(64), itemId: z.string().min(1).max(64) });

/** Tables delete-item accepts; anything else is 400. */
export const DELETABLE_TABLES = ["users", "listings", "feedback", "verification_requests", "conversations", "messages"] as const;

/**
 * Where feedback was sent from, as kept: the path only (a query can carry a one-click token), with the
 * landlord's consent link's token left out of the path. Optional: `{email, message}` stays valid.
 */
export const feedbackPage = (path: string) => path.replace(/^(\/landlord-consent\/)[^/]+/, "$1…");

export const feedbackSchema = z.object({
  email: z.string().trim().min(1, "Please fill in all fields").pipe(z.email("Please enter a valid email address").max(254)),
  message: visibleText({ multiline: true }).min(1, "Please fill in all fields").max(LIMITS.feedbackMessageMax, "Message is too long"),
  page: z
    .string()
    .max(300, "Page is too long")
    .regex(/^\/[^\s?#]*$/, "Page must be a path such as /listing/abc")
    .transform(feedbackPage)
    .optional(),
});

export interface FeedbackItem {
  id: string;
  email: string;
  message: string;
  /** The page it was sent from (a path), or null when the sender did not say. */
  page: string | null;
  timestamp: string;
  archived: boolean;
}

/** What waits for staff, each counted as its tab lists it (the dashboard links to the tabs). */
export interface AdminQueues {
  /** Identity documents waiting for review (Users → Pending). */
  pending_ids: number;
  /** Listings waiting for approval (Listings → Pending). */
  pending_listings: number;
  /** Reports not yet resolved (Reports → Open). */
  open_reports: number;
  /** Conversations flagged since their last review (Safety). */
  safety_flags: number;
}

/**
 * GET admin/stats: every figure as its tab lists it, read from counts the database keeps on each write
 * (docs/decisions/038), so reading them scans no table whatever the market's size.
 */
export interface AdminStats {
  users: number;
  listings: number;
  conversations: number;
  messages: number;
  /** Listings waiting for review (Listings → Pending). */
  pending_listings: number;
  /** Listings with a promotion window (Listings → Promoted, lapsed ones until cleaned up). */
  promoted_listings: number;
  /** Identity documents waiting for review (Users → Pending). */
  pending_verifications: number;
  /** Feedback not archived (Feedback). */
  open_feedback: number;
  /** Deals by state (states without deals absent): the same figures as deals.by_status. */
  deals_by_state: Partial<Record<DealStatus, number>>;
  user_growth: { date: string; users: number }[];
  /** Deals by status and the money held, released and refunded (docs/decisions/029). */
  deals: AdminDealStats;
  queues: AdminQueues;
}

/* ---------- response bodies ---------- */

/** POST admin/login: 401 answers success false with the reason. */
export type AdminLoginResponse = { success: true; token: string } | { success: false; detail: string };

/** Answers of staff actions that return nothing else (unpromote). */
export interface SuccessResponse {
  success: true;
}

/** GET admin/tables. */
export interface AdminTablesResponse {
  tables: readonly (typeof DELETABLE_TABLES)[number][];
}

export interface AdminAuditEntry {
  id: string;
  actor: string;
  action: string;
  table: string | null;
  item_id: string | null;
  /** JSON text, or null. */
  details: string | null;
  created_at: string;
}

/** GET admin/audit: the newest 200 entries. */
export interface AdminAuditResponse {
  audit: AdminAuditEntry[];
}

/** A user as staff see them: the private view plus whether the account is suspended (docs/decisions/015). */
export interface AdminUser extends PrivateUser {
  suspended_at: string | null;
}

/** GET admin/users?limit&last_evaluated_key&q: newest first; a search of words, newest account first. */
export interface AdminUsersResponse {
  users: AdminUser[];
  pagination: Pagination;
}

/** PATCH admin/users/{id}/verify. */
export interface AdminUserResponse {
  success: true;
  user: PrivateUser;
}

/** A listing as staff see it: the owner's view plus the display aliases staff screens read (price, location). */
export interface AdminListing extends OwnerListing {
  price: number;
  location: string;
  /** Price check (docs/decisions/015): the median rent of similar approved listings, only when this rent is below half of it. */
  rent_check_median: number | null;
  /** The version staff see: a review sends it back, and is refused (409) once the listing moved on (docs/decisions/015). */
  revision: number;
  /** The price check on every listing, pending or edited (docs/decisions/015). */
  price_check: PriceCheck;
}

/**
 * The rent against similar listings: approved listings of the same university and unit type, this one
 * left out. `far_below` is the listing page's verdict (below half the median of at least 5 of them).
 */
export interface PriceCheck {
  /** How many similar approved listings there are. */
  comparables: number;
  /** Their median monthly rent (null when there are none). */
  median: number | null;
  far_below: boolean;
  /** The rent staff last approved (null: never approved), so a cut since then shows. */
  approved_rent: number | null;
}

/** Why the copied-photo check sends a listing to review (docs/decisions/028). */
export const PHOTO_MATCH_REASON = "Photos match another listing";

/** A picture of this listing matching one first posted by another owner (docs/decisions/028). */
export interface PhotoMatch {
  /** The other owner's listing and owner (name null when the account is gone). */
  listing_id: string;
  owner_id: string;
  owner_name: string | null;
  /** This listing's picture and when it was first posted, and the other listing's picture and its date. */
  picture: string;
  posted_at: string;
  matched_picture: string;
  matched_posted_at: string;
}

/** Staff's listing lists: each listing with its copied-photo check (docs/decisions/028). */
export interface AdminListingWithPhotoCheck extends AdminListing {
  /** At most 20; empty when none. */
  photo_matches: PhotoMatch[];
  /** Some photo is not hashed yet (within seconds of an upload): "photo check pending". */
  photo_check_pending: boolean;
  /** Pictures of a type not decoded on the server (WebP, GIF): not compared, by their URL. */
  photos_not_compared: string[];
  /** PHOTO_MATCH_REASON while a match stands, else null. */
  review_reason: string | null;
}

/** POST admin/listings/{id}/photo-matches/not-a-copy: a pair of pictures staff judged not a copy. */
export const notACopySchema = z.object({
  picture: z.string().trim().min(1).max(500),
  matched_picture: z.string().trim().min(1).max(500),
});

/**
 * GET admin/listings (newest first), admin/listings/pending (oldest first), admin/listings/promoted (by
 * the promotion's end), each with limit, last_evaluated_key and q (a search answers newest first).
 */
export interface AdminListingsResponse {
  listings: AdminListingWithPhotoCheck[];
  pagination: Pagination;
}

/** PATCH admin/listings/{id}/verify: changed is false when the listing already had that status. */
export interface AdminListingReviewResponse {
  success: true;
  changed: boolean;
  listing: AdminListing;
}

/** PATCH admin/listings/{id}. */
export interface AdminListingEditResponse {
  success: true;
  listing: AdminListing;
}

/** POST admin/listings/verify-all. */
export interface VerifyAllResponse {
  verified_count: number;
  total_listings: number;
}

/** POST admin/listings/{id}/promote. */
export interface AdminPromoteResponse {
  success: true;
  promotion_end: string;
}

/** POST admin/cleanup-expired-promotions. */
export interface CleanupPromotionsResponse {
  expired_count: number;
}

/** GET admin/stats. */
export interface AdminStatsResponse {
  stats: AdminStats;
}

/** DELETE admin/delete-item. */
export interface DeleteItemResponse {
  success: true;
  message: string;
}

export interface AdminConversation {
  id: string;
  participants: [string, string];
  listing_id: string | null;
  latest_message_preview: string | null;
  last_message_timestamp: string | null;
  created_at: string;
}

/** GET admin/conversations?limit&last_evaluated_key: most recently active first. */
export interface AdminConversationsResponse {
  conversations: AdminConversation[];
  pagination: Pagination;
}

export interface AdminMessage {
  id: string;
  sender_id: string;
  text: string;
  timestamp: string;
  is_read: boolean;
  conversation_id: string;
}

/** GET admin/conversations/{id}/messages?limit&last_evaluated_key: newest first. */
export interface AdminMessagesResponse {
  messages: AdminMessage[];
  pagination: Pagination;
}

/** POST feedback. */
export interface FeedbackSentResponse {
  id: string;
  message: string;
}

/** GET feedback/admin: a bare array, as staff's client reads it; the next page's cursor in NEXT_TOKEN_HEADER (none on the last page). */
export type FeedbackListResponse = FeedbackItem[];

/** PUT feedback/admin/{id}/status. */
export interface FeedbackArchiveResponse {
  success: true;
  data: FeedbackItem;
}

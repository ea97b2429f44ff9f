/**
 * Staff lists at any size (docs/decisions/038): every list is one keyset page of `limit` rows read from
 * its index (`limit + 1`, then `keysetPage`), and a search (`staffSearch`: an id, an email or words)
 * reads through an index too, so an answer reads about the same rows with 20,000 listings as with 20.
 * The cursor's shape follows the list's order (created_at or promotion_end with the id, or a text
 * search's rowid); any other is 400 "Invalid page token".
 */
import { z } from "zod";
import { staffSearch, type AdminListingWithPhotoCheck, type AdminUser, type FeedbackItem, type staffPageSchema } from "../contract/admin";
import type { Pagination } from "../contract/listings";
import type { AdminVerificationItem } from "../contract/verification";
import type { Db } from "../db/client";
import { recentConversations, type ConversationRow } from "../db/queries/conversations";
import { feedbackListPage } from "../db/queries/feedback";
import { staffListingsOf, staffListingsPage, type StaffListingsView } from "../db/queries/listings";
import { staffUsersPage, toPrivateUser } from "../db/queries/users";
import { requestsWithUsers, usersWithoutRequest } from "../db/queries/verification";
import { decodeCursor, keysetPage } from "../lib/cursor";
import { toFeedbackItem } from "./feedback";
import { toAdminListingsWithRentCheck } from "./listings";
import { withPhotoCheck } from "./photo-check";
import { toVerificationRequest } from "./verification";

export type StaffPage = z.infer<typeof staffPageSchema>;
type Page<T> = { items: T[]; pagination: Pagination };

const ID = z.string().min(1).max(64);
const TIME = z.string().min(1).max(40);
const createdKey = z.object({ c: TIME, id: ID });
const promotionKey = z.object({ e: TIME, id: ID });
const rowidKey = z.object({ r: z.number().int().positive() });
const timeKey = z.object({ t: TIME, id: ID });

/** A staff listing tab: the page's listings with the price check and the copied-photo check. */
export async function staffListings(db: Db, view: StaffListingsView, page: StaffPage): Promise<Page<AdminListingWithPhotoCheck>> {
  const search = staffSearch(page.q);
  const byWords = search?.kind === "text";
  const byPromotion = !search && view === "promoted";
  const after = decodeCursor(page.last_evaluated_key, byWords ? rowidKey : byPromotion ? promotionKey : createdKey);
  const rows = await staffListingsPage(db, view, search, after, page.limit + 1);
  const { items, pagination } = keysetPage(rows, page.limit, (last) =>
    byWords ? { r: last.row_id } : byPromotion ? { e: last.promotion_end ?? "", id: last.id } : { c: last.created_at, id: last.id },
  );
  return { items: await withPhotoCheck(db, await toAdminListingsWithRentCheck(db, await staffListingsOf(db, items))), pagination };
}

/** Staff's user list: newest first, or a search. */
export async function staffUsers(db: Db, page: StaffPage): Promise<Page<AdminUser>> {
  const search = staffSearch(page.q);
  const byWords = search?.kind === "text";
  const after = decodeCursor(page.last_evaluated_key, byWords ? rowidKey : createdKey);
  const rows = await staffUsersPage(db, search, after, page.limit + 1);
  const { items, pagination } = keysetPage(rows, page.limit, (last) => (byWords ? { r: last.rowid } : { c: last.createdAt, id: last.id }));
  return { items: items.map((u) => ({ ...toPrivateUser(u), suspended_at: u.suspendedAt })), pagination };
}

const fullName = (first: string, last: string) => `${first} ${last}`.trim();

/** Identity review: requests in one status (pending oldest first), or the users who never sent one. */
export async function staffVerifications(db: Db, status: "pending" | "unverified" | "approved" | "rejected", page: StaffPage): Promise<Page<AdminVerificationItem>> {
  const search = staffSearch(page.q);
  const after = decodeCursor(page.last_evaluated_key, timeKey);
  if (status === "unverified") {
    const rows = await usersWithoutRequest(db, search, after, page.limit + 1);
    const { items, pagination } = keysetPage(rows, page.limit, (last) => ({ t: last.createdAt, id: last.id }));
    return {
      items: items.map((u) => ({ id: null, user_id: u.id, status: "unverified", user_email: u.email, user_name: fullName(u.firstName, u.lastName), submitted_at: null })),
      pagination,
    };
  }
  const rows = await requestsWithUsers(db, status, search, after, page.limit + 1);
  const { items, pagination } = keysetPage(rows, page.limit, (last) => ({ t: last.request.submittedAt, id: last.request.id }));
  return { items: items.map((r) => ({ ...toVerificationRequest(r.request), user_email: r.email, user_name: fullName(r.first, r.last) })), pagination };
}

/** Feedback, active or archived, newest first; a search by id or the sender's email (words find nothing: feedback has no names). */
export async function staffFeedback(db: Db, archived: boolean, page: StaffPage): Promise<Page<FeedbackItem>> {
  const search = staffSearch(page.q);
  if (search?.kind === "text") return { items: [], pagination: { next_token: null, has_more: false } };
  const rows = await feedbackListPage(db, archived, search, decodeCursor(page.last_evaluated_key, createdKey), page.limit + 1);
  const { items, pagination } = keysetPage(rows, page.limit, (last) => ({ c: last.createdAt, id: last.id }));
  return { items: items.map(toFeedbackItem), pagination };
}

/** Conversations, most recently active first; a search by the conversation's id, or a participant's id or email. */
export async function staffConversations(db: Db, page: StaffPage): Promise<Page<ConversationRow>> {
  const search = staffSearch(page.q);
  if (search?.kind === "text") return { items: [], pagination: { next_token: null, has_more: false } };
  const rows = await recentConversations(db, search, decodeCursor(page.last_evaluated_key, timeKey), page.limit + 1);
  return keysetPage(rows, page.limit, (last) => ({ t: last.lastMessageAt ?? last.createdAt, id: last.id }));
}

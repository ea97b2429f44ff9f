/** Identity verification: requests, documents uploaded but not yet submitted, and the review. */
import { and, desc, eq, exists, lt, ne, notExists, or, sql } from "drizzle-orm";
import { inValues } from "../bounded";
import { ID_VERIFIED } from "../../contract/policies";
import type { Db } from "../client";
import { documentUploads, users, verificationRequests } from "../schema";
import type { StaffSearch } from "../../contract/admin";
import { userMatching } from "./users";

export type VerificationRequestRow = typeof verificationRequests.$inferSelect;
type ReviewedStatus = "approved" | "rejected";

export const rememberUpload = (db: Db, key: string, userId: string) => db.insert(documentUploads).values({ key, userId });

export const findRequest = (db: Db, id: string) => db.select().from(verificationRequests).where(eq(verificationRequests.id, id)).get();

/** A request made by the product itself (a rename after verification goes back to review). */
export const insertRequest = (db: Db, request: typeof verificationRequests.$inferInsert) => db.insert(verificationRequests).values(request);

export const deleteRequest = (db: Db, id: string) => db.delete(verificationRequests).where(eq(verificationRequests.id, id));

/** A user's newest request (the one a decision applies to). */
export const latestRequestOf = (db: Db, userId: string) =>
  db
    .select()
    .from(verificationRequests)
    .where(eq(verificationRequests.userId, userId))
    .orderBy(desc(verificationRequests.submittedAt), desc(verificationRequests.id))
    .get();

/**
 * Statements for db.batch: the user becomes pending (guarded: not already pending or verified),
 * the request is stored and its document stops counting as unsubmitted. The first one's changes
 * say whether the submission applied.
 */
export const submitRequest = (db: Db, request: typeof verificationRequests.$inferInsert & { documentKey: string }, now: string) =>
  [
    db
      .update(users)
      .set({ idVerificationStatus: "pending", updatedAt: now })
      .where(and(eq(users.id, request.userId), ne(users.idVerificationStatus, "pending"), ne(users.idVerificationStatus, ID_VERIFIED))),
    db.insert(verificationRequests).values(request),
    db.delete(documentUploads).where(eq(documentUploads.key, request.documentKey)),
  ] as const;

/** A staff page's place in its order (docs/decisions/038): the time (a request's submission, a user's creation) and id. */
export interface VerificationPageKey {
  t: string;
  id: string;
}

/** The user a staff search names: by id, by email, or among the newest accounts matching the words (usersMatching). */
const userOfSearch = (column: typeof users.id | typeof verificationRequests.userId, search: StaffSearch) =>
  search.kind === "id" ? eq(column, search.id) : search.kind === "email" ? eq(column, sql`(SELECT id FROM users WHERE email = ${search.email})`) : userMatching(column, search.text);

/**
 * Users who never sent a document, newest first, `limit` after the key (users_id_verification_idx;
 * every user without a request is unverified, so few are stepped over), or the one a search names.
 */
export const usersWithoutRequest = (db: Db, search: StaffSearch | null, after: VerificationPageKey | null, limit: number) =>
  db
    .select()
    .from(users)
    .where(
      and(
        eq(users.idVerificationStatus, "unverified"),
        notExists(db.select({ id: verificationRequests.id }).from(verificationRequests).where(eq(verificationRequests.userId, users.id))),
        search ? userOfSearch(users.id, search) : undefined,
        after ? sql`(${users.createdAt}, ${users.id}) < (${after.t}, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);

/**
 * Requests in one status with who sent them, `limit` after the key: pending oldest first (a queue), the
 * others newest first (verification_requests_status_idx); a search: the request, or its user's.
 */
export const requestsWithUsers = (db: Db, status: "pending" | ReviewedStatus, search: StaffSearch | null, after: VerificationPageKey | null, limit: number) => {
  const oldestFirst = status === "pending";
  const bySearch = search
    ? search.kind === "id"
      ? or(eq(verificationRequests.id, search.id), eq(verificationRequests.userId, search.id))
      : userOfSearch(verificationRequests.userId, search)
    : undefined;
  const seek = after
    ? oldestFirst
      ? sql`(${verificationRequests.submittedAt}, ${verificationRequests.id}) > (${after.t}, ${after.id})`
      : sql`(${verificationRequests.submittedAt}, ${verificationRequests.id}) < (${after.t}, ${after.id})`
    : undefined;
  return db
    .select({ request: verificationRequests, email: users.email, first: users.firstName, last: users.lastName })
    .from(verificationRequests)
    .innerJoin(users, eq(users.id, verificationRequests.userId))
    .where(and(eq(verificationRequests.status, status), bySearch, seek))
    .orderBy(...(oldestFirst ? [verificationRequests.submittedAt, verificationRequests.id] : [desc(verificationRequests.submittedAt), desc(verificationRequests.id)]))
    .limit(limit);
};

/**
 * Statements for db.batch: decides a pending request (guarded, so of two staff deciding at once
 * one wins) and, only when that applied, sets the user's identity status.
 */
export function decideRequest(db: Db, request: { id: string; userId: string }, status: ReviewedStatus, reason: string | null, now: string) {
  return [
    db
      .update(verificationRequests)
      .set({ status, rejectionReason: status === "rejected" ? reason : null, reviewedAt: now })
      .where(and(eq(verificationRequests.id, request.id), eq(verificationRequests.status, "pending"))),
    db
      .update(users)
      .set({ idVerificationStatus: status === "approved" ? ID_VERIFIED : "rejected", updatedAt: now })
      // Only when the guarded update above applied (it stamped reviewed_at with this instant).
      .where(
        and(
          eq(users.id, request.userId),
          exists(
            db
              .select({ id: verificationRequests.id })
              .from(verificationRequests)
              .where(and(eq(verificationRequests.id, request.id), eq(verificationRequests.reviewedAt, now), eq(verificationRequests.status, status))),
          ),
        ),
      ),
  ] as const;
}

/** Keys of documents uploaded before `before` and never submitted (at most 500). */
export const unsubmittedUploads = (db: Db, before: string) =>
  db.select({ key: documentUploads.key }).from(documentUploads).where(lt(documentUploads.createdAt, before)).limit(500);

export const forgetUploads = (db: Db, keys: string[]) => db.delete(documentUploads).where(inValues(documentUploads.key, keys));

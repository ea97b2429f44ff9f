import { desc, eq } from "drizzle-orm";
import type { PrivateUser, PublicUser } from "../../contract/users";
import type { IdVerificationStatus } from "../../contract/constants";
import type { Db } from "../client";
import { universities, users } from "../schema";

export type UserRow = typeof users.$inferSelect;
type UserWithUniversity = UserRow & { universityName: string | null };

/** Public URL of an object in the IMAGES bucket (served by GET /api/v1/images/{key}). */
export const imageUrl = (key: string | null): string | null => (key ? `/api/v1/images/${key}` : null);

/** Users with their university's name (one join; the base of every user read that shows a profile). */
const selectUsersWithUniversity = (db: Db) =>
  db.select({ user: users, universityName: universities.name }).from(users).leftJoin(universities, eq(users.universityId, universities.id));

const flatten = (row: { user: UserRow; universityName: string | null }): UserWithUniversity => ({
  ...row.user,
  universityName: row.universityName,
});

export async function findUserById(db: Db, id: string): Promise<UserWithUniversity | null> {
  const row = await selectUsersWithUniversity(db).where(eq(users.id, id)).get();
  return row ? flatten(row) : null;
}

/** The newest users, for staff (one query, whatever the count). */
export async function listUsers(db: Db, limit: number): Promise<UserWithUniversity[]> {
  return (await selectUsersWithUniversity(db).orderBy(desc(users.createdAt), desc(users.id)).limit(limit)).map(flatten);
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  return (await db.select().from(users).where(eq(users.email, normalizeEmail(email))).get()) ?? null;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The user as its owner sees it: never a password hash or Google subject. */
export function toPrivateUser(u: UserWithUniversity): PrivateUser {
  return {
    id: u.id,
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    phone: u.phone,
    university_id: u.universityId,
    university: u.universityName,
    avatar_url: imageUrl(u.avatarKey),
    created_at: u.createdAt,
    is_verified: u.emailVerificationStatus === "verified",
    email_verification_status: u.emailVerificationStatus === "verified" ? "verified" : "unverified",
    id_verification_status: u.idVerificationStatus as IdVerificationStatus,
    preferred_university_id: u.preferredUniversityId,
    preferred_term: u.preferredTerm,
    notification_settings: {
      email_on_message: u.emailOnMessage,
      email_on_listing_review: u.emailOnListingReview,
      email_on_verification_review: u.emailOnVerificationReview,
    },
  };
}

/** What anyone may see: no email, no phone. */
export function toPublicUser(u: UserWithUniversity): PublicUser {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    avatar_url: imageUrl(u.avatarKey),
    university: u.universityName,
    created_at: u.createdAt,
    id_verified: u.idVerificationStatus === "verified" || u.idVerificationStatus === "approved",
  };
}

import { and, count, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { IdVerificationStatus } from "../../contract/constants";
import { isIdVerified } from "../../contract/policies";
import type { UserStats } from "../../contract/profile";
import { liveSchoolEmailDomain, type PrivateUser, type PublicUser, type QuietHours } from "../../contract/users";
import { isoNow } from "../../lib/time";
import { imageUrl } from "../../lib/image-url";
import type { Db } from "../client";
import { conversations, favorites, listings, universities, users } from "../schema";
import { unreadCountQuery } from "./conversations";
import type { StaffSearch } from "../../contract/admin";
import { ftsQuery } from "../browse/filters";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export type UserRow = typeof users.$inferSelect;
type UserWithUniversity = UserRow & { universityName: string | null };

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

/** At most this many accounts a staff search of words reaches through another list (identity requests): the newest matching. */
export const PEOPLE_PER_SEARCH = 200;

/**
 * SQL: `column` (a user id) is one of the newest PEOPLE_PER_SEARCH accounts whose names or email words
 * start with the words (users_fts), for a list that finds rows by their person.
 */
export function userMatching(column: SQLiteColumn, text: string) {
  const match = ftsQuery(text);
  if (!match) return sql`0`;
  return sql`${column} IN (SELECT id FROM users WHERE rowid IN (SELECT rowid FROM users_fts WHERE users_fts MATCH ${match} ORDER BY rowid DESC LIMIT ${PEOPLE_PER_SEARCH}))`;
}

/** A staff page's place: created_at and id, or a search's rowid (`r`). */
export type StaffUsersKey = { c: string; id: string } | { r: number };

/**
 * One page of staff's user list (docs/decisions/038): newest first through users_created_at_idx; an id
 * or an email, that one account; words, the full-text index of names and email words, newest account
 * first (by rowid). Each row carries its rowid (a search's key).
 */
export async function staffUsersPage(db: Db, search: StaffSearch | null, after: StaffUsersKey | null, limit: number): Promise<(UserWithUniversity & { rowid: number })[]> {
  const select = db.select({ user: users, universityName: universities.name, rowid: sql<number>`${users}.rowid` }).from(users).leftJoin(universities, eq(users.universityId, universities.id));
  let rows;
  if (search?.kind === "text") {
    const match = ftsQuery(search.text);
    if (!match) return [];
    const seek = after && "r" in after ? sql`AND rowid < ${after.r}` : sql``;
    rows = await select
      .where(sql`${users}.rowid IN (SELECT rowid FROM users_fts WHERE users_fts MATCH ${match} ${seek} ORDER BY rowid DESC LIMIT ${limit})`)
      .orderBy(sql`${users}.rowid DESC`);
  } else if (search) {
    rows = await select.where(search.kind === "id" ? eq(users.id, search.id) : eq(users.email, search.email)).limit(limit);
  } else {
    const seek = after && "c" in after ? sql`(${users.createdAt}, ${users.id}) < (${after.c}, ${after.id})` : undefined;
    rows = await select.where(seek).orderBy(desc(users.createdAt), desc(users.id)).limit(limit);
  }
  return rows.map((r) => ({ ...flatten(r), rowid: r.rowid }));
}

/**
 * Whether the account exists and whether it is suspended, in one narrow read (a socket ticket or an
 * emailed link outlives a deleted or suspended account): null when there is no such account.
 */
export async function accountStanding(db: Db, id: string): Promise<{ id: string; suspended: boolean } | null> {
  const row = await db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, id)).get();
  return row ? { id, suspended: !!row.suspendedAt } : null;
}

/** Whether the account exists and is not suspended. */
export async function isActiveUser(db: Db, id: string): Promise<boolean> {
  const standing = await accountStanding(db, id);
  return !!standing && !standing.suspended;
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
      messages: { push: u.pushOnMessage, email: u.emailOnMessage },
      deals: { push: u.pushOnDeal, email: u.emailOnDeal },
      saved_searches: { push: u.pushOnSavedSearch, email: u.emailOnSavedSearch },
      // Either review email on: reviews are emailed (each flag is one of them).
      reviews: { push: u.pushOnReview, email: u.emailOnListingReview || u.emailOnVerificationReview },
      quiet_hours: u.quietHours ? (JSON.parse(u.quietHours) as QuietHours) : null,
      email_on_message: u.emailOnMessage,
      email_on_listing_review: u.emailOnListingReview,
      email_on_verification_review: u.emailOnVerificationReview,
      email_on_saved_search: u.emailOnSavedSearch,
    },
    school_email_domain: liveSchoolEmailDomain(u.schoolEmailDomain, u.schoolEmailVerifiedAt),
    school_email: u.schoolEmail,
    school_email_verified_at: u.schoolEmailVerifiedAt,
  };
}

/** What anyone may see: no email, no phone. */
/** What anyone may see of a user; the route adds the response time (a query of its own). */
export function toPublicUser(u: UserWithUniversity): Omit<PublicUser, "response_time"> {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    avatar_url: imageUrl(u.avatarKey),
    university: u.universityName,
    created_at: u.createdAt,
    id_verified: isIdVerified({ id_verification_status: u.idVerificationStatus }),
    school_email_domain: liveSchoolEmailDomain(u.schoolEmailDomain, u.schoolEmailVerifiedAt),
  };
}

export const findUserByGoogleSub = async (db: Db, sub: string): Promise<UserRow | null> =>
  (await db.select().from(users).where(eq(users.googleSub, sub)).get()) ?? null;

export const insertUser = (db: Db, values: typeof users.$inferInsert) => db.insert(users).values(values);

type UserChanges = Partial<Omit<typeof users.$inferInsert, "id" | "email" | "createdAt">>;

/** Changes one user and stamps updated_at (a statement, for db.batch or await). */
export const updateUser = (db: Db, id: string, changes: UserChanges) =>
  db
    .update(users)
    .set({ ...changes, updatedAt: isoNow() })
    .where(eq(users.id, id));

/**
 * Ends every access token of the user at once (requireUser compares the version; a statement, for
 * db.batch with the change that calls for it: a password reset, Google taking over an account).
 */
export const bumpTokenVersion = (db: Db, id: string) =>
  db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: isoNow() })
    .where(eq(users.id, id));

/** Changes one user without stamping updated_at (a password rehash at sign-in is not an edit). */
export const updateUserQuietly = (db: Db, id: string, changes: UserChanges) => db.update(users).set(changes).where(eq(users.id, id));

export async function updatePreferences(db: Db, id: string, changes: Pick<UserChanges, "preferredUniversityId" | "preferredTerm">) {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: isoNow() })
    .where(eq(users.id, id))
    .returning({ preferredUniversityId: users.preferredUniversityId, preferredTerm: users.preferredTerm });
  return row!;
}

/** The counts of the profile page, in one round trip. */
export async function userStats(db: Db, userId: string): Promise<UserStats> {
  const mine = or(eq(conversations.userA, userId), eq(conversations.userB, userId));
  const [[l], [f], [conv], [unread]] = await db.batch([
    db.select({ n: count() }).from(listings).where(eq(listings.userId, userId)),
    db.select({ n: count() }).from(favorites).where(eq(favorites.userId, userId)),
    db.select({ n: count() }).from(conversations).where(mine),
    // The same definition as GET messages/unread-count.
    unreadCountQuery(db, userId),
  ]);
  return { listings: l?.n ?? 0, favorites: f?.n ?? 0, conversations: conv?.n ?? 0, unread_messages: unread?.n ?? 0 };
}

/** The account holding this confirmed school address by its canonical form, if any (one account per address). */
export async function findUserBySchoolEmail(db: Db, canonical: string): Promise<Pick<UserRow, "id"> | null> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.schoolEmailCanonical, canonical)).get()) ?? null;
}

/**
 * Gives the account its sign-up address as its school address unless it has one already; the unique
 * canonical index refuses it when another account holds that address (the earlier one keeps it). True
 * when it was given.
 */
export const giveSchoolEmailIfNone = (db: Db, id: string, school: { email: string; canonical: string; domain: string; verifiedAt: string }) =>
  db
    .update(users)
    .set({ schoolEmail: school.email, schoolEmailCanonical: school.canonical, schoolEmailDomain: school.domain, schoolEmailVerifiedAt: school.verifiedAt, updatedAt: isoNow() })
    .where(and(eq(users.id, id), isNull(users.schoolEmail)))
    .run()
    .then((r) => r.meta.changes > 0);

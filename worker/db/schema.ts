/**
 * The database schema: the single source of truth. Migrations in /migrations are generated from
 * this file by `npm run db:generate` (drizzle-kit) and never edited after they land.
 *
 * Conventions: ids of people-facing rows are opaque random strings (lib/ids.ts); university ids are
 * integers. Timestamps are ISO 8601 UTC strings, which sort correctly as text. Booleans are 0/1.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  EMAIL_VERIFICATION_STATUSES,
  ID_VERIFICATION_STATUSES,
  LISTING_REVIEW_STATUSES,
  MODERATION_STATUSES,
  STORED_LISTING_STATUSES,
  VERIFICATION_REQUEST_STATUSES,
} from "../contract/constants";
import { DEAL_CASE_REASONS, DEAL_STATUSES, LANDLORD_CONSENT_STATUSES, PAYMENT_STATUSES } from "../contract/deals";
import { BROWSE_INDEX, DISTANCE_BAND_SQL, LISTING_INDEX, LONG_STAY_SQL, MONTH_OF } from "./browse/indexes";

const createdAt = () =>
  text("created_at")
    .notNull()
    .default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

export const universities = sqliteTable(
  "universities",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    abbreviation: text("abbreviation").notNull(),
    state: text("state").notNull(),
    /** The main campus (IPEDS directory data, migration 0012); null where unknown (docs/decisions/019). */
    latitude: real("latitude"),
    longitude: real("longitude"),
  },
  (t) => [uniqueIndex("universities_name_unique").on(t.name)],
);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Stored lower-cased; unique. */
    email: text("email").notNull(),
    /** `scrypt$N$r$p$salt$hash` (parameters beside the hash so they can be raised later); null for Google-only accounts. */
    passwordHash: text("password_hash"),
    googleSub: text("google_sub"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone"),
    universityId: integer("university_id").references(() => universities.id),
    /** Key of the avatar in the public IMAGES bucket. */
    avatarKey: text("avatar_key"),
    /** unverified | verified */
    emailVerificationStatus: text("email_verification_status", { enum: EMAIL_VERIFICATION_STATUSES }).notNull().default("unverified"),
    /** unverified | pending | approved | verified | rejected */
    idVerificationStatus: text("id_verification_status", { enum: ID_VERIFICATION_STATUSES }).notNull().default("unverified"),
    preferredUniversityId: integer("preferred_university_id").references(() => universities.id),
    preferredTerm: text("preferred_term"),
    emailOnMessage: integer("email_on_message", { mode: "boolean" }).notNull().default(true),
    emailOnListingReview: integer("email_on_listing_review", { mode: "boolean" }).notNull().default(true),
    emailOnVerificationReview: integer("email_on_verification_review", { mode: "boolean" })
      .notNull()
      .default(true),
    /** Saved-search alerts (docs/decisions/020): off stops every alert email whatever each search says. */
    emailOnSavedSearch: integer("email_on_saved_search", { mode: "boolean" }).notNull().default(true),
    /** Per-kind push switches (docs/decisions/027); the email_on_* columns are each kind's `email`. */
    pushOnMessage: integer("push_on_message", { mode: "boolean" }).notNull().default(true),
    pushOnDeal: integer("push_on_deal", { mode: "boolean" }).notNull().default(true),
    emailOnDeal: integer("email_on_deal", { mode: "boolean" }).notNull().default(true),
    pushOnSavedSearch: integer("push_on_saved_search", { mode: "boolean" }).notNull().default(true),
    pushOnReview: integer("push_on_review", { mode: "boolean" }).notNull().default(true),
    /** JSON `{start, end, time_zone}` ("HH:MM", IANA name) or null: pushes wait and one summary follows. */
    quietHours: text("quiet_hours"),
    /** Set by staff acting on a report: the account cannot sign in and its listings leave browse. */
    suspendedAt: text("suspended_at"),
    /**
     * Embedded in every access token and compared on each request: a password reset or change bumps
     * it, so access tokens issued before it stop working at once (not 15 minutes later).
     */
    tokenVersion: integer("token_version").notNull().default(0),
    /** The confirmed school address (docs/decisions/028) as typed (lower-cased): private, one per account. */
    schoolEmail: text("school_email"),
    /**
     * The confirmed address without its `+tag` and case (`ana+1@ufl.edu` is `ana@ufl.edu`): unique across
     * accounts, so one inbox earns one badge; the earliest verified keeps it (docs/decisions/032).
     */
    schoolEmailCanonical: text("school_email_canonical"),
    /** The listed university domain the badge shows ("ufl.edu"). */
    schoolEmailDomain: text("school_email_domain"),
    /** When the code was confirmed; the badge lapses a year later until reconfirmed. */
    schoolEmailVerifiedAt: text("school_email_verified_at"),
    /** The address a school email code was last sent to, awaiting that code. */
    schoolEmailPending: text("school_email_pending"),
    /**
     * The legal name: first and last name as they stood when the identity was verified (what a deal's
     * agreement names and signing compares). Set by the database on every path that makes a user
     * `verified` (triggers in migration 0025; docs/decisions/026); a rename afterwards goes back to review.
     */
    legalFirstName: text("legal_first_name"),
    legalLastName: text("legal_last_name"),
    legalNameAt: text("legal_name_at"),
    /**
     * The visible reviews of this user as a lister and as a renter (docs/decisions/040): their count and
     * the sum of their ratings, recomputed from `reviews` in the batch of every change that moves them
     * (a reveal, a hide, a deal leaving or re-entering `released`), so a page reads them with the user.
     */
    listerReviewCount: integer("lister_review_count").notNull().default(0),
    listerReviewSum: integer("lister_review_sum").notNull().default(0),
    renterReviewCount: integer("renter_review_count").notNull().default(0),
    renterReviewSum: integer("renter_review_sum").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: text("updated_at"),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_school_email_canonical_unique").on(t.schoolEmailCanonical),
    uniqueIndex("users_google_sub_unique").on(t.googleSub),
    // Staff's user list, newest first (keyset on created_at, id).
    index("users_created_at_idx").on(t.createdAt, t.id),
    index("users_id_verification_idx").on(t.idVerificationStatus, t.createdAt, t.id),
  ],
);

/** One-time 6-digit codes sent by email (email verification, password reset, sign-in). Only a hash is kept. */
export const emailCodes = sqliteTable(
  "email_codes",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** verify_email | reset_password | sign_in */
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    /** SHA-256 of the requesting client's throttling key: send limits per address, own-code checks (decision 010). */
    requesterHash: text("requester_hash"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("email_codes_lookup_idx").on(t.email, t.purpose, t.createdAt),
    index("email_codes_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Failed sign-ins and failed code checks (services/auth-throttle.ts, decision 010): per account and
 * address in one-minute windows, and per account in UTC-day windows (with the back-off's clock). The
 * key is a SHA-256 of action, email (and address), so this table holds no addresses. The geocoder's
 * daily call counts (per user and in all, services/geo.ts) are day windows here too.
 */
export const authThrottle = sqliteTable(
  "auth_throttle",
  {
    key: text("key").notNull(),
    /** Start of the window (a minute or a UTC day), epoch milliseconds. */
    windowStart: integer("window_start").notNull(),
    failures: integer("failures").notNull().default(0),
    /** Day windows: when the last counted attempt came (epoch ms); the back-off waits from it. */
    lastFailureAt: integer("last_failure_at"),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("auth_throttle_window_idx").on(t.windowStart)],
);

/**
 * Addresses (a SHA-256 of the throttling key, IPv6 by /64) from which an account proved itself with its
 * password or an emailed code (services/auth-throttle.ts, decision 010): there the owner's budgets are
 * their own, which guessers elsewhere cannot spend. Forgotten 90 days after the last proof (cron).
 */
export const knownAddresses = sqliteTable(
  "known_addresses",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addressHash: text("address_hash").notNull(),
    /** Epoch milliseconds of the last proof from there. */
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.addressHash] }), index("known_addresses_seen_idx").on(t.lastSeenAt)],
);

/**
 * Coordinates of Google places this server resolved (services/geo.ts, decision 019), read for at most
 * 30 days after `fetched_at` (Google's terms) and deleted by the cron after that.
 */
export const placeCache = sqliteTable(
  "place_cache",
  {
    placeId: text("place_id").primaryKey(),
    description: text("description").notNull(),
    latitude: real("latitude").notNull(),
    longitude: real("longitude").notNull(),
    /** Epoch milliseconds of the Place Details answer. */
    fetchedAt: integer("fetched_at").notNull(),
  },
  (t) => [index("place_cache_fetched_idx").on(t.fetchedAt)],
);

/**
 * Tries at the emailed codes of an email, per address (a SHA-256 of the throttling key, IPv6 by /64),
 * recorded against the newest code compared (services/email-codes.ts): an address has 5 tries at the
 * live codes of an email and purpose, so a guesser elsewhere cannot spend the owner's; `compared`
 * (codes compared by those tries) feeds the email's daily ceiling. The code's own `attempts` is the
 * total across addresses.
 */
export const emailCodeTries = sqliteTable(
  "email_code_tries",
  {
    codeId: text("code_id")
      .notNull()
      .references(() => emailCodes.id, { onDelete: "cascade" }),
    addressHash: text("address_hash").notNull(),
    tries: integer("tries").notNull().default(0),
    compared: integer("compared").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.codeId, t.addressHash] })],
);

/** Staff tokens ended by logout before their 2-hour expiry (admin tokens are otherwise stateless JWTs). */
export const revokedAdminTokens = sqliteTable(
  "revoked_admin_tokens",
  {
    jti: text("jti").primaryKey(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("revoked_admin_tokens_expires_idx").on(t.expiresAt)],
);

/** Rotating refresh tokens. A family is one sign-in; reuse of a rotated token revokes the family. */
export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** The family's absolute end (sign-in + 90 days): rotation never extends a session past it. Null on rows from before it existed. */
    familyExpiresAt: text("family_expires_at"),
    rotatedAt: text("rotated_at"),
    /**
     * The pair this token was rotated into, encrypted with a key derived from this token (so only its
     * holder can read it): a second tab refreshing within the grace window gets the same pair.
     */
    successor: text("successor"),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_unique").on(t.tokenHash),
    index("refresh_tokens_user_idx").on(t.userId),
    index("refresh_tokens_family_idx").on(t.familyId),
    index("refresh_tokens_expires_idx").on(t.expiresAt),
  ],
);

export const listings = sqliteTable(
  "listings",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    universityId: integer("university_id")
      .notNull()
      .references(() => universities.id),
    title: text("title").notNull(),
    description: text("description").notNull(),
    /** studio | 1x1 | 1x2 | 2x1 | 2x2 | 3x1 | 3x2 | 3x3 | 4x2 | 4x3 | 4x4 | other */
    unitType: text("unit_type").notNull(),
    address: text("address").notNull(),
    /**
     * The address as the public reads and searches it (contract/address.ts publicAddress, decision 024):
     * street and area, no house number or unit. Written with the address; NULL only on rows from before
     * migration 0026 until the worker's backfill reaches them (reads compute it meanwhile).
     */
    addressPublic: text("address_public"),
    monthlyRent: integer("monthly_rent").notNull(),
    /** fall | spring | summer */
    leaseTerm: text("lease_term").notNull(),
    /** The exact stay offered, `YYYY-MM-DD` each (both or neither; null on listings made before dates existed; docs/decisions/021). */
    availableFrom: text("available_from"),
    availableTo: text("available_to"),
    /**
     * The calendar month of each date as one number (year * 12 + month - 1): the cell a listing's stay
     * sits in, which the browse indexes below walk for "I need it from ... to ..." (docs/decisions/021).
     */
    availableFromMonth: integer("available_from_month").generatedAlwaysAs(sql.raw(MONTH_OF("available_from")), { mode: "virtual" }),
    availableToMonth: integer("available_to_month").generatedAlwaysAs(sql.raw(MONTH_OF("available_to")), { mode: "virtual" }),
    /** Where the place is, as the address autocomplete gave it (both or neither; never guessed). */
    latitude: real("latitude"),
    longitude: real("longitude"),
    /** Miles from the place to its university's campus, computed on write; null when either is unknown. */
    distanceMiles: real("distance_miles"),
    /**
     * The distance sort's key: unknown distances sort after every known one (a generated column, so
     * the browse indexes can walk it in order and the keyset cursor stays one number).
     */
    distanceKey: real("distance_key").generatedAlwaysAs(sql`ifnull(distance_miles, 100000)`, { mode: "virtual" }),
    /** The distance in whole miles rounded up: the cell "within N miles" reads in another order (docs/decisions/021). */
    distanceBand: integer("distance_band").generatedAlwaysAs(sql.raw(DISTANCE_BAND_SQL), { mode: "virtual" }),
    parking: integer("parking", { mode: "boolean" }).notNull().default(false),
    allowPets: integer("allow_pets", { mode: "boolean" }).notNull().default(false),
    /** no_preference | male_preferred | female_preferred */
    genderPreference: text("gender_preference").notNull().default("no_preference"),
    /** pending | approved | rejected */
    verificationStatus: text("verification_status", { enum: LISTING_REVIEW_STATUSES }).notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    /** Why the photo check sent it to review ("Photos match another listing"), or null (docs/decisions/028). */
    reviewReason: text("review_reason"),
    /**
     * The owner's own state: available | taken | hidden, or paused, which only the freshness check sets
     * (not confirmed as available for 21 days; the owner's Confirm availability makes it available).
     */
    status: text("status", { enum: STORED_LISTING_STATUSES }).notNull().default("available"),
    /**
     * Staff's state, which only staff change: visible | hidden | suspended (the owner's account is
     * suspended; lifting the suspension makes these visible again). Anything but visible is public to nobody.
     */
    moderationStatus: text("moderation_status", { enum: MODERATION_STATUSES }).notNull().default("visible"),
    /** When the owner last said the place is still available (creation counts); drives the freshness check. */
    availabilityConfirmedAt: text("availability_confirmed_at"),
    /** When the owner was last emailed "Is {title} still available?" (at most every 14 days). */
    availabilityAskedAt: text("availability_asked_at"),
    /** Promotion window; promoted while now is inside it. */
    promotionStart: text("promotion_start"),
    promotionEnd: text("promotion_end"),
    /** stripe | admin */
    promotionSource: text("promotion_source"),
    /** Set when a promotion was bought while the listing was pending: it starts on approval. */
    promotionPendingDays: integer("promotion_pending_days"),
    autoRenew: integer("auto_renew", { mode: "boolean" }).notNull().default(false),
    stripeSubscriptionId: text("stripe_subscription_id"),
    /**
     * Bumped by every write of the promotion columns or of the listing's Stripe subscriptions, and
     * checked by the write (compare-and-set): no promotion write is based on a stale read (decision 013).
     */
    promotionVersion: integer("promotion_version").notNull().default(0),
    /**
     * The version staff review: bumped by every owner or staff edit and every review decision; a
     * review names the revision it saw and is refused (409) when it moved (docs/decisions/015).
     */
    revision: integer("revision").notNull().default(0),
    /** The rent staff last approved (null: never approved); an owner's cut of more than a quarter from it goes back to review. */
    approvedRent: integer("approved_rent"),
    createdAt: createdAt(),
    updatedAt: text("updated_at"),
  },
  (t) => [
    // Browse: every public query filters on verification_status + status, then sorts.
    index("listings_browse_newest_idx").on(t.verificationStatus, t.status, t.createdAt, t.id),
    index("listings_browse_price_idx").on(t.verificationStatus, t.status, t.monthlyRent, t.id),
    index("listings_browse_university_newest_idx").on(
      t.universityId,
      t.verificationStatus,
      t.status,
      t.createdAt,
      t.id,
    ),
    // The hero's most common pick: a university and a term, newest first.
    index("listings_browse_university_term_newest_idx").on(
      t.universityId,
      t.leaseTerm,
      t.verificationStatus,
      t.status,
      t.createdAt,
      t.id,
    ),
    // A term with the stay needed (docs/decisions/021), any university: the dates are checked along this walk,
    // where most rows of the term match (the newest index would check every term's rows).
    index("listings_browse_term_newest_idx").on(t.leaseTerm, t.verificationStatus, t.status, t.createdAt, t.id),
    index("listings_browse_university_price_idx").on(
      t.universityId,
      t.verificationStatus,
      t.status,
      t.monthlyRent,
      t.id,
    ),
    // Closest to campus first, and "within N miles" (docs/decisions/019).
    index("listings_browse_distance_idx").on(t.verificationStatus, t.status, t.distanceKey, t.id),
    index("listings_browse_university_distance_idx").on(t.universityId, t.verificationStatus, t.status, t.distanceKey, t.id),
    // A stay needed (docs/decisions/021): listings in one cell (the months of their dates),
    // in each sort's order; browse merges the cells that can cover the stay. Stays longer than
    // STAY_CELL_SPAN months are few: their own small indexes.
    index(BROWSE_INDEX.stay.newest).on(t.availableFromMonth, t.availableToMonth, t.verificationStatus, t.status, t.createdAt, t.id),
    index(BROWSE_INDEX.stay.price).on(t.availableFromMonth, t.availableToMonth, t.verificationStatus, t.status, t.monthlyRent, t.id),
    index(BROWSE_INDEX.stay.distance).on(t.availableFromMonth, t.availableToMonth, t.verificationStatus, t.status, t.distanceKey, t.id),
    index(BROWSE_INDEX.universityStay.newest).on(t.universityId, t.availableFromMonth, t.availableToMonth, t.verificationStatus, t.status, t.createdAt, t.id),
    index(BROWSE_INDEX.universityStay.price).on(t.universityId, t.availableFromMonth, t.availableToMonth, t.verificationStatus, t.status, t.monthlyRent, t.id),
    index(BROWSE_INDEX.universityStay.distance).on(t.universityId, t.availableFromMonth, t.availableToMonth, t.verificationStatus, t.status, t.distanceKey, t.id),
    index(BROWSE_INDEX.longStay.newest).on(t.verificationStatus, t.status, t.createdAt, t.id).where(sql.raw(LONG_STAY_SQL)),
    index(BROWSE_INDEX.longStay.price).on(t.verificationStatus, t.status, t.monthlyRent, t.id).where(sql.raw(LONG_STAY_SQL)),
    index(BROWSE_INDEX.longStay.distance).on(t.verificationStatus, t.status, t.distanceKey, t.id).where(sql.raw(LONG_STAY_SQL)),
    // Within N miles, newest first or by price: listings in one distance band, in the sort's order.
    index(BROWSE_INDEX.distanceBand.newest).on(t.distanceBand, t.verificationStatus, t.status, t.createdAt, t.id),
    index(BROWSE_INDEX.distanceBand.price).on(t.distanceBand, t.verificationStatus, t.status, t.monthlyRent, t.id),
    index(BROWSE_INDEX.universityDistanceBand.newest).on(t.universityId, t.distanceBand, t.verificationStatus, t.status, t.createdAt, t.id),
    index(BROWSE_INDEX.universityDistanceBand.price).on(t.universityId, t.distanceBand, t.verificationStatus, t.status, t.monthlyRent, t.id),
    index(BROWSE_INDEX.promotionEnd).on(t.promotionEnd),
    // The promoted phase in each sort's order: only listings with a promotion (docs/decisions/038).
    index(BROWSE_INDEX.promoted.newest).on(t.verificationStatus, t.status, t.createdAt, t.id).where(sql`promotion_end IS NOT NULL`),
    index(BROWSE_INDEX.promoted.price).on(t.verificationStatus, t.status, t.monthlyRent, t.id).where(sql`promotion_end IS NOT NULL`),
    index(BROWSE_INDEX.promoted.distance).on(t.verificationStatus, t.status, t.distanceKey, t.id).where(sql`promotion_end IS NOT NULL`),
    index(BROWSE_INDEX.universityPromoted.newest).on(t.universityId, t.verificationStatus, t.status, t.createdAt, t.id).where(sql`promotion_end IS NOT NULL`),
    index(BROWSE_INDEX.universityPromoted.price).on(t.universityId, t.verificationStatus, t.status, t.monthlyRent, t.id).where(sql`promotion_end IS NOT NULL`),
    index(BROWSE_INDEX.universityPromoted.distance).on(t.universityId, t.verificationStatus, t.status, t.distanceKey, t.id).where(sql`promotion_end IS NOT NULL`),
    index("listings_user_idx").on(t.userId, t.createdAt),
    // The freshness check walks available listings by their last confirmation.
    index(LISTING_INDEX.availability).on(t.status, t.availabilityConfirmedAt),
    // Price check: the newest approved listings of one university and unit type, their rents read from the index (docs/decisions/038).
    index(LISTING_INDEX.rentComparables).on(t.universityId, t.unitType, t.verificationStatus, t.createdAt, t.monthlyRent),
    // Staff lists (keysets; docs/decisions/038): every listing newest first, the review queue oldest first.
    index(LISTING_INDEX.staffNewest).on(t.createdAt, t.id),
    index(LISTING_INDEX.staffReview).on(t.verificationStatus, t.createdAt, t.id),
  ],
);

export const listingPhotos = sqliteTable(
  "listing_photos",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    /** Key of the full-size image in the IMAGES bucket. */
    key: text("key").notNull(),
    /** Key of the small card thumbnail, when one was made. */
    thumbKey: text("thumb_key"),
    /** 0 is the primary photo. */
    position: integer("position").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("listing_photos_listing_idx").on(t.listingId, t.position)],
);

export const favorites = sqliteTable(
  "favorites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.listingId] }),
    index("favorites_user_created_idx").on(t.userId, t.createdAt),
    index("favorites_listing_idx").on(t.listingId),
  ],
);

export const verificationRequests = sqliteTable(
  "verification_requests",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** driver_license | passport | student_id | national_id | other | admin_unverified */
    documentType: text("document_type").notNull(),
    /** Key in the private ID_DOCUMENTS bucket; never a public URL. */
    documentKey: text("document_key"),
    notes: text("notes"),
    status: text("status", { enum: VERIFICATION_REQUEST_STATUSES }).notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    submittedAt: createdAt(),
    reviewedAt: text("reviewed_at"),
  },
  (t) => [
    index("verification_requests_status_idx").on(t.status, t.submittedAt, t.id),
    index("verification_requests_user_idx").on(t.userId, t.submittedAt),
  ],
);

/**
 * Identity documents uploaded but not yet submitted for review. Submitting removes the row; the cron
 * deletes the files of rows older than 24 hours, so abandoned documents do not linger.
 */
export const documentUploads = sqliteTable(
  "document_uploads",
  {
    key: text("key").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("document_uploads_created_idx").on(t.createdAt)],
);

/** A browser's Web Push subscription (docs/decisions/027); at most PUSH.maxSubscriptions per user. */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** The push service answered 429: nothing is sent before this time (its Retry-After). */
    notBefore: text("not_before"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("push_subscriptions_endpoint_unique").on(t.endpoint), index("push_subscriptions_user_idx").on(t.userId, t.createdAt)],
);

/**
 * What a push stands for, one row per user and topic (a conversation, a search, a listing): while a
 * row is there no second push goes for that topic (cleared when read). `held` rows wait out quiet
 * hours for the summary; `emailDueAt` is when the email fallback goes if the topic is still unread.
 */
export const pushNotices = sqliteTable(
  "push_notices",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    topic: text("topic").notNull(),
    kind: text("kind").notNull(),
    /** The PushPayload shown (JSON). */
    payload: text("payload").notNull(),
    /** The NotifyEvent (JSON), for the fallback email. */
    event: text("event").notNull(),
    held: integer("held", { mode: "boolean" }).notNull().default(false),
    sentAt: text("sent_at"),
    emailDueAt: text("email_due_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.topic] }), index("push_notices_held_idx").on(t.held, t.userId), index("push_notices_email_due_idx").on(t.emailDueAt)],
);

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    /** The pair is stored ordered (userA < userB) so one pair has one conversation. */
    userA: text("user_a").notNull(),
    userB: text("user_b").notNull(),
    listingId: text("listing_id").references(() => listings.id, { onDelete: "set null" }),
    lastMessagePreview: text("last_message_preview"),
    lastMessageAt: text("last_message_at"),
    /**
     * When each participant was last emailed about a new message here (at most one email per
     * conversation and recipient per MESSAGE_EMAIL_GAP_MS, contract/messages.ts).
     */
    userAEmailedAt: text("user_a_emailed_at"),
    userBEmailedAt: text("user_b_emailed_at"),
    /** Scam shield: when a message here first matched a fraud pattern, and every reason seen (JSON array). */
    safetyFlaggedAt: text("safety_flagged_at"),
    safetyReasons: text("safety_reasons"),
    /** When staff reviewed the flags; a later flagged message puts the conversation back in the queue. */
    safetyReviewedAt: text("safety_reviewed_at"),
    /** Who started it: the other participant sees it only once it holds a message (null for rows older than 0028). */
    startedBy: text("started_by"),
    createdAt: createdAt(),
    updatedAt: text("updated_at"),
    /** The last message's time, or the creation's (generated): staff's list walks it newest first. */
    activityAt: text("activity_at").generatedAlwaysAs(sql`coalesce(last_message_at, created_at)`, { mode: "virtual" }),
  },
  (t) => [
    uniqueIndex("conversations_pair_unique").on(t.userA, t.userB),
    index("conversations_user_b_idx").on(t.userB),
    index("conversations_safety_idx").on(t.safetyFlaggedAt),
    // Staff's list, most recently active first (keyset on activity_at, id).
    index("conversations_activity_idx").on(t.activityAt, t.id),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** Kept after the sender deletes the account: shown as from a deleted user. */
    senderId: text("sender_id").notNull(),
    text: text("text").notNull(),
    /** Scam shield reasons this message matched (JSON array), or null. The message is still delivered. */
    safetyFlags: text("safety_flags"),
    readAt: text("read_at"),
    /**
     * The sender's `Idempotency-Key` (lib/idempotency.ts): a retried send answers this row instead of
     * storing a second one. Honoured for IDEMPOTENCY_WINDOW_MS; a reuse after that clears it here first.
     */
    clientKey: text("client_key"),
    /** text | deal (a deal's request card: its text is a readable summary; never scored by the scam shield) */
    kind: text("kind").notNull().default("text"),
    /** The deal a `deal` message shows. */
    dealId: text("deal_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("messages_conversation_idx").on(t.conversationId, t.createdAt, t.id),
    // One message per sender and key, even for two deliveries at once (NULLs never collide).
    uniqueIndex("messages_sender_client_key_unique").on(t.senderId, t.clientKey),
    // Unread counts read only the unread rows.
    index("messages_unread_idx")
      .on(t.conversationId, t.senderId)
      .where(sql`read_at IS NULL`),
  ],
);

/**
 * A recipient said "This is fine" under the notice of one kind on one message (decision 015): their view
 * has no notice of that kind on that message, nor on the same sender's messages whose reasons of that
 * kind the dismissed one had too (a new reason shows again). One row per conversation, user, message and
 * kind (idempotent); staff read them beside the reasons in the Safety queue. Migration 0023.
 */
export const safetyFeedback = sqliteTable(
  "safety_feedback",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    /** contract/safety SAFETY_KINDS */
    kind: text("kind").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId, t.messageId, t.kind] })],
);

export const feedback = sqliteTable(
  "feedback",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    /** The page it was sent from: a path without its query (contract/admin.ts feedbackPage), or null. */
    page: text("page"),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    archivedAt: text("archived_at"),
    createdAt: createdAt(),
  },
  (t) => [index("feedback_archived_created_idx").on(t.archived, t.createdAt, t.id), index("feedback_email_idx").on(t.email, t.createdAt)],
);

/** A person's report of a listing or of another user (from a conversation), until staff resolve it. */
export const reports = sqliteTable(
  "reports",
  {
    id: text("id").primaryKey(),
    reporterId: text("reporter_id").notNull(),
    /** listing | user */
    kind: text("kind").notNull(),
    listingId: text("listing_id").references(() => listings.id, { onDelete: "set null" }),
    /** The reported user (for a listing: its owner). */
    reportedUserId: text("reported_user_id").notNull(),
    conversationId: text("conversation_id"),
    /** scam | taken | wrong_info | inappropriate | discriminatory | other */
    reason: text("reason").notNull(),
    details: text("details"),
    /** open | resolved */
    status: text("status").notNull().default("open"),
    /** hide_listing | suspend_user | dismiss */
    resolution: text("resolution"),
    resolvedAt: text("resolved_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("reports_status_created_idx").on(t.status, t.createdAt),
    index("reports_reported_user_idx").on(t.reportedUserId),
  ],
);

/** blocker no longer hears from blocked: they cannot send to the blocker, and the conversation leaves the blocker's list. */
export const blocks = sqliteTable(
  "blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked_idx").on(t.blockedId)],
);

/**
 * The listings generation (one row, id 1): part of every edge cache key, so a write that changes what
 * the public sees retires every cached page at once (docs/decisions/016). Bumped by every listing
 * write through services/edge-cache (`purgeListingCache`, `listingsGenerationBump`).
 */
export const cacheGeneration = sqliteTable("cache_generation", {
  id: integer("id").primaryKey(),
  generation: integer("generation").notNull().default(0),
});

/**
 * The counts staff's dashboard shows (docs/decisions/038), one row each, kept by triggers on the counted
 * tables (migration 0046: every write, cascades included, moves them in its own transaction), so
 * reading them scans no table: `users`, `listings`, `conversations`, `messages`, `listings_pending`,
 * `listings_promoted`, `verifications_pending`, `feedback_open`, `reports_open`, `safety_flags`,
 * `deals:<status>` and the deals' money (`deal_held_cents`, `deal_released_cents`, `deal_refunded_cents`, `deal_open_cases`).
 */
export const siteCounts = sqliteTable("site_counts", {
  name: text("name").primaryKey(),
  n: integer("n").notNull().default(0),
});

/** Sign-ups per day (`YYYY-MM-DD`, UTC) of the accounts that exist, kept by triggers on users (docs/decisions/038). */
export const signupsByDay = sqliteTable("signups_by_day", {
  day: text("day").primaryKey(),
  n: integer("n").notNull().default(0),
});

/** Every admin action: who (the admin session), what, on which row, when. */
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: text("id").primaryKey(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    targetTable: text("target_table"),
    targetId: text("target_id"),
    details: text("details"),
    createdAt: createdAt(),
  },
  (t) => [index("admin_audit_created_idx").on(t.createdAt)],
);

/** Emails kept in development only (the dev mailbox of the API contract). */
export const devEmails = sqliteTable(
  "dev_emails",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("dev_emails_to_idx").on(t.to, t.createdAt)],
);

/**
 * Development only: notice messages queued and not tried yet (docs/decisions/037), so the dev mailbox
 * answers once what was queued before it has been delivered, as it did when emails went during the request.
 */
export const devPendingNotices = sqliteTable("dev_pending_notices", {
  id: text("id").primaryKey(),
  createdAt: createdAt(),
});

/**
 * One row per Stripe subscription (paid promotion), kept from the webhook's events in any order:
 * the period only moves forward and `ended` never goes back. The listing's promotion columns are
 * derived from it by services/promotions/record.ts.
 */
export const stripeSubscriptions = sqliteTable(
  "stripe_subscriptions",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    /** Stripe's status as its newest subscription event said (informative; the state is derived from the rest). */
    status: text("status").notNull().default("incomplete"),
    /** ISO; null until an invoice or a subscription event told us. */
    currentPeriodEnd: text("current_period_end"),
    /** ISO end of the period of the newest failed invoice: past due while it is beyond the paid period. */
    failedPeriodEnd: text("failed_period_end"),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    /** Epoch seconds of the latest subscription.updated applied (older ones are ignored). */
    updatedEventAt: integer("updated_event_at").notNull().default(0),
    /** Checkout completed: the promotion may start. */
    checkedOut: integer("checked_out", { mode: "boolean" }).notNull().default(false),
    /** Checked out with a delayed payment method whose payment has not arrived: not promoted yet. */
    awaitingPayment: integer("awaiting_payment", { mode: "boolean" }).notNull().default(false),
    ended: integer("ended", { mode: "boolean" }).notNull().default(false),
    /** Refused: a second paid subscription of a listing that already had one (the owner told), or one paid for a hidden or suspended listing; cancelled at Stripe, refunded. */
    duplicate: integer("duplicate", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("stripe_subscriptions_listing_idx").on(t.listingId)],
);

/** Webhook event ids already applied (each event is applied once). */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  createdAt: createdAt(),
});

/**
 * Paid invoices of a listing's promotion: money in minor units, times in epoch seconds. They outlive
 * the listing (no foreign key: its owner still reads them on /billing after deleting it).
 */
export const billingHistory = sqliteTable(
  "billing_history",
  {
    /** The invoice id. */
    id: text("id").primaryKey(),
    listingId: text("listing_id").notNull(),
    subscriptionId: text("subscription_id"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end").notNull(),
    created: integer("created").notNull(),
    status: text("status").notNull(),
  },
  (t) => [index("billing_history_listing_idx").on(t.listingId, t.created)],
);

/**
 * A promoted listing its owner deleted: what users/promoted-listings shows of it (`deleted: true`) and
 * whose it was, so billing-history keeps answering its owner. Goes with the account.
 */
export const deletedPromotedListings = sqliteTable(
  "deleted_promoted_listings",
  {
    listingId: text("listing_id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** JSON: the PromotedListing as it stood when deleted (photos dropped: their files are gone). */
    listing: text("listing").notNull(),
    deletedAt: text("deleted_at").notNull(),
  },
  (t) => [index("deleted_promoted_listings_user_idx").on(t.userId, t.deletedAt)],
);

/** Checkout sessions started by owners (Stripe's, or the development test checkout's). */
export const checkoutSessions = sqliteTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    /** stripe | test */
    kind: text("kind").notNull(),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    completedAt: text("completed_at"),
    /** The page to send the browser to (answered again while the session is open). */
    url: text("url"),
    /** ISO; after it the session cannot be paid (Stripe's expires_at). Null on sessions from before 0017. */
    expiresAt: text("expires_at"),
    /** The request's Idempotency-Key: the same key from the same user answers this session again. */
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("checkout_sessions_user_key_unique").on(t.userId, t.idempotencyKey),
    index("checkout_sessions_listing_idx").on(t.listingId, t.createdAt),
  ],
);

/**
 * A student's saved browse search (docs/decisions/020): its filters, and how its alerts go out. A newly
 * approved listing that matches is recorded as a hit; hits go out by email (instant: as soon as the
 * search's daily allowance permits; daily: one digest), at most one email per search per day.
 */
export const savedSearches = sqliteTable(
  "saved_searches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The browse filters as the browse URL's query string, canonical (keys sorted; no page or cursor). */
    query: text("query").notNull(),
    /** The query's university, copied so an approval finds its candidate searches by index; null = any. */
    universityId: integer("university_id"),
    /** instant | daily */
    alertFrequency: text("alert_frequency").notNull().default("instant"),
    /** Alerts paused by the student (or by the email's unsubscribe link); the search stays saved. */
    pausedAt: text("paused_at"),
    /** Who paused them: link (the email's unsubscribe link, which may Undo it for an hour) | owner; null when not paused. */
    pausedBy: text("paused_by"),
    /** When the last alert email for this search went out (at most one a day). */
    lastAlertAt: text("last_alert_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at"),
  },
  (t) => [
    index("saved_searches_user_idx").on(t.userId, t.createdAt),
    index("saved_searches_university_idx").on(t.universityId, t.pausedAt),
    // The same filters saved twice at once: the second insert fails and answers 409.
    uniqueIndex("saved_searches_user_query_idx").on(t.userId, t.query),
  ],
);

/** A listing that matched a saved search when it was approved; emailedAt once it went out in an alert. */
export const savedSearchHits = sqliteTable(
  "saved_search_hits",
  {
    searchId: text("search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    emailedAt: text("emailed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.searchId, t.listingId] }),
    // The cron's walk: searches with hits waiting.
    index("saved_search_hits_pending_idx").on(t.emailedAt, t.searchId),
    index("saved_search_hits_listing_idx").on(t.listingId),
  ],
);

/**
 * Copied photos (docs/decisions/028): each listing photo's SHA-256 and perceptual hashes, with one
 * indexed integer column per band (22, 21, 21 bits) of the pHash (p0-p2) and of the centre pHash (c0-c2). No
 * foreign key: a row outlives its listing for a year (`goneAt`, set and pruned by the cron).
 */
export const photoHashes = sqliteTable(
  "photo_hashes",
  {
    photoId: text("photo_id").primaryKey(),
    listingId: text("listing_id").notNull(),
    ownerId: text("owner_id").notNull(),
    /** The photo's image key in the IMAGES bucket. */
    picture: text("picture").notNull(),
    /**
     * hashed | tiny | flat | undecoded (a type not decoded here: WebP, GIF; or a decode that never
     * finished) | too_large (over 25 megapixels by its header, never decoded) | missing (no stored image)
     * | decoding (claimed by `claim` while it is decoded: docs/decisions/036)
     */
    status: text("status").notNull(),
    /** The queue message that is decoding it (status decoding): a later attempt of that message knows it died there. */
    claim: text("claim"),
    sha256: text("sha256"),
    phash: text("phash"),
    phashMirror: text("phash_mirror"),
    phashCentre: text("phash_centre"),
    phashCentreMirror: text("phash_centre_mirror"),
    dhash: text("dhash"),
    dhashMirror: text("dhash_mirror"),
    /** JSON: the pHash of each 90 %-window (lib/photo-hash WINDOWS), then each mirrored; null on rows hashed before them. */
    phashWindows: text("phash_windows"),
    p0: integer("p0"),
    p1: integer("p1"),
    p2: integer("p2"),
    c0: integer("c0"),
    c1: integer("c1"),
    c2: integer("c2"),
    /** When the photo was first posted (its listing_photos row): the earlier poster is never flagged. */
    postedAt: text("posted_at").notNull(),
    /** When the cron found its listing gone; the row is pruned a year later. */
    goneAt: text("gone_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("photo_hashes_listing_idx").on(t.listingId),
    // The same stored file on another listing (an edit's new rows, the seeds' reused demo photos) is hashed once.
    index("photo_hashes_picture_idx").on(t.picture),
    index("photo_hashes_sha_idx").on(t.sha256),
    index("photo_hashes_p0_idx").on(t.p0),
    index("photo_hashes_p1_idx").on(t.p1),
    index("photo_hashes_p2_idx").on(t.p2),
    index("photo_hashes_c0_idx").on(t.c0),
    index("photo_hashes_c1_idx").on(t.c1),
    index("photo_hashes_c2_idx").on(t.c2),
  ],
);

/** A later photo matching an earlier one of another owner (found when either was hashed). */
export const photoMatches = sqliteTable(
  "photo_matches",
  {
    photoId: text("photo_id").notNull(),
    matchedPhotoId: text("matched_photo_id").notNull(),
    distance: integer("distance").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.photoId, t.matchedPhotoId] }), index("photo_matches_matched_idx").on(t.matchedPhotoId)],
);

/** A hashed photo's 90 %-windows' pHashes in three bands (the index of one-sided crops, docs/decisions/028). */
export const photoWindowBands = sqliteTable(
  "photo_window_bands",
  {
    photoId: text("photo_id").notNull(),
    window: integer("window").notNull(),
    b0: integer("b0").notNull(),
    b1: integer("b1").notNull(),
    b2: integer("b2").notNull(),
  },
  (t) => [primaryKey({ columns: [t.photoId, t.window] }), index("photo_window_bands_b0_idx").on(t.b0), index("photo_window_bands_b1_idx").on(t.b1), index("photo_window_bands_b2_idx").on(t.b2)],
);

/** Pairs staff marked "not a copy", by the pictures' SHA-256: never flagged again. */
export const photoNotCopies = sqliteTable(
  "photo_not_copies",
  {
    sha256: text("sha256").notNull(),
    matchedSha256: text("matched_sha256").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.matchedSha256] })],
);

/**
 * A deal (docs/decisions/026): one renter, one listing, one stay. `status` moves only through one
 * compare-and-set on `version` (services/deals). requested -> accepted -> signed -> (payments: paid ->
 * moved_in -> released); exits declined, cancelled, expired (and refunded, disputed with payments).
 * Rent, fee, address and unit facts are the snapshot taken at acceptance (the request's values before).
 */
export const deals = sqliteTable(
  "deals",
  {
    id: text("id").primaryKey(),
    /** Null once the listing is deleted (its open deals were cancelled first). */
    listingId: text("listing_id").references(() => listings.id, { onDelete: "set null" }),
    renterId: text("renter_id").notNull(),
    listerId: text("lister_id").notNull(),
    conversationId: text("conversation_id"),
    /** Calendar dates YYYY-MM-DD in the university's time zone (`timeZone`); move_out is the day the stay ends. */
    moveIn: text("move_in").notNull(),
    moveOut: text("move_out").notNull(),
    timeZone: text("time_zone").notNull(),
    /** The process's state (contract/deal-process.ts). */
    status: text("status", { enum: DEAL_STATUSES }).notNull().default("requested"),
    statusReason: text("status_reason"),
    /** The compare-and-set version: every write of this row is `WHERE id = ? AND version = ?` and bumps it. */
    version: integer("version").notNull().default(0),
    /** When the deal expires if nothing happens (request: +72 h; accepted or signed: move-in's midnight); null when it cannot. */
    expiresAt: text("expires_at"),
    listingTitle: text("listing_title").notNull(),
    monthlyRent: integer("monthly_rent").notNull(),
    feePercent: real("fee_percent"),
    /** The full address, copied at acceptance (null before). */
    address: text("address"),
    unitType: text("unit_type"),
    parking: integer("parking", { mode: "boolean" }),
    allowPets: integer("allow_pets", { mode: "boolean" }),
    landlordConsent: text("landlord_consent", { enum: LANDLORD_CONSENT_STATUSES }).notNull().default("none"),
    landlordName: text("landlord_name"),
    landlordEmail: text("landlord_email"),
    landlordReason: text("landlord_reason"),
    /** The newest agreement version (0: none yet). */
    agreementVersion: integer("agreement_version").notNull().default(0),
    renterSignedAt: text("renter_signed_at"),
    listerSignedAt: text("lister_signed_at"),
    /** The signed PDF in the private bucket (immutable key) and its SHA-256. */
    pdfKey: text("pdf_key"),
    pdfSha256: text("pdf_sha256"),
    idempotencyKey: text("idempotency_key"),
    acceptedAt: text("accepted_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
    // Payments (docs/decisions/029): the first month charged to the platform, held here until released.
    /** none | held | released | refunded | disputed | release_failed (the Deal object's payment.status). */
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("none"),
    /** What the renter paid (rent + fee) and the rent part of it, cents. */
    paidCents: integer("paid_cents").notNull().default(0),
    paidRentCents: integer("paid_rent_cents").notNull().default(0),
    paidAt: text("paid_at"),
    /** Move-in's midnight (the deal's zone) + 48 h: the cron releases then. */
    heldUntil: text("held_until"),
    paymentIntentId: text("payment_intent_id"),
    chargeId: text("charge_id"),
    /** What we decided to refund in all (cents); `refundedCents` is what Stripe confirmed. A gap is retried by the cron. */
    refundDueCents: integer("refund_due_cents").notNull().default(0),
    refundedCents: integer("refunded_cents").notNull().default(0),
    transferId: text("transfer_id"),
    transferredCents: integer("transferred_cents").notNull().default(0),
    transferReversedCents: integer("transfer_reversed_cents").notNull().default(0),
    releasedAt: text("released_at"),
    disputeId: text("dispute_id"),
    /** open | won | lost */
    disputeStatus: text("dispute_status"),
    /** Why staff have a case (DEAL_CASE_REASONS), null when none. */
    caseReason: text("case_reason", { enum: DEAL_CASE_REASONS }),
    problemKind: text("problem_kind"),
    problemOpenedAt: text("problem_opened_at"),
    movedInAt: text("moved_in_at"),
    /** A renter's late cancellation: the lister decides the refund by `cancelDecideBy`. */
    cancelRequestedAt: text("cancel_requested_at"),
    cancelDecideBy: text("cancel_decide_by"),
    /** The payment marked the listing taken (its stay covers the listing's dates); a refund makes it available again. */
    listingTaken: integer("listing_taken", { mode: "boolean" }).notNull().default(false),
    // One money move at a time (docs/decisions/035): a refund, transfer or reversal first claims the deal
    // (its attempt's id here, by compare-and-set), moves the money at Stripe under keys of that attempt,
    // then settles and clears the claim. Never a status: clients meet only the deal's usual states.
    /** The attempt's id while a money move is in flight, else null. */
    claimId: text("claim_id"),
    /** The transition it makes (contract/deal-process.ts) and its input (JSON): a dead worker's claim is resumed from them. */
    claimOp: text("claim_op"),
    claimInput: text("claim_input"),
    claimAt: text("claim_at"),
    /** When the jobs last compared this deal's money with Stripe's (reconciliation). */
    reconciledAt: text("reconciled_at"),
    /** Who decided a late cancellation's or a case's money (lister | staff | deadline), why (read by both parties), when. */
    decisionBy: text("decision_by", { enum: ["lister", "staff", "deadline"] }),
    decisionReason: text("decision_reason"),
    decidedAt: text("decided_at"),
    /** The lister was emailed this request (at most one per renter and listing a day). */
    requestEmailedAt: text("request_emailed_at"),
    /** A later request of the same renter and listing waits for the lister's daily summary (1), or was in one (its time). */
    requestSummaryDue: integer("request_summary_due", { mode: "boolean" }).notNull().default(false),
    requestSummarizedAt: text("request_summarized_at"),
    // After the keys (docs/decisions/040): facts of the declared process, written by its transitions.
    /** The parties may review each other until then (set when the deal is first released). */
    reviewWindowEndsAt: text("review_window_ends_at"),
    /** Both reviews visible since (both written, or the window ended). */
    reviewsRevealedAt: text("reviews_revealed_at"),
    renterReviewedAt: text("renter_reviewed_at"),
    listerReviewedAt: text("lister_reviewed_at"),
    renterRepliedAt: text("renter_replied_at"),
    listerRepliedAt: text("lister_replied_at"),
    /** The review timers (contract/deal-process.ts DEAL_TIMERS): due times, null once done. */
    reviewInviteDueAt: text("review_invite_due_at"),
    reviewReminderDueAt: text("review_reminder_due_at"),
    reviewRevealDueAt: text("review_reveal_due_at"),
    /** When each condition report arrived (the server's receipt time), and the lister's comment on it. */
    moveInReportAt: text("move_in_report_at"),
    moveOutReportAt: text("move_out_report_at"),
    moveInCommentAt: text("move_in_comment_at"),
    moveOutCommentAt: text("move_out_comment_at"),
    /** The original lease (or its relevant pages) the lister attached: a private evidence url, seen by both parties and staff. */
    leaseUrl: text("lease_url"),
    leaseAttachedAt: text("lease_attached_at"),
    /**
     * A party who deleted their account: the names the agreement holds for them (their legal names once
     * they signed, else their account's), so the other party's records keep them (docs/decisions/041).
     */
    formerRenterFirstName: text("former_renter_first_name"),
    formerRenterLastName: text("former_renter_last_name"),
    formerListerFirstName: text("former_lister_first_name"),
    formerListerLastName: text("former_lister_last_name"),
  },
  (t) => [
    index("deals_payment_intent_idx").on(t.paymentIntentId).where(sql`payment_intent_id IS NOT NULL`),
    index("deals_charge_idx").on(t.chargeId).where(sql`charge_id IS NOT NULL`),
    index("deals_held_idx").on(t.heldUntil).where(sql`payment_status = 'held'`),
    index("deals_cancel_decide_idx").on(t.cancelDecideBy).where(sql`cancel_decide_by IS NOT NULL`),
    index("deals_refund_due_idx").on(t.id).where(sql`refund_due_cents > refunded_cents`),
    index("deals_payment_status_idx").on(t.paymentStatus, t.createdAt),
    uniqueIndex("deals_renter_key_unique").on(t.renterId, t.idempotencyKey),
    // One open deal per renter, listing and stay, even for two requests at once.
    uniqueIndex("deals_open_stay_unique").on(t.renterId, t.listingId, t.moveIn, t.moveOut).where(sql`status IN ('requested', 'accepted', 'signed')`),
    index("deals_listing_idx").on(t.listingId, t.status, t.moveIn),
    index("deals_renter_idx").on(t.renterId, t.createdAt, t.id),
    index("deals_lister_idx").on(t.listerId, t.createdAt, t.id),
    index("deals_status_idx").on(t.status, t.createdAt, t.id),
    // Staff's list of every deal, newest first (docs/decisions/038).
    index("deals_created_idx").on(t.createdAt, t.id),
    index("deals_expiry_idx").on(t.expiresAt).where(sql`expires_at IS NOT NULL`),
    index("deals_claim_idx").on(t.claimAt).where(sql`claim_id IS NOT NULL`),
    index("deals_reconcile_idx").on(t.updatedAt).where(sql`payment_status <> 'none' AND (reconciled_at IS NULL OR reconciled_at < updated_at)`),
    index("deals_request_email_idx").on(t.renterId, t.listingId, t.requestEmailedAt).where(sql`request_emailed_at IS NOT NULL`),
    index("deals_request_summary_idx").on(t.listerId).where(sql`request_summary_due = 1`),
    index("deals_review_invite_idx").on(t.reviewInviteDueAt).where(sql`review_invite_due_at IS NOT NULL`),
    index("deals_review_reminder_idx").on(t.reviewReminderDueAt).where(sql`review_reminder_due_at IS NOT NULL`),
    index("deals_review_reveal_idx").on(t.reviewRevealDueAt).where(sql`review_reveal_due_at IS NOT NULL`),
  ],
);

/** Each version of a deal's agreement text, as both parties read it, with its SHA-256. */
export const dealAgreements = sqliteTable(
  "deal_agreements",
  {
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** The template it was filled from (agreement-template-v1 ...). */
    template: text("template").notNull(),
    text: text("text").notNull(),
    sha256: text("sha256").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.version] })],
);

/** What happened to a deal, append-only (a trigger refuses updates): time, address, user agent, document hash. */
export const dealEvents = sqliteTable(
  "deal_events",
  {
    id: text("id").primaryKey(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** Null for the landlord and the system. */
    actorId: text("actor_id"),
    /** renter | lister | landlord | staff | system */
    actorRole: text("actor_role").notNull(),
    at: text("at").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    agreementVersion: integer("agreement_version"),
    documentSha256: text("document_sha256"),
    details: text("details"),
  },
  (t) => [index("deal_events_deal_idx").on(t.dealId, t.at, t.id)],
);

/** The 6-digit codes that confirm a signature (only a hash is kept). */
export const dealSignCodes = sqliteTable(
  "deal_sign_codes",
  {
    id: text("id").primaryKey(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    codeHash: text("code_hash").notNull(),
    /** The agreement version the code was sent for: it signs only that version (null: a code from before versions were bound). */
    agreementVersion: integer("agreement_version"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("deal_sign_codes_party_idx").on(t.dealId, t.userId, t.createdAt)],
);

/** The landlord's consent links: only the token's SHA-256 is kept; single use, expiring. */
export const landlordConsentLinks = sqliteTable(
  "landlord_consent_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    landlordName: text("landlord_name").notNull(),
    landlordEmail: text("landlord_email").notNull(),
    reason: text("reason"),
    tenantAddress: text("tenant_address"),
    expiresAt: text("expires_at").notNull(),
    /** Answered, or replaced by a newer link or a "not needed": the link answers 410 after it. */
    usedAt: text("used_at"),
    /** granted | declined | superseded */
    decision: text("decision"),
    decisionReason: text("decision_reason"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("landlord_consent_links_deal_idx").on(t.dealId, t.createdAt)],
);

/**
 * A lister's Stripe Connect account (docs/decisions/026): created by onboarding, kept current by
 * `account.updated` at the Connect webhook. `status` is what the profile and the deal read:
 * pending until Stripe says the account can receive transfers, then ready.
 */
export const payoutAccounts = sqliteTable(
  "payout_accounts",
  {
    userId: text("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
    stripeAccountId: text("stripe_account_id").notNull(),
    /** pending | ready */
    status: text("status").notNull().default("pending"),
    detailsSubmitted: integer("details_submitted", { mode: "boolean" }).notNull().default(false),
    /** Stripe's `capabilities.transfers === "active"`: the only thing a release needs. */
    transfersActive: integer("transfers_active", { mode: "boolean" }).notNull().default(false),
    payoutsEnabled: integer("payouts_enabled", { mode: "boolean" }).notNull().default(false),
    /** Stripe's `requirements.currently_due`, as JSON, for the profile's "in review" line. */
    requirementsDue: text("requirements_due"),
    /** The `created` time of the newest account event applied: an older event never overwrites a newer one. */
    stripeUpdated: integer("stripe_updated").notNull().default(0),
    // No default: 0032 made the column without one, and every insert sets it.
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("payout_accounts_stripe_account_id_unique").on(t.stripeAccountId)],
);

/** A deal's checkout sessions (docs/decisions/029): Stripe's or the development test checkout's; an open one is answered again. */
export const dealCheckoutSessions = sqliteTable(
  "deal_checkout_sessions",
  {
    id: text("id").primaryKey(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    /** stripe | test */
    kind: text("kind").notNull(),
    url: text("url"),
    expiresAt: text("expires_at").notNull(),
    idempotencyKey: text("idempotency_key"),
    completedAt: text("completed_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("deal_checkout_sessions_deal_idx").on(t.dealId, t.expiresAt), uniqueIndex("deal_checkout_sessions_key_unique").on(t.userId, t.idempotencyKey)],
);

/** Each party's statements of a deal's case (docs/decisions/029); the renter's problem report is the first. */
export const dealStatements = sqliteTable(
  "deal_statements",
  {
    id: text("id").primaryKey(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    /** renter | lister */
    party: text("party").notNull(),
    authorId: text("author_id").notNull(),
    text: text("text").notNull(),
    /** JSON array of our own image URLs. */
    photos: text("photos").notNull().default("[]"),
    at: text("at").notNull(),
    /** The renter's problem report (the case's first text), not one of the two statements. */
    report: integer("report", { mode: "boolean" }).notNull().default(false),
  },
  // By author: which deal cites an evidence photo is looked up among its uploader's statements (db/queries/evidence.ts).
  (t) => [index("deal_statements_deal_idx").on(t.dealId, t.at), index("deal_statements_author_idx").on(t.authorId)],
);

/**
 * Private evidence (docs/decisions/032): photos of a problem, a statement or a condition report, in the
 * private bucket under `evidence/{name}` and served at `/api/v1/evidence/{name}` only to the parties of a
 * deal that cites them, staff, and their uploader. No foreign key: a deal keeps its evidence after its
 * uploader deletes the account. The cron deletes what no deal cited within a day of its upload.
 */
export const evidencePhotos = sqliteTable(
  "evidence_photos",
  {
    /** `{id}.{jpg|png|webp|gif}`: the url's last segment and the object's key after `evidence/`. */
    name: text("name").primaryKey(),
    uploaderId: text("uploader_id").notNull(),
    contentType: text("content_type").notNull(),
    createdAt: createdAt(),
    /** When a deal was found citing it: never a cleanup candidate again. */
    keptAt: text("kept_at"),
    /** A problem photo stored publicly before evidence was private: its public key, until the copy job moved it. */
    legacyKey: text("legacy_key"),
  },
  (t) => [
    index("evidence_photos_uploader_idx").on(t.uploaderId, t.createdAt),
    index("evidence_photos_unkept_idx")
      .on(t.createdAt)
      .where(sql`${t.keptAt} IS NULL`),
    index("evidence_photos_legacy_idx")
      .on(t.legacyKey)
      .where(sql`${t.legacyKey} IS NOT NULL`),
  ],
);

/**
 * Socket tickets already used (docs/decisions/012): a ticket opens one socket. Kept until the ticket
 * would have expired anyway; the cron deletes older rows.
 */
export const spentSocketTickets = sqliteTable(
  "spent_socket_tickets",
  {
    /** The ticket's `jti`. */
    id: text("id").primaryKey(),
    /** Epoch ms when the ticket expires. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("spent_socket_tickets_expires_idx").on(t.expiresAt)],
);

/**
 * Room sockets opened, per user (docs/decisions/012): at most MAX_LIVE_SOCKETS open each; a new one past
 * it closes the oldest. Rooms keep no database, so a row outlives its socket until the user next goes
 * past the limit (the rooms then say which are still open) or the cron's day is over.
 */
export const liveSockets = sqliteTable(
  "live_sockets",
  {
    /** The connection id: the ticket's `jti`, which the worker gives the room as the socket's id. */
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    /** `conversation` or `inbox`. */
    party: text("party").notNull(),
    room: text("room").notNull(),
    /** Epoch ms. */
    openedAt: integer("opened_at").notNull(),
  },
  (t) => [index("live_sockets_user_idx").on(t.userId, t.openedAt)],
);

/**
 * Background work that failed (docs/decisions/037): a queue message's last error while it is retried
 * (`dead_at` null), then, once the dead-letter queue's consumer has it, a dead letter staff list.
 */
export const queueFailures = sqliteTable(
  "queue_failures",
  {
    /** The queue message's id (stable across its attempts and in the dead-letter queue). */
    id: text("id").primaryKey(),
    /** The message's type (photo-check, email, push, saved-search-alerts, job). */
    kind: text("kind").notNull(),
    /** What it was about, for staff: a listing, a user, a job's name (never an address or a message's text). */
    subject: text("subject"),
    /** The message, without any email's text (JSON, at most 4,000 characters). */
    body: text("body").notNull(),
    /** The last attempt's error (its message, at most 500 characters). */
    error: text("error"),
    attempts: integer("attempts").notNull(),
    /** When the message was first sent. */
    sentAt: text("sent_at").notNull(),
    failedAt: text("failed_at").notNull(),
    deadAt: text("dead_at"),
  },
  (t) => [index("queue_failures_dead_idx").on(t.deadAt, t.id)],
);

/** Notice deliveries (an email, a push) done: a retried or repeated queue message sends nothing twice (docs/decisions/037). */
export const noticeDeliveries = sqliteTable("notice_deliveries", {
  id: text("id").primaryKey(),
  deliveredAt: text("delivered_at").notNull(),
});

/**
 * Stripe's events about a deal that arrived while a money move held it (docs/decisions/035): recorded at
 * once (their ids are in stripe_events), applied when the claim settles. What the event said is kept as
 * read (services/payments/events.ts), never the raw payload.
 */
export const dealStripeInbox = sqliteTable(
  "deal_stripe_inbox",
  {
    eventId: text("event_id").primaryKey(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    facts: text("facts").notNull(),
    receivedAt: text("received_at").notNull(),
  },
  (t) => [index("deal_stripe_inbox_deal_idx").on(t.dealId, t.receivedAt)],
);

/**
 * A landlord declined a sublease of this listing (docs/decisions/035): for 180 days the lister cannot
 * attest that no consent is needed, and may ask consent only of this address.
 */
export const landlordDeclines = sqliteTable("landlord_declines", {
  listingId: text("listing_id")
    .primaryKey()
    .references(() => listings.id, { onDelete: "cascade" }),
  landlordEmail: text("landlord_email").notNull(),
  dealId: text("deal_id").notNull(),
  declinedAt: text("declined_at").notNull(),
});

/**
 * Reviews (docs/decisions/040): one per party of a released deal (`role` is the author's side), of the
 * other party. Visible to anyone once `revealed_at` is set (both written, or the window ended) and not
 * hidden by staff; before that, only to its author. An author who deletes their account leaves the review
 * (author_id null: "Former user").
 */
export const reviews = sqliteTable(
  "reviews",
  {
    id: text("id").primaryKey(),
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    subjectId: text("subject_id").references(() => users.id, { onDelete: "set null" }),
    /** The author's side in the deal. */
    role: text("role", { enum: ["renter", "lister"] }).notNull(),
    rating: integer("rating").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
    revealedAt: text("revealed_at"),
    replyText: text("reply_text"),
    replyAt: text("reply_at"),
    /** The scam shield's reasons (JSON array) when it flagged the text: staff's queue. */
    flags: text("flags"),
    /** How many people reported it (review_reports). */
    reportCount: integer("report_count").notNull().default(0),
    hiddenAt: text("hidden_at"),
    hiddenReason: text("hidden_reason"),
    /** When staff last looked at it (hid it, or kept it): it leaves the queue until a new report. */
    checkedAt: text("checked_at"),
  },
  (t) => [
    uniqueIndex("reviews_deal_role_unique").on(t.dealId, t.role),
    index("reviews_subject_idx").on(t.subjectId, t.createdAt, t.id),
    index("reviews_queue_idx")
      .on(t.createdAt)
      .where(sql`checked_at IS NULL AND (report_count > 0 OR flags IS NOT NULL)`),
    index("reviews_hidden_idx").on(t.hiddenAt).where(sql`hidden_at IS NOT NULL`),
  ],
);

/** Who reported a review, why (one report per person and review). */
export const reviewReports = sqliteTable(
  "review_reports",
  {
    reviewId: text("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    reporterId: text("reporter_id").notNull(),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.reporterId] })],
);

/**
 * Condition reports (docs/decisions/040): the renter's move-in and move-out walk of the place, one each,
 * read-only once sent; `created_at` is the server's receipt time. `rooms` is JSON
 * `[{name, condition, note, photos: [evidence url]}]`; `photos` repeats every room's photos flat, so which
 * deal cites an evidence photo is one indexed look-up (db/queries/evidence.ts).
 */
export const conditionReports = sqliteTable(
  "condition_reports",
  {
    dealId: text("deal_id")
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    phase: text("phase", { enum: ["move_in", "move_out"] }).notNull(),
    authorId: text("author_id").notNull(),
    rooms: text("rooms").notNull(),
    photos: text("photos").notNull().default("[]"),
    createdAt: text("created_at").notNull(),
    commentText: text("comment_text"),
    commentAt: text("comment_at"),
  },
  (t) => [primaryKey({ columns: [t.dealId, t.phase] }), index("condition_reports_author_idx").on(t.authorId)],
);

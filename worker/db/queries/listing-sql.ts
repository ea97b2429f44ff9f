/**
 * A listing in hand-written SQL: the columns a listing row carries (one list; the select lists derive
 * from it) and the SQL twins of the listing rules in contract/policies.ts, for queries whose listings
 * table is `l`. No runtime imports from other query modules: listings, browse, conversations and
 * saved searches all read these at load time.
 */
import { PUBLIC_LISTING } from "../../contract/policies";
import type { listings } from "../schema";

/** A column of `listings`, as the database names it (checked against schema.ts). */
type ListingColumn = (typeof listings)["_"]["columns"][keyof (typeof listings)["_"]["columns"]]["_"]["name"];

/**
 * The listing's own columns a listing row carries (browse reads these, then the people's names in one
 * lookup per page). A column reaches the public only when the mappers (queries/listings.ts) name it.
 */
export const LISTING_FIELDS = [
  "id",
  "user_id",
  "title",
  "description",
  "unit_type",
  "address",
  "address_public",
  "monthly_rent",
  "lease_term",
  "available_from",
  "available_to",
  "latitude",
  "longitude",
  "distance_miles",
  "distance_key",
  "university_id",
  "parking",
  "allow_pets",
  "gender_preference",
  "created_at",
  "updated_at",
  "verification_status",
  "rejection_reason",
  "status",
  "moderation_status",
  "promotion_start",
  "promotion_end",
  "auto_renew",
  "stripe_subscription_id",
  "availability_confirmed_at",
  "review_reason",
] as const satisfies readonly ListingColumn[];
export type ListingField = (typeof LISTING_FIELDS)[number];

/** Columns only single-listing and staff reads carry: the version staff review and the rent they last approved. */
export const REVIEW_FIELDS = ["revision", "approved_rent"] as const satisfies readonly ListingColumn[];

const qualified = (fields: readonly string[]) => fields.map((f) => `l.${f}`).join(", ");

/** The listing's own columns (browse's select list). */
export const LISTING_ROW_COLUMNS = qualified(LISTING_FIELDS);

/** A whole listing row: its columns, the review columns, its university's and owner's names (over LISTING_FROM). */
export const LISTING_COLUMNS = `${qualified([...LISTING_FIELDS, ...REVIEW_FIELDS])},
  un.name AS university_name, un.abbreviation AS university_abbreviation,
  u.first_name AS user_first_name, u.last_name AS user_last_name, u.avatar_key AS user_avatar_key,
  u.lister_review_count AS user_review_count, u.lister_review_sum AS user_review_sum`;
export const LISTING_FROM = `listings l JOIN universities un ON un.id = l.university_id JOIN users u ON u.id = l.user_id`;

/** The SQL twin of isPublicListing (contract/policies.ts). */
export const PUBLIC_LISTING_SQL = `l.verification_status = '${PUBLIC_LISTING.verification_status}' AND l.status = '${PUBLIC_LISTING.status}' AND l.moderation_status = '${PUBLIC_LISTING.moderation_status}'`;

/**
 * The SQL twin of isPromotedNow (contract/owner-rules.ts): promoted (or, `promoted: false`, not) at the
 * instant `nowIso`, with `?` placeholders for `binds`. Timestamps are ISO strings as toISOString writes
 * them (schema.ts), so comparing the text compares the instants. The promoted form leaves
 * `promotion_end > ?` as it is, so the promotion_end indexes can serve it; the other never yields
 * NULL (a NULL would drop the row from "not promoted").
 */
export function promotedNowSql(nowIso: string, { promoted = true }: { promoted?: boolean } = {}): { sql: string; binds: [string, string] } {
  const started = "(l.promotion_start IS NULL OR l.promotion_start <= ?)";
  const sql = promoted ? `(l.promotion_end > ? AND ${started})` : `NOT (COALESCE(l.promotion_end, '') > ? AND ${started})`;
  return { sql, binds: [nowIso, nowIso] };
}

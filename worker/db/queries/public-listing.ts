import { PUBLIC_LISTING } from "../../contract/policies";

/**
 * The SQL twin of isPublicListing (contract/policies.ts), for a query whose listings table is `l`.
 * In a module of its own: listings.ts and conversations.ts both use it, and they import each other
 * (through users.ts), so a constant read at load time must not come from either.
 */
export const PUBLIC_LISTING_SQL = `l.verification_status = '${PUBLIC_LISTING.verification_status}' AND l.status = '${PUBLIC_LISTING.status}' AND l.moderation_status = '${PUBLIC_LISTING.moderation_status}'`;

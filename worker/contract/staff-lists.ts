/**
 * Staff lists at any size (docs/decisions/038), shared by every staff list (admin, identity review,
 * feedback, deals): `limit` (default 50, at most 100), `last_evaluated_key` (the cursor its last page
 * answered) and `q`, a search (`staffSearch`).
 */
import { z } from "./zod";

export const STAFF_PAGE = { default: 50, max: 100 } as const;

/** The page fields of a staff list (deals' list takes them without `q`). */
export const staffPageFields = {
  limit: z.coerce
    .number("limit must be a number")
    .int("limit must be a whole number")
    .min(1, `limit must be 1 to ${STAFF_PAGE.max}`)
    .max(STAFF_PAGE.max, `limit must be 1 to ${STAFF_PAGE.max}`)
    .default(STAFF_PAGE.default),
  last_evaluated_key: z.string().max(500, "Invalid page token").optional(),
};

export const staffPageSchema = z.object({
  ...staffPageFields,
  q: z
    .string()
    .trim()
    .max(200, "Search must be at most 200 characters")
    .optional()
    .transform((q) => q || undefined),
});

/**
 * What a staff search names, each found through an index (never a scan): one of our ids (a listing's,
 * a user's, a request's...: 21 letters and digits), an email address (exact), or words (a prefix of
 * each, in the full-text indexes of listings and users).
 */
export type StaffSearch = { kind: "id"; id: string } | { kind: "email"; email: string } | { kind: "text"; text: string };

export function staffSearch(q: string | undefined): StaffSearch | null {
  if (!q) return null;
  if (q.includes("@")) return { kind: "email", email: q.toLowerCase() };
  if (/^[0-9A-Za-z]{21}$/.test(q)) return { kind: "id", id: q };
  return { kind: "text", text: q };
}

/** The header of feedback/admin's next cursor (the answer stays the spec's bare array). */
export const NEXT_TOKEN_HEADER = "X-Next-Token";

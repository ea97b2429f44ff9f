/** Favourites: an idempotent toggle (adding one present and removing one missing both succeed). */
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { PAGE_SIZES } from "../../contract/constants";
import type { Pagination } from "../../contract/listings";
import { createDb } from "../../db/client";
import { findListingRow } from "../../db/queries/listings";
import { favorites } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { notFound } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { isPublic } from "../listings";

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_SIZES.favoritesServerMax).default(PAGE_SIZES.favoritesServerMax),
  last_evaluated_key: z.string().max(300).optional(),
});
const cursorSchema = z.object({ c: z.iso.datetime(), id: z.string().min(1).max(64) });

export const favoritesRoutes = createRouter()
  .get("/", async (c) => {
    const user = await requireUser(c);
    const { limit, last_evaluated_key } = parseQuery(c, pageQuery);
    const cursor = decodeCursor(last_evaluated_key, cursorSchema);
    // Keyset pages, newest first, on the (user_id, created_at) index: bounded whatever the count.
    const rows = await createDb(c.env)
      .select({ listing_id: favorites.listingId, created_at: favorites.createdAt })
      .from(favorites)
      .where(
        and(
          eq(favorites.userId, user.id),
          cursor ? sql`(${favorites.createdAt}, ${favorites.listingId}) < (${cursor.c}, ${cursor.id})` : undefined,
        ),
      )
      .orderBy(desc(favorites.createdAt), desc(favorites.listingId))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const pagination: Pagination = {
      next_token: rows.length > limit && last ? encodeCursor({ c: last.created_at, id: last.listing_id }) : null,
      has_more: rows.length > limit,
    };
    return c.json({ favorites: page, pagination });
  })
  .post("/", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { listing_id } = await parseJson(c, z.object({ listing_id: z.string().min(1, "listing_id is required").max(64) }));
    const listing = await findListingRow(c.env.DB, listing_id);
    if (!listing || (!isPublic(listing) && listing.user_id !== user.id)) throw notFound("Listing not found");
    const inserted = await createDb(c.env)
      .insert(favorites)
      .values({ userId: user.id, listingId: listing_id })
      .onConflictDoNothing()
      .returning({ id: favorites.listingId });
    return c.json({ listing_id, favorited: true }, inserted.length ? 201 : 200);
  })
  .delete("/:listingId", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const listingId = c.req.param("listingId");
    await createDb(c.env).delete(favorites).where(and(eq(favorites.userId, user.id), eq(favorites.listingId, listingId)));
    return c.json({ listing_id: listingId, favorited: false });
  });

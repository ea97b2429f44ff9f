/** Favourites: an idempotent toggle (adding one present and removing one missing both succeed). */
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { createDb } from "../../db/client";
import { findListingRow } from "../../db/queries/listings";
import { favorites } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { isPublic } from "../listings";

export const favoritesRoutes = createRouter()
  .get("/", async (c) => {
    const user = await requireUser(c);
    const rows = await createDb(c.env)
      .select({ listing_id: favorites.listingId, created_at: favorites.createdAt })
      .from(favorites)
      .where(eq(favorites.userId, user.id))
      .orderBy(desc(favorites.createdAt));
    return c.json({ favorites: rows });
  })
  .post("/", async (c) => {
    const user = await requireUser(c);
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
    const listingId = c.req.param("listingId");
    await createDb(c.env).delete(favorites).where(and(eq(favorites.userId, user.id), eq(favorites.listingId, listingId)));
    return c.json({ listing_id: listingId, favorited: false });
  });

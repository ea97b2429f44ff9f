/** Favourites: an idempotent toggle (adding one present and removing one missing both succeed). */
import { z } from "zod";
import { PAGE_SIZES } from "../../contract/constants";
import type { FavoritesResponse, FavoriteToggleResponse } from "../../contract/listings";
import { addFavorite, favoritesPage, removeFavorite } from "../../db/queries/favorites";
import { findListingRow } from "../../db/queries/listings";
import { createRouter } from "../../lib/context";
import { decodeCursor, keysetPage } from "../../lib/cursor";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { requireViewableListing } from "../../services/viewable-listing";

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
    const { items, pagination } = keysetPage(await favoritesPage(c.var.db, user.id, cursor, limit + 1), limit, (last) => ({ c: last.created_at, id: last.listing_id }));
    return c.json<FavoritesResponse>({ favorites: items, pagination });
  })
  .post("/", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { listing_id } = await parseJson(c, z.object({ listing_id: z.string().min(1, "listing_id is required").max(64) }));
    requireViewableListing(await findListingRow(c.var.db, listing_id), user);
    const added = await addFavorite(c.var.db, user.id, listing_id);
    return c.json<FavoriteToggleResponse>({ listing_id, favorited: true }, added ? 201 : 200);
  })
  .delete("/:listingId", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const listingId = c.req.param("listingId");
    await removeFavorite(c.var.db, user.id, listingId);
    return c.json<FavoriteToggleResponse>({ listing_id: listingId, favorited: false });
  });

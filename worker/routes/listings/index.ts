/**
 * Subleases: browse (filters, sorts, full-text search, keyset pages), detail with the contract's
 * visibility rules, create (verified users), edit with re-review, delete with photos.
 */
import {
  browseQuerySchema,
  listingInputSchema,
  listingPatchSchema,
  type BrowseResponse,
  type CreateListingResponse,
  type ListingResponse,
  type OwnerListingResponse,
} from "../../contract/listings";
import { canCreateListing, canEditListing, isListingOwner, type Actor } from "../../contract/policies";
import type { Db } from "../../db/client";
import { browseCursorSchema, browseListings } from "../../db/browse";
import { findListingRow, rowsToListings, rowsToPublicListings, type ListingRow } from "../../db/queries/listings";
import type { UserRow } from "../../db/queries/users";
import { decodeCursor } from "../../lib/cursor";
import type { Context as HonoContext } from "hono";
import { createRouter, type AppContext } from "../../lib/context";
import { log } from "../../lib/log";
import { enqueuePhotoCheck } from "../../services/photo-check";
import { apiError, forbidden } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { optionalUserId } from "../../middleware/optional-user";
import { enforceLimit } from "../../middleware/rate-limit";
import { createListing, deleteListing, isRentBelowTypical, updateOwnListing } from "../../services/listings";
import { takenStaysOf } from "../../db/queries/deal-payments";
import { confirmAvailability } from "../../services/freshness";
import { requireViewableListing } from "../../services/viewable-listing";
import { edgeCached } from "../../services/edge-cache";

const actorOf = (user: UserRow): Actor => ({ id: user.id, id_verification_status: user.idVerificationStatus });

/**
 * The listing's new photos are checked by the photos queue's consumer (docs/decisions/028, 037), never
 * in the request; a check that could not be queued is the cron's backfill's to queue.
 */
async function checkPhotosLater(c: HonoContext<AppContext>, listingId: string) {
  await enqueuePhotoCheck(c.env, [listingId]).catch((err: unknown) => log.error("photo_check_not_queued", { message: err instanceof Error ? err.message : "unknown" }));
}

export const listingsRoutes = createRouter()
  // Signed-out answers are shared through the edge cache (services/edge-cache: 30 s fresh + 60 s stale).
  .get("/", (c) =>
    edgeCached(c, async () => {
      const query = parseQuery(c, browseQuerySchema);
      const cursor = decodeCursor(query.last_evaluated_key, browseCursorSchema);
      const result = await browseListings(c.var.db, query, cursor);
      return c.json<BrowseResponse>(
        {
          data: result.listings,
          pagination: { next_token: result.nextToken, has_more: result.nextToken !== null },
          meta: { rows_read: result.rowsRead },
        },
        200,
        { "X-Rows-Read": String(result.rowsRead) },
      );
    }),
  )

  // Only the bare address is cached: listing writes purge it (purgeListingCache).
  .get("/:id", (c) =>
    edgeCached(
      c,
      async () => {
        const db = c.var.db;
        const row = await findListingRow(db, c.req.param("id"));
        const userId = await optionalUserId(c);
        const viewer = userId ? { id: userId } : null;
        // The owner reads review notes and the subscription; everyone else the public form.
        const visible = requireViewableListing(row, viewer);
        const [listing] = isListingOwner(viewer, visible) ? await rowsToListings(db, [visible]) : await rowsToPublicListings(db, [visible]);
        const [rentBelowTypical, takenStays] = await Promise.all([isRentBelowTypical(db, visible), takenStaysOf(db, visible.id)]);
        return c.json<ListingResponse>({ data: { ...listing!, rent_below_typical: rentBelowTypical, taken_stays: takenStays } });
      },
      { query: false },
    ),
  )

  .post("/", async (c) => {
    const user = await requireUser(c);
    if (!canCreateListing(actorOf(user))) throw forbidden("You must be verified to create a listing");
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const input = await parseJson(c, listingInputSchema);
    const listing = await createListing(c.var.db, c.env, c.var.config, user.id, input);
    await checkPhotosLater(c, listing.id);
    return c.json<CreateListingResponse>({ id: listing.id, data: listing }, 201);
  })

  .patch("/:id", async (c) => {
    const user = await requireUser(c);
    const row = await requireVisible(c.var.db, c.req.param("id"), user);
    if (!canEditListing(user, row)) throw forbidden("You are not authorized to edit this listing.");
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const input = await parseJson(c, listingPatchSchema);
    const data = await updateOwnListing(c.var.db, c.env, c.var.config, user.id, row, input);
    if (input.pictures !== undefined) await checkPhotosLater(c, row.id);
    return c.json<OwnerListingResponse>({ data });
  })

  // Fresh listings: the owner says a live or paused listing is still available (others: 409).
  .post("/:id/confirm-availability", async (c) => {
    const user = await requireUser(c);
    const row = await requireVisible(c.var.db, c.req.param("id"), user);
    if (!canEditListing(user, row)) throw forbidden("You are not authorized to edit this listing.");
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    return c.json<OwnerListingResponse>({ data: await confirmAvailability(c.var.db, user.id, row) });
  })

  .delete("/:id", async (c) => {
    const user = await requireUser(c);
    const row = await requireVisible(c.var.db, c.req.param("id"), user);
    if (!canEditListing(user, row)) throw apiError(403, { detail: "You are not authorized to delete this listing." });
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await deleteListing(c.var.db, c.env, row.id);
    return c.body(null, 204);
  });

/** The listing if this person may see it (services/viewable-listing: anything else is "Listing not found"). */
async function requireVisible(db: Db, id: string, actor: { id: string }): Promise<ListingRow> {
  return requireViewableListing(await findListingRow(db, id), actor);
}

/** Staff's listing tools: lists, review, corrections, promotions. */
import { adminListingEditSchema, listingReviewSchema, notACopySchema, type AdminListingEditResponse, type AdminListingReviewResponse, type AdminListingsResponse, type AdminPromoteResponse, type CleanupPromotionsResponse, type SuccessResponse, type VerifyAllResponse } from "../../contract/admin";
import type { Db } from "../../db/client";
import { allListings, pendingListings, promotedListings, type StaffListing } from "../../db/queries/listings";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { approveAllListings, editListingByStaff, reviewListing, toAdminListingsWithRentCheck } from "../../services/listings";
import { endLapsedStaffPromotions, promoteByStaff, unpromoteByStaff } from "../../services/promotions";
import { purgeListingCache } from "../../services/edge-cache";
import { markNotACopy, withPhotoCheck } from "../../services/photo-check";

/** A staff list with the price check and the copied-photo check on every listing, read through one handle. */
const answer = async (db: Db, list: (db: Db) => Promise<StaffListing[]>): Promise<AdminListingsResponse> => ({
  listings: await withPhotoCheck(db, await toAdminListingsWithRentCheck(db, await list(db))),
});

export const adminListingsRoutes = createRouter()
  .get("/listings", async (c) => {
    await requireAdmin(c);
    return c.json<AdminListingsResponse>(await answer(c.var.db, allListings));
  })
  .get("/listings/pending", async (c) => {
    await requireAdmin(c);
    return c.json<AdminListingsResponse>(await answer(c.var.db, pendingListings));
  })
  .get("/listings/promoted", async (c) => {
    await requireAdmin(c);
    return c.json<AdminListingsResponse>(await answer(c.var.db, promotedListings));
  })

  .patch("/listings/:id/verify", async (c) => {
    const actor = await requireAdmin(c);
    const review = await parseJson(c, listingReviewSchema);
    const result = await reviewListing(c.var.db, c.env, c.var.config, actor, c.req.param("id"), review);
    return c.json<AdminListingReviewResponse>({ success: true, ...result });
  })

  .patch("/listings/:id", async (c) => {
    const actor = await requireAdmin(c);
    const edit = await parseJson(c, adminListingEditSchema);
    return c.json<AdminListingEditResponse>({ success: true, listing: await editListingByStaff(c.var.db, actor, c.req.param("id"), edit) });
  })

  // Staff judged a copied-photo match a different picture (roommates share a kitchen): docs/decisions/028.
  .post("/listings/:id/photo-matches/not-a-copy", async (c) => {
    const actor = await requireAdmin(c);
    const { picture, matched_picture } = await parseJson(c, notACopySchema);
    await markNotACopy(c.var.db, actor, c.req.param("id"), picture, matched_picture);
    return c.json<SuccessResponse>({ success: true });
  })

  .post("/listings/verify-all", async (c) => {
    const actor = await requireAdmin(c);
    return c.json<VerifyAllResponse>(await approveAllListings(c.var.db, c.env, c.var.config, actor));
  })

  .post("/listings/:id/promote", async (c) => {
    const actor = await requireAdmin(c);
    const { promotion_end } = await promoteByStaff(c.var.db, actor, c.req.param("id"));
    return c.json<AdminPromoteResponse>({ success: true, promotion_end });
  })

  .post("/listings/:id/unpromote", async (c) => {
    const actor = await requireAdmin(c);
    if (!(await unpromoteByStaff(c.var.db, actor, c.req.param("id")))) throw notFound("Listing not found");
    return c.json<SuccessResponse>({ success: true });
  })

  .post("/cleanup-expired-promotions", async (c) => {
    const actor = await requireAdmin(c);
    const expired = await endLapsedStaffPromotions(c.var.db, actor);
    // Every listing write moves the edge cache's generation (decision 016); this bulk one is made here.
    if (expired) await purgeListingCache([]);
    return c.json<CleanupPromotionsResponse>({ expired_count: expired });
  });

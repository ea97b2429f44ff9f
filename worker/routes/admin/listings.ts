/** Staff's listing tools: lists, review, corrections, promotions. */
import {
  adminListingEditSchema,
  listingReviewSchema,
  notACopySchema,
  staffPageSchema,
  type AdminListingEditResponse,
  type AdminListingReviewResponse,
  type AdminListingsResponse,
  type AdminPromoteResponse,
  type CleanupPromotionsResponse,
  type SuccessResponse,
  type VerifyAllResponse,
} from "../../contract/admin";
import type { StaffListingsView } from "../../db/queries/listings";
import { createRouter, type AppContext } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { approveAllListings, editListingByStaff, reviewListing } from "../../services/listings";
import { endLapsedStaffPromotions, promoteByStaff, unpromoteByStaff } from "../../services/promotions";
import { purgeListingCache } from "../../services/edge-cache";
import { markNotACopy } from "../../services/photo-check";
import { staffListings } from "../../services/staff-lists";
import type { Context } from "hono";

/** A staff listing tab, one page (docs/decisions/038), with the price check and the copied-photo check on every listing. */
async function listTab(c: Context<AppContext>, view: StaffListingsView) {
  await requireAdmin(c);
  const { items, pagination } = await staffListings(c.var.db, view, parseQuery(c, staffPageSchema));
  return c.json<AdminListingsResponse>({ listings: items, pagination });
}

export const adminListingsRoutes = createRouter()
  .get("/listings", (c) => listTab(c, "all"))
  .get("/listings/pending", (c) => listTab(c, "pending"))
  .get("/listings/promoted", (c) => listTab(c, "promoted"))

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

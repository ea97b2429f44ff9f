/** Staff: the reviews queue (reported or flagged by the scam shield), hidden reviews, hide with a reason and keep, both audited (docs/decisions/040). */
import type { Pagination } from "../../contract/listings";
import { adminReviewsQuerySchema, hideReviewSchema, reviewCursorSchema, type AdminReview } from "../../contract/reviews";
import { createRouter } from "../../lib/context";
import { decodeCursor } from "../../lib/cursor";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { hideReview, keepReview, reviewsForStaffPage } from "../../services/deals/reviews";

export const adminReviewsRoutes = createRouter()
  .get("/reviews", async (c) => {
    await requireAdmin(c);
    const { status, limit, last_evaluated_key } = parseQuery(c, adminReviewsQuerySchema);
    return c.json<{ reviews: AdminReview[]; pagination: Pagination }>(await reviewsForStaffPage(c.var.db, status, limit, decodeCursor(last_evaluated_key, reviewCursorSchema)));
  })
  .post("/reviews/:id/hide", async (c) => {
    const staff = await requireAdmin(c);
    const { reason } = await parseJson(c, hideReviewSchema);
    return c.json<{ data: AdminReview }>({ data: await hideReview(c.var.db, staff, c.req.param("id"), reason) });
  })
  .post("/reviews/:id/keep", async (c) => {
    const staff = await requireAdmin(c);
    return c.json<{ data: AdminReview }>({ data: await keepReview(c.var.db, staff, c.req.param("id")) });
  });

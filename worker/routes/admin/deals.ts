/** Staff: every deal, and one deal with its events and whole addresses (docs/decisions/026). */
import { adminDealsQuerySchema, dealCursorSchema, type AdminDealResponse, type Deal } from "../../contract/deals";
import type { Pagination } from "../../contract/listings";
import { createRouter } from "../../lib/context";
import { decodeCursor } from "../../lib/cursor";
import { parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { staffDeal, staffDeals } from "../../services/deals/staff";

export const adminDealsRoutes = createRouter()
  .get("/deals", async (c) => {
    await requireAdmin(c);
    const { status, limit, last_evaluated_key } = parseQuery(c, adminDealsQuerySchema);
    const page = await staffDeals(c.var.db, c.var.config, status ?? null, limit, decodeCursor(last_evaluated_key, dealCursorSchema));
    return c.json<{ data: Deal[]; pagination: Pagination }>(page);
  })
  .get("/deals/:id", async (c) => {
    await requireAdmin(c);
    return c.json<AdminDealResponse>({ data: await staffDeal(c.var.db, c.var.config, c.req.param("id")) });
  });

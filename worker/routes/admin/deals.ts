/** Staff: every deal, one deal with its events and whole addresses (docs/decisions/026), and a case's decision (029). */
import { adminDealsQuerySchema, dealCursorSchema, resolveDealSchema, type AdminDealResponse, type Deal, type DealResponse } from "../../contract/deals";
import type { Pagination } from "../../contract/listings";
import { createRouter } from "../../lib/context";
import { decodeCursor } from "../../lib/cursor";
import { parseJson, parseQuery } from "../../lib/validate";
import { deferOf } from "../../lib/request-meta";
import { resolveCase } from "../../services/payments";
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
  })
  // A case's decision (docs/decisions/029): 0 releases everything, the total refunds everything.
  .post("/deals/:id/resolve", async (c) => {
    const staff = await requireAdmin(c);
    const { refund_cents, reason } = await parseJson(c, resolveDealSchema);
    const data = await resolveCase(c.var.db, { env: c.env, config: c.var.config, defer: deferOf(c) }, staff, c.req.param("id"), refund_cents, reason || null);
    return c.json<DealResponse>({ data });
  });

/** Staff's reports queue (docs/decisions/015): open and resolved reports, resolving one, lifting a suspension. */
import { z } from "zod";
import { reportStatusQuery, resolveReportSchema, type AdminReportsResponse, type ResolveReportResponse, type UnsuspendResponse } from "../../contract/reports";
import { reportsPage } from "../../db/queries/reports";
import { createRouter } from "../../lib/context";
import { decodeCursor, keysetPage } from "../../lib/cursor";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { resolveReport, unsuspendUser } from "../../services/reports";

const reportCursor = z.object({ c: z.iso.datetime(), id: z.string().min(1).max(64) });

export const adminReportsRoutes = createRouter()
  .get("/reports", async (c) => {
    await requireAdmin(c);
    const { status, limit, last_evaluated_key } = parseQuery(c, reportStatusQuery);
    const rows = await reportsPage(c.var.db, status, decodeCursor(last_evaluated_key, reportCursor), limit + 1);
    const { items, pagination } = keysetPage(rows, limit, (last) => ({ c: last.created_at, id: last.id }));
    return c.json<AdminReportsResponse>({ reports: items, pagination });
  })

  .post("/reports/:id/resolve", async (c) => {
    const actor = await requireAdmin(c);
    const { action } = await parseJson(c, resolveReportSchema);
    return c.json<ResolveReportResponse>({ success: true, report: await resolveReport(c.var.db, c.env, actor, c.req.param("id"), action) });
  })

  .post("/users/:id/unsuspend", async (c) => {
    const actor = await requireAdmin(c);
    return c.json<UnsuspendResponse>({ success: true, restored_listings: await unsuspendUser(c.var.db, actor, c.req.param("id")) });
  });

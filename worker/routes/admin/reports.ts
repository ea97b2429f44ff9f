/** Staff's reports queue (issue 13): open and resolved reports, resolving one, lifting a suspension. */
import { z } from "zod";
import { reportStatusQuery, resolveReportSchema, type AdminReportsResponse, type ResolveReportResponse, type UnsuspendResponse } from "../../contract/reports";
import { reportsPage } from "../../db/queries/reports";
import { createRouter } from "../../lib/context";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { resolveReport, unsuspendUser } from "../../services/reports";

const reportCursor = z.object({ c: z.iso.datetime(), id: z.string().min(1).max(64) });

export const adminReportsRoutes = createRouter()
  .get("/reports", async (c) => {
    await requireAdmin(c);
    const { status, limit, last_evaluated_key } = parseQuery(c, reportStatusQuery);
    const rows = await reportsPage(c.env.DB, status, decodeCursor(last_evaluated_key, reportCursor), limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const hasMore = rows.length > limit;
    return c.json<AdminReportsResponse>({
      reports: page,
      pagination: { next_token: hasMore && last ? encodeCursor({ c: last.created_at, id: last.id }) : null, has_more: hasMore },
    });
  })

  .post("/reports/:id/resolve", async (c) => {
    const actor = await requireAdmin(c);
    const { action } = await parseJson(c, resolveReportSchema);
    return c.json<ResolveReportResponse>({ success: true, report: await resolveReport(c.env, actor, c.req.param("id"), action) });
  })

  .post("/users/:id/unsuspend", async (c) => {
    const actor = await requireAdmin(c);
    return c.json<UnsuspendResponse>({ success: true, restored_listings: await unsuspendUser(c.env, actor, c.req.param("id")) });
  });

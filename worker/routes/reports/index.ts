/** Reports (docs/decisions/015): a signed-in person reports a listing they can see, or someone they talk to. */
import { reportSchema, type ReportResponse } from "../../contract/reports";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { createReport } from "../../services/reports";

export const reportsRoutes = createRouter().post("/", async (c) => {
  const user = await requireUser(c);
  await enforceLimit(c, "WRITE_LIMITER", user.id);
  const input = await parseJson(c, reportSchema);
  const { report, created } = await createReport(c.var.db, user, input);
  return c.json<ReportResponse>({ data: report }, created ? 201 : 200);
});

/** A review's reply (by the reviewed person, once) and reports to staff (docs/decisions/040). */
import { reviewReplySchema, reviewReportSchema, type Review } from "../../contract/reviews";
import { createRouter } from "../../lib/context";
import { deferOf, requestMetaOf } from "../../lib/request-meta";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { replyToReview, reportReview } from "../../services/deals/reviews";

export const reviewsRoutes = createRouter()
  .post("/:id/reply", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { text } = await parseJson(c, reviewReplySchema);
    const data = await replyToReview(c.var.db, { env: c.env, config: c.var.config, defer: deferOf(c) }, user, c.req.param("id"), text, requestMetaOf(c));
    return c.json<{ data: Review }>({ data }, 201);
  })

  .post("/:id/report", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { reason } = await parseJson(c, reviewReportSchema);
    return c.json({ data: await reportReview(c.var.db, user, c.req.param("id"), reason) }, 201);
  });

/** Feedback: anyone sends it (throttled per IP); staff list, and archive one way. */
import { z } from "zod";
import { feedbackSchema, type FeedbackArchiveResponse, type FeedbackListResponse, type FeedbackSentResponse } from "../../contract/admin";
import { createRouter } from "../../lib/context";
import { parseJson, parseQuery } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { requireAdmin } from "../../middleware/require-admin";
import { archiveFeedbackItem, listFeedback, sendFeedback } from "../../services/feedback";

export const feedbackRoutes = createRouter()
  .post("/", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", `feedback:${addressKey(clientIp(c))}`);
    const body = await parseJson(c, feedbackSchema);
    const id = await sendFeedback(c.var.db, body.email, body.message, body.page ?? null);
    return c.json<FeedbackSentResponse>({ id, message: "Thanks for your feedback!" }, 201);
  })
  .get("/admin", async (c) => {
    await requireAdmin(c);
    const { status } = parseQuery(c, z.object({ status: z.enum(["active", "archived"]).default("active") }));
    return c.json<FeedbackListResponse>(await listFeedback(c.var.db, status === "archived"));
  })
  .put("/admin/:id/status", async (c) => {
    const actor = await requireAdmin(c);
    parseQuery(c, z.object({ status: z.literal("archived", "Feedback can only be archived") }));
    return c.json<FeedbackArchiveResponse>({ success: true, data: await archiveFeedbackItem(c.var.db, actor, c.req.param("id")) });
  });

/** Feedback: anyone sends it (throttled per IP); staff list, and archive one way. */
import { z } from "zod";
import { feedbackSchema, NEXT_TOKEN_HEADER, staffPageSchema, type FeedbackArchiveResponse, type FeedbackListResponse, type FeedbackSentResponse } from "../../contract/admin";
import { createRouter } from "../../lib/context";
import { parseJson, parseQuery } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { requireAdmin } from "../../middleware/require-admin";
import { archiveFeedbackItem, sendFeedback } from "../../services/feedback";
import { staffFeedback } from "../../services/staff-lists";

export const feedbackRoutes = createRouter()
  .post("/", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", `feedback:${addressKey(clientIp(c))}`);
    const body = await parseJson(c, feedbackSchema);
    const id = await sendFeedback(c.var.db, body.email, body.message, body.page ?? null);
    return c.json<FeedbackSentResponse>({ id, message: "Thanks for your feedback!" }, 201);
  })
  // One page, newest first; the spec's bare array, the next page's cursor in X-Next-Token (docs/decisions/038).
  .get("/admin", async (c) => {
    await requireAdmin(c);
    const { status, ...page } = parseQuery(c, staffPageSchema.extend({ status: z.enum(["active", "archived"], "status must be active or archived").default("active") }));
    const { items, pagination } = await staffFeedback(c.var.db, status === "archived", page);
    if (pagination.next_token) c.header(NEXT_TOKEN_HEADER, pagination.next_token);
    return c.json<FeedbackListResponse>(items);
  })
  .put("/admin/:id/status", async (c) => {
    const actor = await requireAdmin(c);
    parseQuery(c, z.object({ status: z.literal("archived", "Feedback can only be archived") }));
    return c.json<FeedbackArchiveResponse>({ success: true, data: await archiveFeedbackItem(c.var.db, actor, c.req.param("id")) });
  });

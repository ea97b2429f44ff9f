/** Staff's Safety queue (scam shield; docs/decisions/015): flagged conversations and their review, audited. */
import { z } from "zod";
import { SAFETY_QUEUE_PAGE, SAFETY_QUEUE_PAGE_MAX, type SafetyQueueResponse, type SafetyReviewResponse } from "../../contract/safety";
import { createRouter } from "../../lib/context";
import { decodeCursor } from "../../lib/cursor";
import { parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { reviewSafety, safetyQueue } from "../../services/safety";

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(SAFETY_QUEUE_PAGE_MAX).default(SAFETY_QUEUE_PAGE),
  last_evaluated_key: z.string().max(300).optional(),
});
const safetyCursor = z.object({ t: z.iso.datetime(), id: z.string().min(1).max(64) });

export const adminSafetyRoutes = createRouter()
  .get("/safety", async (c) => {
    await requireAdmin(c);
    const { limit, last_evaluated_key } = parseQuery(c, pageQuery);
    const { items, pagination } = await safetyQueue(c.var.db, decodeCursor(last_evaluated_key, safetyCursor), limit);
    return c.json<SafetyQueueResponse>({ conversations: items, pagination });
  })

  .post("/safety/:conversationId/review", async (c) => {
    const actor = await requireAdmin(c);
    const { changed } = await reviewSafety(c.var.db, actor, c.req.param("conversationId"));
    return c.json<SafetyReviewResponse>({ success: true, changed });
  });

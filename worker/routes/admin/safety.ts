/** Staff's Safety queue (issue 13, scam shield): flagged conversations and their review, audited. */
import { z } from "zod";
import { SAFETY_QUEUE_PAGE, SAFETY_QUEUE_PAGE_MAX, type SafetyQueueResponse, type SafetyReviewResponse } from "../../contract/safety";
import { createRouter } from "../../lib/context";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
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
    const { items, hasMore } = await safetyQueue(c.env, decodeCursor(last_evaluated_key, safetyCursor), limit);
    const last = items.at(-1);
    return c.json<SafetyQueueResponse>({
      conversations: items,
      pagination: { next_token: hasMore && last ? encodeCursor({ t: last.flagged_at, id: last.conversation_id }) : null, has_more: hasMore },
    });
  })

  .post("/safety/:conversationId/review", async (c) => {
    const actor = await requireAdmin(c);
    const { changed } = await reviewSafety(c.env, actor, c.req.param("conversationId"));
    return c.json<SafetyReviewResponse>({ success: true, changed });
  });

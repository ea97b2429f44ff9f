/** Feedback: anyone sends it (throttled per IP); staff list, and archive one way. */
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { feedbackSchema, type FeedbackItem } from "../../contract/admin";
import { createDb } from "../../db/client";
import { feedback } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { parseJson, parseQuery } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { requireAdmin } from "../../middleware/require-admin";
import { audit } from "../../services/audit";

const toItem = (r: typeof feedback.$inferSelect): FeedbackItem => ({
  id: r.id,
  email: r.email,
  message: r.message,
  timestamp: r.createdAt,
  archived: r.archived,
});

export const feedbackRoutes = createRouter()
  .post("/", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", `feedback:${addressKey(clientIp(c))}`);
    const body = await parseJson(c, feedbackSchema);
    const id = newId();
    await createDb(c.env).insert(feedback).values({ id, email: body.email.toLowerCase(), message: body.message, createdAt: isoNow() });
    return c.json({ id, message: "Thanks for your feedback!" }, 201);
  })
  .get("/admin", async (c) => {
    await requireAdmin(c);
    const { status } = parseQuery(c, z.object({ status: z.enum(["active", "archived"]).default("active") }));
    const rows = await createDb(c.env)
      .select()
      .from(feedback)
      .where(eq(feedback.archived, status === "archived"))
      .orderBy(desc(feedback.createdAt))
      .limit(500);
    return c.json(rows.map(toItem));
  })
  .put("/admin/:id/status", async (c) => {
    const actor = await requireAdmin(c);
    parseQuery(c, z.object({ status: z.literal("archived", "Feedback can only be archived") }));
    const db = createDb(c.env);
    const id = c.req.param("id");
    const row = await db.select().from(feedback).where(eq(feedback.id, id)).get();
    if (!row) throw notFound("Feedback not found");
    await db.batch([
      db.update(feedback).set({ archived: true, archivedAt: isoNow() }).where(and(eq(feedback.id, id), eq(feedback.archived, false))),
      audit(db, actor, "feedback_archive", "feedback", id),
    ]);
    return c.json({ success: true, data: toItem({ ...row, archived: true }) });
  });

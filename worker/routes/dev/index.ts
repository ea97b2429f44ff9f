/**
 * Development-only routes (ENVIRONMENT=development or test): the dev mailbox of the API contract
 * and the demo-data seeder used by `npm start`. Outside development every path here is 404.
 */
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DevEmail } from "../../contract/api";
import { createDb } from "../../db/client";
import { devEmails } from "../../db/schema";
import { seedDemoData } from "../../db/seed/seed";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";

const seedBody = z.object({
  photos: z
    .array(z.object({ name: z.string().min(1).max(100), data: z.string().min(1) }))
    .min(1)
    .max(64),
});

export const devRoutes = createRouter()
  .use("*", async (c, next) => {
    if (!c.var.config.isDevelopment) throw notFound();
    await next();
  })
  .get("/emails", async (c) => {
    const { to } = parseQuery(c, z.object({ to: z.string().optional() }));
    const rows = await createDb(c.env)
      .select()
      .from(devEmails)
      .where(to ? and(eq(devEmails.to, to.trim().toLowerCase())) : undefined)
      .orderBy(desc(devEmails.createdAt), desc(devEmails.id))
      .limit(100);
    const data: DevEmail[] = rows.map((r) => ({
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      created_at: r.createdAt,
    }));
    return c.json({ data });
  })
  .post("/seed", async (c) => {
    const body = await parseJson(c, seedBody);
    const result = await seedDemoData(c.env, body.photos);
    return c.json(result, result.seeded ? 201 : 200);
  });

/**
 * Development-only routes (ENVIRONMENT=development or test): the dev mailbox of the API contract
 * and the demo-data seeder used by `npm start`. Outside development every path here is 404.
 */
import { z } from "zod";
import type { DevEmailsResponse } from "../../contract/api";
import { createDb } from "../../db/client";
import { seedDemoData } from "../../db/seed/seed";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";
import { devMailbox } from "../../services/email";
import { playRenewal } from "../../services/dev-checkout";

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
    return c.json<DevEmailsResponse>({ data: await devMailbox(createDb(c.env), to) });
  })
  // Plays the next renewal of a listing's promotion through the signed webhook path: paid or failed.
  .post("/promotions/:listingId/renew", async (c) => {
    await playRenewal(c.env, c.var.config, c.req.param("listingId"), "paid");
    return c.body(null, 204);
  })
  .post("/promotions/:listingId/fail-payment", async (c) => {
    await playRenewal(c.env, c.var.config, c.req.param("listingId"), "failed");
    return c.body(null, 204);
  })
  .post("/seed", async (c) => {
    const body = await parseJson(c, seedBody);
    const result = await seedDemoData(c.env, body.photos);
    return c.json(result, result.seeded ? 201 : 200);
  });

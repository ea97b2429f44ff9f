/**
 * Development-only routes (ENVIRONMENT=development only): the dev mailbox of the API contract
 * and the demo-data seeder used by `npm start`. Outside development every path here is 404.
 */
import { z } from "zod";
import type { DevEmailsResponse } from "../../contract/api";
import type { DevAgeAvailabilityResponse, DevHousekeepingResponse } from "../../contract/freshness";
import { setAvailabilityConfirmedAt } from "../../db/queries/freshness";
import { seedDemoData } from "../../db/seed/seed";
import { seedScale } from "../../db/seed/scale";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";
import { devMailbox } from "../../services/email";
import { playRenewal } from "../../services/dev-checkout";
import { runHousekeeping, runDealJobs } from "../../services/housekeeping";
import { devDealsTickSchema } from "../../contract/deals";

/** The scale seed's counts (docs/decisions/038): a market's size by default. */
const count = (max: number, fallback: number) => z.number(`must be a whole number from 0 to ${max}`).int(`must be a whole number from 0 to ${max}`).min(0).max(max).default(fallback);
const scaleSeedBody = z
  .object({
    listings: count(100_000, 20_000),
    users: count(50_000, 10_000),
    conversations: count(20_000, 2_000),
    messages_per_conversation: count(50, 5),
  })
  .refine((b) => b.users > 0 || (b.listings === 0 && b.conversations === 0), { message: "Listings and conversations need users", path: ["users"] });

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
    return c.json<DevEmailsResponse>({ data: await devMailbox(c.var.db, to) });
  })
  // Plays the next renewal of a listing's promotion through the signed webhook path: paid or failed.
  .post("/promotions/:listingId/renew", async (c) => {
    await playRenewal(c.var.db, c.env, c.var.config, c.req.param("listingId"), "paid");
    return c.body(null, 204);
  })
  .post("/promotions/:listingId/fail-payment", async (c) => {
    await playRenewal(c.var.db, c.env, c.var.config, c.req.param("listingId"), "failed");
    return c.body(null, 204);
  })
  // Fresh listings (docs/decisions/015): run the cron's housekeeping as if it were `at` (default now).
  .post("/housekeeping", async (c) => {
    const { at } = await parseJson(c, z.object({ at: z.iso.datetime().optional() }));
    return c.json<DevHousekeepingResponse>(await runHousekeeping(c.env, at ? Date.parse(at) : Date.now()));
  })
  // Deals (docs/decisions/026, 029): only the deal jobs (expiry, release, lapsed cancellation decisions) as of `now`.
  .post("/deals/tick", async (c) => {
    const { now } = await parseJson(c, devDealsTickSchema);
    return c.json({ data: await runDealJobs(c.env, Date.parse(now), (t) => c.executionCtx.waitUntil(t)) });
  })
  // Fresh listings: make a listing's last confirmation (and question) `days` days old.
  .post("/listings/:id/age-availability", async (c) => {
    const { days } = await parseJson(c, z.object({ days: z.number().min(0).max(365) }));
    const at = new Date(Date.now() - days * 86_400_000).toISOString();
    if (!(await setAvailabilityConfirmedAt(c.var.db, c.req.param("id"), at))) throw notFound("Listing not found");
    return c.json<DevAgeAvailabilityResponse>({ availability_confirmed_at: at });
  })
  // A market-sized database (synthetic rows up to these counts; repeating adds nothing): benchmarks and tests at size.
  .post("/scale-seed", async (c) => {
    const counts = await parseJson(c, scaleSeedBody);
    return c.json(await seedScale(c.env, counts));
  })
  .post("/seed", async (c) => {
    const body = await parseJson(c, seedBody);
    const result = await seedDemoData(c.env, body.photos);
    return c.json(result, result.seeded ? 201 : 200);
  });

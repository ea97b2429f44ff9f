import { z } from "zod";
import { createRouter } from "../../lib/context";
import { parseQuery } from "../../lib/validate";
import { optionalUserId } from "../../middleware/optional-user";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { suggestAddresses, withLocationTokens } from "../../services/geo";

export const geoRoutes = createRouter().get("/autocomplete", async (c) => {
  const { q } = parseQuery(c, z.object({ q: z.string().trim().max(200).default("") }));
  if (q.length < 3) return c.json({ data: [] });
  // Per person when signed in (the listing form), else per address: a campus shares a few addresses.
  await enforceLimit(c, "WRITE_LIMITER", `geo:${(await optionalUserId(c)) ?? addressKey(clientIp(c))}`);
  c.header("Cache-Control", "private, max-age=300");
  // Tokens do not expire (services/geo-token), so the private cache stays right.
  return c.json({ data: await withLocationTokens(c.var.config.jwtSecret, await suggestAddresses(c.env, q)) });
});

import { z } from "zod";
import { createRouter } from "../../lib/context";
import { parseQuery } from "../../lib/validate";
import { optionalUserId } from "../../middleware/optional-user";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { suggestAddresses } from "../../services/geo";

export const geoRoutes = createRouter().get("/autocomplete", async (c) => {
  const { q } = parseQuery(c, z.object({ q: z.string().trim().max(200).default("") }));
  if (q.length < 3) return c.json({ data: [] });
  // Per person when signed in (the listing form), else per address: a campus shares a few addresses.
  await enforceLimit(c, "WRITE_LIMITER", `geo:${(await optionalUserId(c)) ?? addressKey(clientIp(c))}`);
  c.header("Cache-Control", "private, max-age=300");
  return c.json({ data: await suggestAddresses(c.env, q) });
});

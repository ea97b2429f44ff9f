/**
 * Fresh listings' one-click links (docs/decisions/015): public, no sign-in (the signed token is the permission),
 * throttled by address. POST check says what a link is about and changes nothing (mail scanners open
 * links); POST confirm applies it. Both take the token in the body, never in the URL: a 30-day token in
 * a query string would land in platform request logs (docs/decisions/022; the emailed link carries it in the
 * page's #fragment, which browsers never send).
 */
import { availabilityTokenSchema, type AvailabilityLinkResponse } from "../../contract/freshness";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { applyAvailabilityLink, checkAvailabilityLink } from "../../services/freshness";

export const availabilityRoutes = createRouter()
  .post("/check", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", addressKey(clientIp(c)));
    const { token } = await parseJson(c, availabilityTokenSchema);
    return c.json<AvailabilityLinkResponse>(await checkAvailabilityLink(c.var.db, c.var.config, token));
  })
  .post("/confirm", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", addressKey(clientIp(c)));
    const { token } = await parseJson(c, availabilityTokenSchema);
    return c.json<AvailabilityLinkResponse>(await applyAvailabilityLink(c.var.db, c.env, c.var.config, token));
  });

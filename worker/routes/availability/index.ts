/**
 * Fresh listings' one-click links (issue 13): public, no sign-in (the signed token is the permission),
 * throttled by address. GET check says what a link is about and changes nothing (mail scanners open
 * links); POST confirm applies it.
 */
import { availabilityTokenSchema, type AvailabilityLinkResponse } from "../../contract/freshness";
import { createRouter } from "../../lib/context";
import { parseJson, parseQuery } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { applyAvailabilityLink, checkAvailabilityLink } from "../../services/freshness";

export const availabilityRoutes = createRouter()
  .get("/check", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", addressKey(clientIp(c)));
    const { token } = parseQuery(c, availabilityTokenSchema);
    return c.json<AvailabilityLinkResponse>(await checkAvailabilityLink(c.env, c.var.config, token));
  })
  .post("/confirm", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", addressKey(clientIp(c)));
    const { token } = await parseJson(c, availabilityTokenSchema);
    return c.json<AvailabilityLinkResponse>(await applyAvailabilityLink(c.env, c.var.config, token));
  });

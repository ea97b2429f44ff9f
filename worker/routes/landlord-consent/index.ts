/**
 * The landlord's page's calls (api-contract "Deals"; docs/decisions/026): no account, the token in the
 * path (an unguessable, single-purpose, expiring link). Unknown: 404; used, replaced or expired: 410.
 */
import { landlordDecisionSchema, type LandlordConsentPage } from "../../contract/deals";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { limitByAddress } from "../../middleware/rate-limit";
import { consentPage, decideConsent } from "../../services/deals/landlord";
import { deferOf, requestMetaOf } from "../../lib/request-meta";

export const landlordConsentRoutes = createRouter()
  .get("/:token", async (c) => {
    await limitByAddress(c);
    return c.json<{ data: LandlordConsentPage }>({ data: await consentPage(c.var.db, c.req.param("token")) });
  })
  .post("/:token", async (c) => {
    await limitByAddress(c);
    const input = await parseJson(c, landlordDecisionSchema);
    return c.json<{ data: { status: "granted" | "declined" } }>({ data: await decideConsent(c.var.db, { env: c.env, config: c.var.config, defer: deferOf(c) }, c.req.param("token"), input, requestMetaOf(c)) });
  });

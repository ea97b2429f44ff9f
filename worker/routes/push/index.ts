/** Web Push: the worker's public key and the signed-in user's subscriptions (docs/decisions/027). */
import { isAllowedPushEndpoint, PUSH, pushSubscribeSchema, pushUnsubscribeSchema, type VapidKeyResponse } from "../../contract/push";
import { deleteSubscriptionOf, upsertSubscription } from "../../db/queries/push";
import { createRouter } from "../../lib/context";
import { apiError, conflict, validationFailed } from "../../lib/errors";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { vapidKeys } from "../../services/push";
import { validKeys } from "../../services/push/web-push";

const ENDPOINT_REFUSED = "endpoint must be an https address of a known push service";
const ENDPOINT_TAKEN = "This push subscription belongs to another account. Turn notifications off there, or subscribe this browser again.";

export const pushRoutes = createRouter()
  .get("/vapid-public-key", (c) => {
    const keys = vapidKeys(c.env, c.var.config);
    if (!keys) throw apiError(503, { detail: "Push notifications are not configured here." });
    return c.json<VapidKeyResponse>({ data: { key: keys.publicKey } });
  })
  .post("/subscriptions", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, pushSubscribeSchema);
    if (!isAllowedPushEndpoint(body.endpoint, c.var.config.isDevelopment)) throw validationFailed([{ path: "endpoint", message: ENDPOINT_REFUSED }]);
    if (!(await validKeys(body.keys.p256dh, body.keys.auth))) {
      throw validationFailed([{ path: "keys", message: "keys must be the subscription's P-256 key and 16-byte auth secret (base64url)" }]);
    }
    const stored = await upsertSubscription(c.var.db, user.id, body.endpoint, body.keys.p256dh, body.keys.auth, PUSH.maxSubscriptions);
    if (stored === "conflict") throw conflict(ENDPOINT_TAKEN);
    return c.json({ data: { endpoint: body.endpoint } }, stored === "created" ? 201 : 200);
  })
  .delete("/subscriptions", async (c) => {
    const user = await requireUser(c);
    const body = await parseJson(c, pushUnsubscribeSchema);
    // Only the user's own: another account's endpoint is left alone (and the answer says nothing of it).
    await deleteSubscriptionOf(c.var.db, user.id, body.endpoint);
    return c.body(null, 204);
  });

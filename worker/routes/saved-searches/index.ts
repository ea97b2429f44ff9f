/**
 * Saved searches (docs/decisions/020): a student's own searches (someone else's answer 404), and the alert
 * emails' unsubscribe link, which works without signing in (the signed token is the permission),
 * throttled by address. Unsubscribing is a POST: mail scanners open links, and must never act.
 */
import {
  savedSearchCreateSchema,
  savedSearchPatchSchema,
  savedSearchTokenSchema,
  type SavedSearchResponse,
  type SavedSearchesResponse,
  type SavedSearchUnsubscribeResponse,
} from "../../contract/saved-searches";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import {
  applyUnsubscribeLink,
  readUnsubscribeLink,
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  updateSavedSearch,
} from "../../services/saved-searches";

export const savedSearchesRoutes = createRouter()
  .get("/", async (c) => {
    const user = await requireUser(c);
    return c.json<SavedSearchesResponse>({ data: await listSavedSearches(c.var.db, user.id) });
  })
  // The unsubscribe page names the search before the student decides (reading changes nothing).
  .post("/link", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", addressKey(clientIp(c)));
    const { token } = await parseJson(c, savedSearchTokenSchema);
    return c.json<SavedSearchUnsubscribeResponse>(await readUnsubscribeLink(c.var.db, c.var.config, token));
  })
  .post("/unsubscribe", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", addressKey(clientIp(c)));
    const { token } = await parseJson(c, savedSearchTokenSchema);
    return c.json<SavedSearchUnsubscribeResponse>(await applyUnsubscribeLink(c.var.db, c.var.config, token, true));
  })
  // The unsubscribe page's Undo: the same token resumes a pause the link made within the hour (else 409).
  .post("/resubscribe", async (c) => {
    await enforceLimit(c, "WRITE_LIMITER", addressKey(clientIp(c)));
    const { token } = await parseJson(c, savedSearchTokenSchema);
    return c.json<SavedSearchUnsubscribeResponse>(await applyUnsubscribeLink(c.var.db, c.var.config, token, false));
  })
  .post("/", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const input = await parseJson(c, savedSearchCreateSchema);
    return c.json<SavedSearchResponse>({ data: await createSavedSearch(c.var.db, user.id, input) }, 201);
  })
  .patch("/:id", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const patch = await parseJson(c, savedSearchPatchSchema);
    return c.json<SavedSearchResponse>({ data: await updateSavedSearch(c.var.db, user.id, c.req.param("id"), patch) });
  })
  .delete("/:id", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await deleteSavedSearch(c.var.db, user.id, c.req.param("id"));
    return c.body(null, 204);
  });

/**
 * The signed-in user's blocks (docs/decisions/015): whom they blocked, block, unblock. Mounted at
 * /api/v1/users/blocks before the users routes, so `users/{id}` never answers for it.
 */
import { blockSchema, type BlockedUsersResponse } from "../../contract/reports";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { blockedUsers, blockUser, unblockUser } from "../../services/reports";

export const blocksRoutes = createRouter()
  .get("/", async (c) => {
    const user = await requireUser(c);
    return c.json<BlockedUsersResponse>({ data: await blockedUsers(c.var.db, user.id) });
  })

  .post("/", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { user_id } = await parseJson(c, blockSchema);
    return c.json<BlockedUsersResponse>({ data: await blockUser(c.var.db, c.env, user, user_id) }, 201);
  })

  .delete("/:userId", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await unblockUser(c.var.db, user, c.req.param("userId"));
    return c.body(null, 204);
  });

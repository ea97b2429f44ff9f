/** Staff's user tools: the list, and setting a user's identity status by hand. */
import { adminUserStatusSchema, staffPageSchema, type AdminUserResponse, type AdminUsersResponse } from "../../contract/admin";
import { createRouter } from "../../lib/context";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { setIdentityStatus } from "../../services/admin";
import { staffUsers } from "../../services/staff-lists";

export const adminUsersRoutes = createRouter()
  // One page, newest first, or a search by id, email or name (docs/decisions/038).
  .get("/users", async (c) => {
    await requireAdmin(c);
    const { items, pagination } = await staffUsers(c.var.db, parseQuery(c, staffPageSchema));
    return c.json<AdminUsersResponse>({ users: items, pagination });
  })

  .patch("/users/:id/verify", async (c) => {
    const actor = await requireAdmin(c);
    const { verification_status } = await parseJson(c, adminUserStatusSchema);
    return c.json<AdminUserResponse>({ success: true, user: await setIdentityStatus(c.var.db, actor, c.req.param("id"), verification_status) });
  });

/** Staff's user tools: the list, and setting a user's identity status by hand. */
import { adminUserStatusSchema, type AdminUserResponse, type AdminUsersResponse } from "../../contract/admin";
import { listUsers, toPrivateUser } from "../../db/queries/users";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { setIdentityStatus } from "../../services/admin";

export const adminUsersRoutes = createRouter()
  .get("/users", async (c) => {
    await requireAdmin(c);
    return c.json<AdminUsersResponse>({ users: (await listUsers(c.var.db, 1000)).map((u) => ({ ...toPrivateUser(u), suspended_at: u.suspendedAt })) });
  })

  .patch("/users/:id/verify", async (c) => {
    const actor = await requireAdmin(c);
    const { verification_status } = await parseJson(c, adminUserStatusSchema);
    return c.json<AdminUserResponse>({ success: true, user: await setIdentityStatus(c.var.db, actor, c.req.param("id"), verification_status) });
  });

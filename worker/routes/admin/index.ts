/**
 * The staff API (token from admin/login as a bearer header only, `?token=` refused; any bad or expired
 * token is 401). Reviews are guarded updates, so two admins or a retry cannot apply one twice; every action
 * is written to admin_audit. This file: the staff session and the audit log; the areas are mounted below.
 */
import { adminLoginSchema, DELETABLE_TABLES, type AdminAuditResponse, type AdminLoginResponse, type AdminTablesResponse } from "../../contract/admin";
import { recentAudit } from "../../db/queries/admin";
import { timingSafeEqualText, sha256Hex } from "../../lib/encoding";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { requireAdmin, revokeAdminToken, signAdminToken } from "../../middleware/require-admin";
import { insertAudit } from "../../db/queries/audit";
import { adminDealsRoutes } from "./deals";
import { adminDeadLettersRoutes } from "./dead-letters";
import { adminListingsRoutes } from "./listings";
import { adminReportsRoutes } from "./reports";
import { adminSafetyRoutes } from "./safety";
import { adminSiteRoutes } from "./site";
import { adminUsersRoutes } from "./users";

export const adminRoutes = createRouter()
  .post("/login", async (c) => {
    // Its own limiters (decision 010): every attempt per address, and wrong passwords for the whole
    // world. The global one counts failures only, so a flood of guesses never keeps staff out.
    await enforceLimit(c, "ADMIN_LOGIN_LIMITER", addressKey(clientIp(c)));
    const { password } = await parseJson(c, adminLoginSchema);
    // Compare digests in constant time: neither length nor prefix of the secret leaks.
    const ok = timingSafeEqualText(await sha256Hex(password), await sha256Hex(c.var.config.adminPassword));
    if (!ok) {
      await enforceLimit(c, "ADMIN_LOGIN_GLOBAL_LIMITER", "all");
      return c.json<AdminLoginResponse>({ success: false, detail: "Invalid password" }, 401);
    }
    const { token, actor } = await signAdminToken(c.var.config.jwtSecret);
    // The same actor as the session's later actions, so the log ties them to this sign-in.
    await insertAudit(c.var.db, actor, "login", null, null);
    return c.json<AdminLoginResponse>({ success: true, token });
  })

  .post("/logout", async (c) => {
    const actor = await revokeAdminToken(c);
    await insertAudit(c.var.db, actor, "logout", null, null);
    return c.body(null, 204);
  })

  .get("/tables", async (c) => {
    await requireAdmin(c);
    return c.json<AdminTablesResponse>({ tables: DELETABLE_TABLES });
  })

  .get("/audit", async (c) => {
    await requireAdmin(c);
    const rows = await recentAudit(c.var.db);
    return c.json<AdminAuditResponse>({
      audit: rows.map((r) => ({ id: r.id, actor: r.actor, action: r.action, table: r.targetTable, item_id: r.targetId, details: r.details, created_at: r.createdAt })),
    });
  })

  .route("/", adminUsersRoutes)
  .route("/", adminListingsRoutes)
  .route("/", adminSiteRoutes)
  .route("/", adminReportsRoutes)
  .route("/", adminSafetyRoutes)
  .route("/", adminDealsRoutes)
  .route("/", adminDeadLettersRoutes);

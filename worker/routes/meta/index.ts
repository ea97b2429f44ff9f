import { sql } from "drizzle-orm";
import type { HealthResponse, VersionResponse } from "../../contract/api";
import { createDb } from "../../db/client";
import { createRouter } from "../../lib/context";
import { log } from "../../lib/log";
import { APP_VERSION } from "../../version";

export const metaRoutes = createRouter()
  .get("/health", async (c) => {
    try {
      await createDb(c.env).run(sql`SELECT 1`);
      return c.json({ status: "ok", database: "ok" } satisfies HealthResponse);
    } catch (err) {
      log.error("health_database_error", { request_id: c.var.requestId, message: String(err) });
      return c.json({ status: "error", database: "error" } satisfies HealthResponse, 503);
    }
  })
  .get("/version", (c) => c.json({ version: APP_VERSION } satisfies VersionResponse));

import type { HealthResponse, VersionResponse } from "../../contract/api";
import { pingDatabase } from "../../db/queries/health";
import { createRouter } from "../../lib/context";
import { log } from "../../lib/log";
import { APP_VERSION } from "../../version";

export const metaRoutes = createRouter()
  .get("/health", async (c) => {
    try {
      await pingDatabase(c.var.db);
      return c.json({ status: "ok", database: "ok" } satisfies HealthResponse);
    } catch (err) {
      log.error("health_database_error", { request_id: c.var.requestId, message: String(err) });
      return c.json({ status: "error", database: "error" } satisfies HealthResponse, 503);
    }
  })
  .get("/version", (c) => c.json({ version: APP_VERSION } satisfies VersionResponse));

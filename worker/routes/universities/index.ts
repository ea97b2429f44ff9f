import type { ListResponse, University } from "../../contract/api";
import { listUniversities } from "../../db/queries/universities";
import { createRouter } from "../../lib/context";
import { edgeCached } from "../../services/edge-cache";

export const universitiesRoutes = createRouter().get("/", (c) =>
  edgeCached(c, async () => {
    const rows = await listUniversities(c.var.db);
    // Reference data changes only with a migration: let browsers and the edge reuse it for an hour.
    return c.json<ListResponse<University>>({ data: rows }, 200, { "Cache-Control": "public, max-age=3600" });
  }),
);

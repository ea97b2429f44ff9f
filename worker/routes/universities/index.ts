import type { ListResponse, University } from "../../contract/api";
import { createDb } from "../../db/client";
import { listUniversities } from "../../db/queries/universities";
import { createRouter } from "../../lib/context";

export const universitiesRoutes = createRouter().get("/", async (c) => {
  const rows = await listUniversities(createDb(c.env));
  // Reference data changes only with a migration: let browsers and the edge reuse it for an hour.
  c.header("Cache-Control", "public, max-age=3600");
  return c.json<ListResponse<University>>({ data: rows });
});

import { asc } from "drizzle-orm";
import type { ListResponse, University } from "../../contract/api";
import { createDb } from "../../db/client";
import { universities } from "../../db/schema";
import { createRouter } from "../../lib/context";

export const universitiesRoutes = createRouter().get("/", async (c) => {
  const rows = await createDb(c.env)
    .select({ id: universities.id, name: universities.name, abbreviation: universities.abbreviation })
    .from(universities)
    .orderBy(asc(universities.name));
  // Reference data changes only with a migration: let browsers and the edge reuse it for an hour.
  c.header("Cache-Control", "public, max-age=3600");
  return c.json({ data: rows } satisfies ListResponse<University>);
});

import { defineConfig } from "drizzle-kit";

// Migrations are generated from worker/db/schema.ts and applied by wrangler (`d1 migrations apply`).
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/schema.ts",
  out: "./migrations",
});

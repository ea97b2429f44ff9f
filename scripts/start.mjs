#!/usr/bin/env node
/**
 * `npm start`: builds the SPA, applies the D1 migrations locally, serves SPA + API on
 * http://localhost:8787 and seeds demo data when the database is empty. Data persists in
 * .wrangler/state between runs. `npm run dev` (--dev) serves through Vite with hot reload instead.
 */
import { applyMigrations, buildSpa, ensureDevVars, seedDemoData, spawnServer, waitForHealth } from "./lib/server.mjs";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? (dev ? 5173 : 8787));
const baseUrl = `http://localhost:${port}`;

ensureDevVars();
if (!dev) {
  console.log("Building the web app...");
  buildSpa();
}
console.log("Applying database migrations...");
applyMigrations();

const server = spawnServer({ port, dev });
const shutdown = () => {
  server.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
server.child.on("exit", (code) => process.exit(code ?? 0));

try {
  await waitForHealth(baseUrl, 120_000);
  const seed = await seedDemoData(baseUrl);
  if (seed.seeded) console.log(`Seeded demo data: ${seed.users} users, ${seed.listings} listings, ${seed.photos} photos.`);
  console.log(`
  CampusNest is running on ${baseUrl}

  Demo logins:  lister@campusnest.dev / lister-demo-123   (ID-verified, can create listings)
                student@campusnest.dev / student-demo-123 (plain student)
  Admin panel:  ${baseUrl}/staff  password admin-dev-password
  Dev mailbox:  ${baseUrl}/api/v1/dev/emails

  Press Ctrl+C to stop.
`);
} catch (err) {
  console.error(String(err));
  shutdown();
}

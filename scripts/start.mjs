#!/usr/bin/env node
/**
 * `npm start`: builds the SPA, applies the D1 migrations locally, serves SPA + API on
 * http://localhost:8787 (or the port in PORT) and seeds demo data when the database is empty. Data
 * persists in .wrangler/state between runs. `npm run dev` (--dev) serves through Vite with hot reload
 * instead (port 5173, or PORT).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, buildSpa, ensureDevVars, ROOT, seedDemoData, spawnServer, waitForHealth } from "./lib/server.mjs";

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

/**
 * Emailed links start with PUBLIC_BASE_URL. When .dev.vars leaves it empty or points
 * it at this machine (the default http://localhost:8787), the server gets this run's own address, so
 * links mailed by scheduled jobs lead here too (the worker also uses the request's own local address
 * for links mailed while answering a request). A non-local address there (a tunnel) is kept.
 */
function localBaseUrlVars() {
  let configured = "";
  try {
    const line = readFileSync(join(ROOT, ".dev.vars"), "utf8").split(/\r?\n/).find((l) => /^\s*PUBLIC_BASE_URL\s*=/.test(l));
    configured = (line?.split("=").slice(1).join("=") ?? "").trim().replace(/^["']|["']$/g, "");
  } catch {
    /* no .dev.vars: the defaults */
  }
  const local = !configured || /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\/?$/.test(configured);
  return local ? { PUBLIC_BASE_URL: baseUrl } : {};
}

// wrangler (WRANGLER_LOG=warn) says nothing while it bundles the worker and starts workerd: say what is
// happening, and that it is still happening, so a first start's minute does not look like a hang.
console.log(
  dev
    ? "Starting the Vite dev server with the worker (bundling it and starting workerd: up to a minute)..."
    : "Starting the local server (wrangler bundles the worker and starts workerd with the local database, storage and queues: up to a minute)...",
);
const server = spawnServer({ port, dev, vars: localBaseUrlVars() });
const shutdown = () => {
  server.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
server.child.on("exit", (code) => process.exit(code ?? 0));

try {
  const startedAt = Date.now();
  const stillStarting = setInterval(() => console.log(`  ...still starting (${Math.round((Date.now() - startedAt) / 1000)} s); it answers on ${baseUrl} when ready`), 15_000);
  await waitForHealth(baseUrl, 120_000).finally(() => clearInterval(stillStarting));
  console.log(`The server answers (after ${Math.round((Date.now() - startedAt) / 1000)} s).`);
  // The server answers, but a page opened now is empty until the demo data is in: the address is printed
  // only after the seed has answered (it bumps the listings generation, so nothing cached meanwhile is
  // served afterwards: decision 016).
  console.log("Loading demo data when the database is empty (a few seconds on the first start; the site fills in when it is done)...");
  const seed = await seedDemoData(baseUrl);
  if (seed.seeded) console.log(`Seeded demo data: ${seed.users} users, ${seed.listings} listings, ${seed.photos} photos.`);
  console.log(`
  CampusNest is running on ${baseUrl}

  Demo logins:  lister@campusnest.dev / lister-demo-123   (ID-verified, can create listings)
                student@campusnest.dev / student-demo-123 (plain student)
  Admin panel:  ${baseUrl}/staff  password admin-dev-password
  Dev mailbox:  ${baseUrl}/api/v1/dev/emails   (every email sent, sign-up codes included; ?to=<address>)

  Press Ctrl+C to stop.
`);
} catch (err) {
  console.error(String(err));
  shutdown();
}

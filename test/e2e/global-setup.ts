/**
 * Browser tests run against the built app in `wrangler dev` (workerd, local D1/R2/DOs), on their
 * own port and with their own throwaway state directory, seeded with the demo data.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations, buildSpa, ensureDevVars, ROOT, seedDemoData, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const port = Number(process.env.E2E_PORT ?? 8791);
  const baseUrl = `http://127.0.0.1:${port}`;
  const persistTo = mkdtempSync(join(tmpdir(), "campusnest-e2e-"));
  ensureDevVars();
  if (!existsSync(join(ROOT, "dist", "client", "index.html"))) buildSpa();
  applyMigrations(persistTo);
  const server = spawnServer({ port, persistTo });
  try {
    await waitForHealth(baseUrl, 90_000);
    await seedDemoData(baseUrl);
  } catch (err) {
    server.stop();
    throw err;
  }
  project.provide("baseUrl", baseUrl);
  // `wrangler dev`'s proxy holds a GET whose connection to the worker broke until another request
  // arrives (it reuses keep-alive connections that workerd closes after 5 s idle: 2 of 36 requests sent
  // after ~5 s of quiet were held 9 s). One light request a second sends the held one on at once and
  // keeps a connection warm (0 of 24 held). Decision 025.
  const wake = setInterval(() => {
    fetch(`${baseUrl}/api/version`, { signal: AbortSignal.timeout(10_000) })
      .then((res) => res.arrayBuffer())
      .catch(() => {});
  }, 1_000);
  return () => {
    clearInterval(wake);
    server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}

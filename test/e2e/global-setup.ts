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
  return () => {
    server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}

/**
 * Browser tests run against the built app in `wrangler dev` (workerd, local D1/R2/DOs), on their
 * own ports and with their own throwaway state directories, seeded with the demo data.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations, buildSpa, ensureDevVars, ROOT, seedDemoData, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per lane: the test file running in vitest's worker N uses `baseUrls[N - 1]`. */
    baseUrls: string[];
  }
}

/** Lanes: journeys wait on a browser and a server, so two files at once keep two cores busy (decision 045). */
export const E2E_LANES = 2;

async function startServer(port: number) {
  const baseUrl = `http://127.0.0.1:${port}`;
  const persistTo = mkdtempSync(join(tmpdir(), "campusnest-e2e-"));
  applyMigrations(persistTo);
  const server = spawnServer({ port, persistTo });
  try {
    await waitForHealth(baseUrl, 90_000);
    await seedDemoData(baseUrl);
  } catch (err) {
    server.stop();
    rmSync(persistTo, { recursive: true, force: true });
    throw err;
  }
  // `wrangler dev`'s proxy holds a GET whose connection to the worker broke until another request
  // arrives (it reuses keep-alive connections that workerd closes after 5 s idle: 2 of 36 requests sent
  // after ~5 s of quiet were held 9 s). One light request a second sends the held one on at once and
  // keeps a connection warm (0 of 24 held). Decision 025.
  const wake = setInterval(() => {
    fetch(`${baseUrl}/api/version`, { signal: AbortSignal.timeout(10_000) })
      .then((res) => res.arrayBuffer())
      .catch(() => {});
  }, 1_000);
  return {
    baseUrl,
    stop() {
      clearInterval(wake);
      server.stop();
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const firstPort = Number(process.env.E2E_PORT ?? 8791);
  ensureDevVars();
  if (!existsSync(join(ROOT, "dist", "client", "index.html"))) buildSpa();
  // Each lane its own server and state: a journey never meets another's writes or per-address throttles.
  const started = await Promise.allSettled(Array.from({ length: E2E_LANES }, (_, lane) => startServer(firstPort + lane)));
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    for (const server of servers) server.stop();
    throw failed.reason;
  }
  project.provide("baseUrls", servers.map((server) => server.baseUrl));
  return () => {
    for (const server of servers) server.stop();
  };
}

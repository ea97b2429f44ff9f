import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { generateVapidKeys } from "./scripts/lib/vapid.mjs";

const alias = {
  "@contract": fileURLToPath(new URL("./worker/contract", import.meta.url)),
  "@party": fileURLToPath(new URL("./party", import.meta.url)),
};

/**
 * Every package specifier ("hono", "hono/cors", ...) that the worker, the rooms or their tests import
 * from the project's dependencies. The worker tests pre-bundle them: each workerd the tests start loads
 * the worker's whole module graph, and ~650 modules one by one (stripe alone is 270) took 5-19 s;
 * bundled, ~160. Read from the sources so that a new subpath is never loaded
 * twice (a bundled "hono" beside an unbundled "hono/http-exception" makes two HTTPException classes).
 */
function workerDependencyImports(): string[] {
  const root = fileURLToPath(new URL(".", import.meta.url));
  const dependencies = Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
  const specifiers = new Set<string>();
  for (const dir of ["worker", "party", "test/worker"]) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
      const source = readFileSync(join(entry.parentPath, entry.name), "utf8");
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*"([^"./][^"]*)"/g)) {
        const name = specifier!.startsWith("@") ? specifier!.split("/").slice(0, 2).join("/") : specifier!.split("/")[0]!;
        if (dependencies.includes(name)) specifiers.add(specifier!);
      }
    }
  }
  return [...specifiers].sort();
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
  // Fresh for every run: the tests subscribe with it and never depend on its value.
  const vapid = generateVapidKeys();
  return {
    test: {
      // Request logs are structured JSON: shown only for failing tests.
      silent: "passed-only" as const,
      // Both cores of a 2-core machine (vitest's default there is 1): a worker test file spends most of
      // its start-up waiting between workerd and Vite, so two files at once overlap well.
      maxWorkers: 2,
      projects: [
        {
          // API and room tests inside workerd against real local D1, R2 and Durable Objects.
          plugins: [
            cloudflareTest({
              main: "./worker/index.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  // Development: the tests read codes from the dev mailbox and use the dev routes (only
                  // `development` serves them; hardening.test.ts checks `test` and `production` do not).
                  ENVIRONMENT: "development",
                  // No development geocoder unless a test turns it on (geo-providers.test.ts does).
                  GEO_PROVIDER: "none",
                  JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
                  ADMIN_PASSWORD: "admin-test-password",
                  ALLOWED_ORIGINS: "https://app.campusnest.test",
                  PUBLIC_BASE_URL: "http://localhost",
                  TEST_MIGRATIONS: migrations,
                  VAPID_PUBLIC_KEY: vapid.publicKey,
                  VAPID_PRIVATE_KEY: vapid.privateKey,
                },
              },
            }),
          ],
          // The worker's server renderer, as `vite build` made it (npm test builds first).
          resolve: { alias: { "@web/ssr": fileURLToPath(new URL("./dist/server/ssr.js", import.meta.url)) } },
          test: {
            name: "worker",
            // One workerd per vitest worker, shared by its files one after another; setup.ts empties its
            // storage before each file (docs/decisions/046). A workerd per file cost ~5 s a file.
            isolate: false,
            include: ["test/worker/**/*.test.ts"],
            // Sized for a busy 2-core machine (CI, or a developer running other work): a few tests sign up
            // dozens of students at production scrypt cost. A limit, not a timing assertion.
            testTimeout: 30_000,
            setupFiles: ["./test/worker/setup.ts"],
            deps: { optimizer: { ssr: { enabled: true, include: workerDependencyImports() } } },
          },
        },
        {
          // SPA component tests.
          plugins: [react()],
          resolve: { alias },
          define: { __APP_VERSION__: JSON.stringify("0.0.0-test") },
          test: {
            name: "web",
            include: ["test/web/**/*.test.tsx", "test/web/**/*.test.ts"],
            // jsdom renders of whole routes take seconds on a busy 2-core machine.
            testTimeout: 20_000,
            environment: "jsdom" as const,
            setupFiles: ["./test/web/setup.ts"],
          },
        },
        {
          // The project's own scripts and generated files, in Node (the scam model is up to date, say).
          test: { name: "tools", include: ["test/tools/**/*.test.ts"], environment: "node" as const, testTimeout: 60_000 },
        },
        {
          // Journeys in Debian's Chromium against the built app served by `wrangler dev`.
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node" as const,
            globalSetup: ["./test/e2e/global-setup.ts"],
            testTimeout: 30_000,
            hookTimeout: 60_000,
            // How long `expect.poll` waits for a page to catch up (vitest's default is 1 s): as long as a
            // locator's wait, for a busy 2-core machine. A limit, not a timing assertion.
            expect: { poll: { timeout: 15_000 } },
            // Two files at once, each against its own `wrangler dev` (global-setup.ts, decision 045).
            maxWorkers: 2,
            // No retry: the stalls once blamed on the browser were requests `wrangler dev`'s proxy held
            // after a connection to the worker broke; their causes are fixed (decision 025).
            // After the API and component tests: journeys wait on a real browser and server, and must
            // not share two cores with workerd test files (they timed out under that load).
            sequence: { groupOrder: 1 },
          },
        },
      ],
    },
  };
});

import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const alias = {
  "@contract": fileURLToPath(new URL("./worker/contract", import.meta.url)),
  "@party": fileURLToPath(new URL("./party", import.meta.url)),
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
  return {
    test: {
      // Request logs are structured JSON: shown only for failing tests.
      silent: "passed-only" as const,
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
                  JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
                  ADMIN_PASSWORD: "admin-test-password",
                  ALLOWED_ORIGINS: "https://app.campusnest.test",
                  PUBLIC_BASE_URL: "http://localhost",
                  TEST_MIGRATIONS: migrations,
                },
              },
            }),
          ],
          // The worker's server renderer, as `vite build` made it (npm test builds first).
          resolve: { alias: { "@web/ssr": fileURLToPath(new URL("./dist/server/ssr.js", import.meta.url)) } },
          test: {
            name: "worker",
            include: ["test/worker/**/*.test.ts"],
            // Sized for a busy 2-core machine (CI, or a developer running other work): a few tests sign up
            // dozens of students at production scrypt cost. A limit, not a timing assertion.
            testTimeout: 30_000,
            setupFiles: ["./test/worker/setup.ts"],
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
          // Journeys in Debian's Chromium against the built app served by `wrangler dev`.
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node" as const,
            globalSetup: ["./test/e2e/global-setup.ts"],
            testTimeout: 30_000,
            hookTimeout: 60_000,
            fileParallelism: false,
          },
        },
      ],
    },
  };
});

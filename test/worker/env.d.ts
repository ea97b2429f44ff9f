// Test-only binding: the migrations read by vitest.config.ts, applied in setup.ts.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

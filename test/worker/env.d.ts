// Test-only binding: the migrations read by vitest.config.ts, applied in setup.ts.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

// Vite's ?raw imports (a file's text), e.g. .dev.vars.example in the config test.
declare module "*?raw" {
  const text: string;
  export default text;
}

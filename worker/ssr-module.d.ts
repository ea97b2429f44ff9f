/**
 * The SPA's server renderer (web/app/ssr.tsx), bundled into the worker through the `@web/ssr` alias
 * (wrangler.toml [alias], vitest.config.ts). Typed by the contract both sides are checked against,
 * so the worker's type check never compiles the SPA's browser code.
 */
declare module "@web/ssr" {
  export const renderPage: import("./contract/ssr").RenderPage;
}

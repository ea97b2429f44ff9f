import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, afterEach, inject } from "vitest";
import { launchOptions } from "./browser.mjs";

/**
 * One Chromium per test file, a fresh context (empty storage) per test, and every console error or
 * uncaught page error collected so a test can assert there were none.
 */
export function useBrowser(viewport = { width: 1280, height: 900 }, contextOptions: { timezoneId?: string } = {}) {
  const state = {} as { browser: Browser; context: BrowserContext; page: Page; errors: string[]; baseUrl: string };
  beforeAll(async () => {
    // The lane's server: vitest's worker id is 1..maxWorkers, one file at a time per worker.
    const lanes = inject("baseUrls");
    state.baseUrl = lanes[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % lanes.length]!;
    state.browser = await chromium.launch(launchOptions());
    // Every page of every context of this browser (journeys open several) waits for the app to be live.
    const newContext = state.browser.newContext.bind(state.browser);
    state.browser.newContext = async (options) => {
      const context = await newContext(options);
      // Below the test's own timeout (30 s), so a step that never happens fails naming its locator
      // instead of as a bare "Test timed out"; longer waits say so themselves.
      context.setDefaultTimeout(20_000);
      if (options?.javaScriptEnabled !== false) context.on("page", waitForAppOnNavigation);
      return context;
    };
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  beforeEach(async () => {
    state.errors = [];
    state.context = await state.browser.newContext({ ...contextOptions, viewport, baseURL: state.baseUrl });
    state.page = await state.context.newPage();
    state.page.on("console", (msg: ConsoleMessage) => {
      if (msg.type() === "error") state.errors.push(msg.text());
    });
    state.page.on("pageerror", (err) => state.errors.push(err.message));
  });
  afterEach(async () => {
    await state.context?.close();
  });
  return state;
}

/**
 * Pages arrive rendered by the worker before React runs: after navigating to an HTML page, a journey
 * acts once the app is live (main.tsx marks <html data-app="ready">), as a person waits for a page to respond.
 */
function waitForAppOnNavigation(page: Page) {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const res = await goto(url, options);
    if (res?.headers()["content-type"]?.includes("text/html")) await page.waitForFunction(() => document.documentElement.dataset.app === "ready");
    return res;
  };
}

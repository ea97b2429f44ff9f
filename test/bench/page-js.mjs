#!/usr/bin/env node
/**
 * JS loaded by a page before interaction, measured in real Chromium (playwright-core, Debian's
 * Chromium as in the browser tests): every JS response from the navigation until the network has
 * been idle for IDLE_MS after `load`, with no user input. Chunks loaded on idle count (they load
 * before anyone interacts). Each body is gzipped at level 9 (as the static weight section does) and
 * summed; the per-file list is printed. Mobile viewport (412x823), as Lighthouse's mobile run.
 *
 * Standalone: `node test/bench/page-js.mjs http://127.0.0.1:PORT/` (exits 1 over the budget).
 */
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { launchOptions } from "../e2e/browser.mjs";

/** Budget (docs/decisions/023): JS loaded by `/` before interaction, gzip -9. */
export const PAGE_JS_BUDGET_KB = 110;
const IDLE_MS = Number(process.env.BENCH_PAGE_JS_IDLE_MS ?? 2000);
const MAX_WAIT_MS = Number(process.env.BENCH_PAGE_JS_MAX_WAIT_MS ?? 30_000);

const kb = (bytes) => (bytes / 1024).toFixed(1);
const isJs = (response) => {
  const type = (response.headers()["content-type"] ?? "").toLowerCase();
  if (type.includes("javascript") || type.includes("ecmascript")) return true;
  return /\.(m?js)(\?|$)/.test(new URL(response.url()).pathname);
};

/**
 * Loads `url` in a fresh context and collects the JS responses until the network is idle.
 * @returns {Promise<{ files: { url: string, raw: number, gzip: number, status: number, afterLoad: boolean }[], js: number, idleAfterLoadMs: number }>}
 */
export async function measurePageJs(url, { browser: given, scrollTo = null } = {}) {
  const browser = given ?? (await chromium.launch(launchOptions()));
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    let inFlight = 0;
    let lastActivity = Date.now();
    let loadedAt = null;
    const pending = [];
    const seen = new Map();
    page.on("request", () => {
      inFlight++;
      lastActivity = Date.now();
    });
    const settle = () => {
      inFlight = Math.max(0, inFlight - 1);
      lastActivity = Date.now();
    };
    page.on("requestfailed", settle);
    page.on("requestfinished", settle);
    page.on("response", (response) => {
      if (!isJs(response) || seen.has(response.url())) return;
      const afterLoad = loadedAt !== null;
      seen.set(response.url(), null);
      pending.push(
        response
          .body()
          .then((body) => seen.set(response.url(), { url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length, status: response.status(), afterLoad }))
          .catch((err) => seen.set(response.url(), { url: response.url(), raw: 0, gzip: 0, status: response.status(), afterLoad, error: String(err?.message ?? err) })),
      );
    });
    await page.goto(url, { waitUntil: "load", timeout: MAX_WAIT_MS });
    loadedAt = Date.now();
    // A part below the first screen (the listing's map; docs/decisions/024) scrolled into view, as a reader would.
    if (scrollTo) await page.locator(scrollTo).first().scrollIntoViewIfNeeded({ timeout: MAX_WAIT_MS }).catch(() => {});
    const deadline = loadedAt + MAX_WAIT_MS;
    while (Date.now() < deadline && !(inFlight === 0 && Date.now() - lastActivity >= IDLE_MS)) await page.waitForTimeout(100);
    const idleAfterLoadMs = Date.now() - loadedAt;
    await Promise.all(pending);
    const files = [...seen.values()].filter(Boolean).sort((a, b) => b.gzip - a.gzip);
    return { files, js: files.reduce((s, f) => s + f.gzip, 0), idleAfterLoadMs, timedOut: Date.now() >= deadline };
  } finally {
    await context.close();
    if (!given) await browser.close();
  }
}

/**
 * Prints the section and says whether the budget holds.
 * @param {string} url the page, e.g. http://127.0.0.1:8792/
 * @returns {Promise<{ ok: boolean, js: number }>}
 */
export async function reportPageJs(url) {
  console.log(`\n== JS loaded by ${new URL(url).pathname} before interaction, in Chromium (navigation to network idle ${IDLE_MS / 1000} s after load, no input; gzip -9)`);
  const result = await measurePageJs(url);
  const origin = new URL(url).origin;
  for (const f of result.files) {
    const name = f.url.startsWith(origin) ? f.url.slice(origin.length) : f.url;
    console.log(
      `  ${name.padEnd(44)} ${kb(f.raw).padStart(8)} KB raw  ${kb(f.gzip).padStart(7)} KB gzip${f.afterLoad ? "  (after load)" : ""}${f.status >= 400 ? `  status ${f.status}` : ""}${f.error ? `  (body unreadable: ${f.error})` : ""}`,
    );
  }
  if (result.timedOut) console.log(`  the network never stayed idle for ${IDLE_MS / 1000} s within ${MAX_WAIT_MS / 1000} s of load: the list may be incomplete`);
  const over = result.js / 1024 > PAGE_JS_BUDGET_KB;
  console.log(`  JS before interaction: ${result.files.length} files, ${kb(result.js)} KB gzip (budget ${PAGE_JS_BUDGET_KB} KB)${over ? "" : " => within budget"}`);
  if (over) console.log(`  BUDGET BROKEN: JS before interaction ${kb(result.js)} KB gzip > ${PAGE_JS_BUDGET_KB} KB`);
  return { ok: !over, js: result.js };
}

/**
 * The same measure for another view, reported with no budget (the map views load their
 * chunks on purpose; only `/` has a budget). `scrollTo`: a selector scrolled into view after load.
 * @returns {Promise<{ js: number }>}
 */
export async function reportViewJs(url, label, { scrollTo = null } = {}) {
  console.log(`\n== JS loaded by ${label} (${new URL(url).pathname}${new URL(url).search}${scrollTo ? `, ${scrollTo} scrolled into view` : ""}), no input; gzip -9; reported, not a budget`);
  const result = await measurePageJs(url, { scrollTo });
  const origin = new URL(url).origin;
  for (const f of result.files) {
    const name = f.url.startsWith(origin) ? f.url.slice(origin.length) : f.url;
    console.log(`  ${name.padEnd(44)} ${kb(f.raw).padStart(8)} KB raw  ${kb(f.gzip).padStart(7)} KB gzip${f.afterLoad ? "  (after load)" : ""}`);
  }
  if (result.timedOut) console.log(`  the network never stayed idle for ${IDLE_MS / 1000} s within ${MAX_WAIT_MS / 1000} s of load: the list may be incomplete`);
  console.log(`  JS loaded: ${result.files.length} files, ${kb(result.js)} KB gzip`);
  return { js: result.js };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = process.argv[2] ?? "http://127.0.0.1:8787/";
  const { ok } = await reportPageJs(new URL(target).pathname === "" ? `${target}/` : target);
  process.exit(ok ? 0 : 1);
}

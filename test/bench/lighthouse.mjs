/**
 * Lighthouse (12.x, Node API) on Debian's Chromium (CHROMIUM_PATH overrides /usr/bin/chromium, as in
 * the browser tests): mobile form factor, simulated throttling (Lighthouse's defaults), categories
 * performance, accessibility, best-practices, seo. Each page is measured RUNS times, each run in a
 * fresh headless Chromium and bounded in time (a failed run is retried once per page); the medians
 * are printed.
 *
 * Budget (fails the bench): performance >= 90, the three other categories 100, on every page.
 * Goal (printed, met or missed): all four categories 100, LCP < 1.5 s, TBT < 100 ms, CLS 0.
 */
import { readFileSync } from "node:fs";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { chromiumPath, launchOptions } from "../e2e/browser.mjs";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_LIGHTHOUSE_TIMEOUT_MS ?? 120_000);
// The browser tests' flags (test/e2e/browser.mjs), with the new headless mode.
const CHROME_FLAGS = ["--headless=new", ...launchOptions().args];
export const BUDGET = { performance: 90, accessibility: 100, "best-practices": 100, seo: 100 };
export const GOAL = { score: 100, lcpMs: 1500, tbtMs: 100, cls: 0 };

const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One Lighthouse run in its own Chromium, killed after RUN_TIMEOUT_MS. */
async function runOnce(url) {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse run timed out after ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS);
    });
    const result = await Promise.race([
      lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES, maxWaitForLoad: 45_000 }),
      timeout,
    ]);
    const lhr = result?.lhr;
    if (!lhr) throw new Error("Lighthouse returned no report");
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? NaN : Math.round(lhr.categories[c].score * 100)]));
    const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
    // The audits that cost points outside performance, to say why a category is under 100.
    const failing = [];
    for (const c of CATEGORIES.filter((c) => c !== "performance")) {
      for (const ref of lhr.categories[c]?.auditRefs ?? []) {
        const a = lhr.audits[ref.id];
        if (ref.weight > 0 && a && a.score !== null && a.score < 1) {
          const items = (a.details?.items ?? []).map((i) => i.issueType ?? i.description ?? i.node?.snippet).filter(Boolean);
          failing.push(`${c}: ${ref.id}${items.length ? ` (${[...new Set(items)].slice(0, 3).join("; ").slice(0, 160)})` : ""}`);
        }
      }
    }
    return {
      scores,
      lcp: audit("largest-contentful-paint"),
      tbt: audit("total-blocking-time"),
      cls: audit("cumulative-layout-shift"),
      fcp: audit("first-contentful-paint"),
      failing,
      warnings: lhr.runWarnings ?? [],
    };
  } finally {
    clearTimeout(timer);
    try {
      await chrome.kill();
    } catch {
      /* already gone */
    }
  }
}

const fmt = (v, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");

/**
 * Runs Lighthouse RUNS times on each page and prints the medians with the budget and the goal.
 * @param {{ label: string, url: string }[]} pages
 * @returns {Promise<{ budgetOk: boolean, goalMet: boolean, pages: object[] }>}
 */
export async function reportLighthouse(pages) {
  console.log(`\n== Lighthouse ${lighthouseVersion()} (mobile, simulated throttling, ${RUNS} runs per page, medians; Chromium at ${chromiumPath()})`);
  console.log(
    `  budget: performance >= ${BUDGET.performance}, accessibility/best-practices/seo 100;` +
      ` goal: all four 100, LCP < ${GOAL.lcpMs / 1000} s, TBT < ${GOAL.tbtMs} ms, CLS ${GOAL.cls}`,
  );
  let budgetOk = true;
  let goalMet = true;
  const results = [];
  for (const { label, url } of pages) {
    const runs = [];
    const errors = [];
    // One extra attempt per page when a run fails (a worker reload under `wrangler dev`, a browser crash).
    for (let attempt = 0; runs.length < RUNS && attempt < RUNS + 1; attempt++) {
      const started = Date.now();
      try {
        const run = await runOnce(url);
        run.seconds = (Date.now() - started) / 1000;
        runs.push(run);
      } catch (err) {
        errors.push(String(err?.message ?? err));
      }
    }
    console.log(`  ${label}  ${url.replace(/^https?:\/\/[^/]+/, "")}`);
    for (const e of errors) console.log(`    run failed: ${e}`);
    if (!runs.length) {
      console.log("    no successful run: BUDGET BROKEN");
      budgetOk = false;
      goalMet = false;
      results.push({ label, url, runs: 0 });
      continue;
    }
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => r.scores[c]))]));
    const lcp = median(runs.map((r) => r.lcp));
    const tbt = median(runs.map((r) => r.tbt));
    const cls = median(runs.map((r) => r.cls));
    const fcp = median(runs.map((r) => r.fcp));
    const spread = (key) => runs.map((r) => fmt(key(r))).join("/");
    console.log(
      `    scores   performance ${fmt(scores.performance).padStart(3)}  accessibility ${fmt(scores.accessibility).padStart(3)}` +
        `  best-practices ${fmt(scores["best-practices"]).padStart(3)}  seo ${fmt(scores.seo).padStart(3)}` +
        `   (performance per run: ${spread((r) => r.scores.performance)})`,
    );
    console.log(
      `    metrics  LCP ${fmt(lcp).padStart(5)} ms  TBT ${fmt(tbt).padStart(4)} ms  CLS ${fmt(cls, 3)}  (FCP ${fmt(fcp)} ms;` +
        ` LCP per run ${spread((r) => r.lcp)} ms, TBT per run ${spread((r) => r.tbt)} ms)`,
    );
    const failing = [...new Set(runs.flatMap((r) => r.failing))];
    if (failing.length) console.log(`    audits below 100 outside performance: ${failing.join(", ")}`);
    const warnings = [...new Set(runs.flatMap((r) => r.warnings))];
    for (const w of warnings) console.log(`    Lighthouse warning: ${String(w).slice(0, 200)}`);
    if (runs.length < RUNS) {
      budgetOk = false;
      console.log(`    BUDGET BROKEN: ${runs.length} of ${RUNS} runs succeeded`);
    }
    const broken = CATEGORIES.filter((c) => !(scores[c] >= BUDGET[c]));
    if (broken.length) {
      budgetOk = false;
      console.log(`    BUDGET BROKEN: ${broken.map((c) => `${c} ${fmt(scores[c])} < ${BUDGET[c]}`).join(", ")}`);
    }
    const missed = [];
    for (const c of CATEGORIES) if (!(scores[c] >= GOAL.score)) missed.push(`${c} ${fmt(scores[c])}`);
    if (!(lcp < GOAL.lcpMs)) missed.push(`LCP ${fmt(lcp)} ms >= ${GOAL.lcpMs} ms`);
    if (!(tbt < GOAL.tbtMs)) missed.push(`TBT ${fmt(tbt)} ms >= ${GOAL.tbtMs} ms`);
    if (!(cls <= GOAL.cls)) missed.push(`CLS ${fmt(cls, 3)} > ${GOAL.cls}`);
    if (missed.length) goalMet = false;
    console.log(missed.length ? `    goal MISSED: ${missed.join(", ")}` : "    goal met");
    results.push({ label, url, runs: runs.length, scores, lcp, tbt, cls });
  }
  console.log(`  Lighthouse goal (100/100/100/100, LCP < 1.5 s, TBT < 100 ms, CLS 0 on both pages): ${goalMet ? "met" : "MISSED"}`);
  return { budgetOk, goalMet, pages: results };
}

function lighthouseVersion() {
  try {
    return JSON.parse(readFileSync(new URL("../../node_modules/lighthouse/package.json", import.meta.url), "utf8")).version;
  } catch {
    return "12.x";
  }
}

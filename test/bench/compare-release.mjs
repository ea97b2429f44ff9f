#!/usr/bin/env node
/**
 * The previous release beside this checkout, on this machine in one run (docs/decisions/034): Lighthouse
 * (lighthouse.mjs: mobile, simulated throttling, Debian's Chromium) on `/` and a listing page of both
 * builds, runs alternating between the two so that the machine's load falls on both alike, and the
 * figures side by side: each run's performance score, TBT, LCP, long tasks, requests and script bytes, their medians
 * and the ratio current / baseline. Each run is also audited again on CPU time (`onCpuTime`): the same
 * trace with every main-thread task's CPU time in place of its wall time, what a quiet machine would show.
 *
 *   node test/bench/compare-release.mjs [--baseline <git ref>] [--runs <n>] [--reports <dir>] [--keep]
 *                                       [--baseline-dir <checkout>]
 *
 * The baseline (default: the previous release, 73483a9) is checked out into a temporary worktree under
 * the system's temp directory (never inside the repo), installed with `npm ci` and built with its own
 * `vite build`; each build is served by its own `wrangler dev` (its own port and local state, seeded with
 * its own demo data through scripts/lib/server.mjs). The listing page is the current build's newest
 * listing with photos and, in the baseline, the listing of the same title.
 * `--reports <dir>` writes each run's Lighthouse JSON there (for the diagnostics: bootup-time,
 * mainthread-work-breakdown, long-tasks), and its CPU-time audit; `--keep` leaves the baseline's worktree
 * in place and prints its path, `--baseline-dir` reuses one (installed; built again unless BENCH_SKIP_BUILD=1).
 *
 * Goal (printed, met or MISSED, on Lighthouse's figures and on CPU time): on each page the current median
 * performance score at least the baseline's and its median TBT at most the baseline's. Budget (fails,
 * exit 1), on CPU time, which other work on the machine does not move: a median score more than 5 points
 * under the baseline's or a median TBT over 1.5x the baseline's plus 50 ms; a page that could not be
 * measured on either side fails too.
 *
 * Environment: BENCH_COMPARE=0 skips it (`npm run bench` on a machine without the time: it takes about
 * 10 minutes); BENCH_COMPARE_BASELINE, BENCH_COMPARE_RUNS (3) as the flags; BENCH_PORT (8798) for the
 * current build and BENCH_BASELINE_PORT (8799) for the baseline; BENCH_SKIP_BUILD=1 reuses dist/.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { applyMigrations, buildSpa, ensureDevVars, ROOT, seedDemoData, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";
import { CATEGORIES, median, newestListingWithPhoto, runOnce, shortUrl } from "./lighthouse.mjs";

// The main that last landed (moved on at each release).
const PREVIOUS_RELEASE = "73483a9";
/** Budget: how far under the baseline a median may fall before the bench fails (noise on a shared machine stays within). */
const SCORE_SLACK = 5;
const TBT_FACTOR = 1.5;
const TBT_SLACK_MS = 50;

if (process.env.BENCH_COMPARE === "0") {
  console.log("\n== Previous release side by side: skipped (BENCH_COMPARE=0)");
  process.exit(0);
}

const { values: flags } = parseArgs({
  options: {
    baseline: { type: "string", default: process.env.BENCH_COMPARE_BASELINE ?? PREVIOUS_RELEASE },
    runs: { type: "string", default: process.env.BENCH_COMPARE_RUNS ?? "3" },
    reports: { type: "string" },
    keep: { type: "boolean", default: false },
    "baseline-dir": { type: "string" },
  },
});
const RUNS = Number(flags.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs ${flags.runs}: a whole number of runs, at least 1`);
const currentPort = Number(process.env.BENCH_PORT ?? 8798);
const baselinePort = Number(process.env.BENCH_BASELINE_PORT ?? 8799);
const reportsDir = flags.reports ? resolve(flags.reports) : null;
if (reportsDir) mkdirSync(reportsDir, { recursive: true });

const git = (args, cwd = ROOT) => {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.trim()}`);
  return result.stdout.trim();
};
const baselineSha = git(["rev-parse", "--verify", `${flags.baseline}^{commit}`]);
const baselineName = `${baselineSha.slice(0, 7)} (${git(["log", "-1", "--format=%cs %s", baselineSha]).slice(0, 70)})`;
const currentName = `${git(["rev-parse", "--short", "HEAD"])}${git(["status", "--porcelain", "--untracked-files=no"]) ? " + uncommitted changes" : ""}`;

const cleanups = [];
const cleanUp = () => {
  while (cleanups.length) {
    try {
      cleanups.pop()();
    } catch (err) {
      console.log(`  clean-up: ${err?.message ?? err}`);
    }
  }
};
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}


/** The baseline's checkout: a temporary worktree under the temp directory, installed and built. */
function prepareBaseline() {
  let root = flags["baseline-dir"] ? resolve(flags["baseline-dir"]) : null;
  if (root) {
    const head = git(["rev-parse", "HEAD"], root);
    if (head !== baselineSha) throw new Error(`--baseline-dir ${root} is at ${head.slice(0, 7)}, not ${baselineSha.slice(0, 7)}`);
    console.log(`Baseline ${baselineName}: reusing ${root}`);
  } else {
    const parent = mkdtempSync(join(tmpdir(), "campusnest-baseline-"));
    root = join(parent, "checkout");
    console.log(`Baseline ${baselineName}: a worktree at ${root}`);
    git(["worktree", "add", "--detach", root, baselineSha]);
    if (flags.keep) console.log(`  kept after the run (--keep): reuse it with --baseline-dir ${root}`);
    else
      cleanups.push(() => {
        git(["worktree", "remove", "--force", root]);
        rmSync(parent, { recursive: true, force: true });
      });
    console.log("  npm ci ...");
    const ci = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
    if (ci.status !== 0) throw new Error(`npm ci in the baseline failed (exit ${ci.status})`);
  }
  if (!(flags["baseline-dir"] && process.env.BENCH_SKIP_BUILD && existsSync(join(root, "dist")))) {
    console.log("  vite build ...");
    buildSpa(root);
  }
  return root;
}

/** One build served by `wrangler dev` on its own port and local state, with its own demo data. */
async function serve(name, root, port) {
  const base = `http://127.0.0.1:${port}`;
  const persistTo = mkdtempSync(join(tmpdir(), `campusnest-compare-${name}-`));
  cleanups.push(() => rmSync(persistTo, { recursive: true, force: true }));
  ensureDevVars(root);
  applyMigrations(persistTo, root);
  const server = spawnServer({ port, persistTo, root });
  cleanups.push(server.stop);
  await waitForHealth(base);
  await seedDemoData(base, root);
  return { name, base };
}

/** The id of the listing titled `title` in the first pages of browse at `base`. */
async function listingTitled(base, title) {
  let token = null;
  for (let pageNo = 0; pageNo < 5; pageNo++) {
    const body = await (await fetch(`${base}/api/v1/subleases/?limit=40${token ? `&last_evaluated_key=${token}` : ""}`)).json();
    const found = (body.data ?? []).find((l) => l.title === title);
    if (found) return found.id;
    token = body.pagination?.next_token;
    if (!token) break;
  }
  throw new Error(`the baseline has no listing titled "${title}"`);
}

const fmt = (v, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
const ratio = (current, baseline) => (Number.isFinite(current) && Number.isFinite(baseline) && baseline > 0 ? `${(current / baseline).toFixed(2)}x` : "n/a");
const sum = (values) => values.reduce((a, b) => a + b, 0);
/** A run's long tasks: how many, their total and the longest (ms, as Lighthouse's long-tasks audit gives them). */
const tasksOf = (run) => ({ count: run.longTasks.length, total: sum(run.longTasks.map((t) => t.duration)), longest: run.longTasks[0]?.duration ?? 0 });
const runLine = (r) => {
  const t = tasksOf(r);
  return (
    `${fmt(r.scores.performance).padStart(5)} ${fmt(r.tbt).padStart(6)} ${fmt(r.lcp).padStart(6)}   ${String(t.count).padStart(2)}, ${fmt(t.total).padStart(5)}, ${fmt(t.longest).padStart(4)}` +
    `   ${fmt(r.requests).padStart(8)}   | ${fmt(r.cpu?.score).padStart(5)} ${fmt(r.cpu?.tbt).padStart(5)} ${fmt(r.cpu?.lcp).padStart(6)}`
  );
};

/**
 * Lighthouse's simulation again, on the run's own trace with each main-thread task's CPU time in place of
 * its wall time (the events inside a task moved and shortened with it): the figures of a quiet machine.
 * On a shared 2-core machine a task of 2 ms of CPU can take 100 ms of wall time, and the simulation
 * multiplies that by 4, so Lighthouse's own TBT there mostly measures the machine's load (decision 034).
 */
async function onCpuTime(url, dir) {
  const tracePath = join(dir, "defaultPass.trace.json");
  const trace = JSON.parse(readFileSync(tracePath, "utf8"));
  const events = trace.traceEvents ?? trace;
  const navigation = events
    .filter((e) => e.name === "navigationStart" && e.args?.data?.isLoadingMainFrame && /^http/.test(e.args?.data?.documentLoaderURL ?? ""))
    .pop();
  if (!navigation) return null;
  const thread = events.filter((e) => e.pid === navigation.pid && e.tid === navigation.tid);
  const tasks = [];
  for (const task of thread.filter((e) => e.name === "RunTask" && e.ph === "X" && e.tdur !== undefined).sort((a, b) => a.ts - b.ts)) {
    if (!tasks.length || task.ts >= tasks.at(-1).ts + tasks.at(-1).dur) tasks.push(task);
  }
  const topLevel = new Set(tasks);
  let i = 0;
  for (const event of thread.filter((e) => !topLevel.has(e)).sort((a, b) => a.ts - b.ts)) {
    while (i < tasks.length && tasks[i].ts + tasks[i].dur < event.ts) i++;
    const task = tasks[i];
    if (!task || event.ts < task.ts) continue;
    const factor = task.dur > 0 ? Math.min(1, task.tdur / task.dur) : 1;
    const end = event.dur === undefined ? undefined : event.ts + event.dur;
    event.ts = task.ts + (event.ts - task.ts) * factor;
    if (end !== undefined) event.dur = Math.max(0, task.ts + (end - task.ts) * factor - event.ts);
  }
  // The main thread's CPU from the navigation on, the page's own work whatever the machine's load.
  const mainThreadCpuMs = tasks.filter((t) => t.ts >= navigation.ts).reduce((total, t) => total + t.tdur, 0) / 1000;
  for (const task of tasks) task.dur = Math.min(task.dur, task.tdur);
  writeFileSync(tracePath, JSON.stringify(trace));
  // The settings of the gathering (Lighthouse refuses others), and no browser: the saved artifacts are audited.
  const { lhr } = await lighthouse(url, { output: "json", logLevel: "error", onlyCategories: CATEGORIES, maxWaitForLoad: 45_000, auditMode: dir });
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    tbt: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
    lcp: lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    mainThreadCpuMs,
    lhr,
  };
}

/** One run with one retry (a worker reload, a browser crash), and its figures on CPU time; null when both failed. */
async function measure(url, tag) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), "campusnest-lighthouse-"));
    try {
      const run = await runOnce(url, { keepReport: !!reportsDir, artifactsDir: dir });
      run.cpu = await onCpuTime(url, dir).catch((err) => {
        console.log(`    ${tag}: the CPU-time audit failed: ${err?.message ?? err}`);
        return null;
      });
      if (reportsDir) {
        writeFileSync(join(reportsDir, `${tag}.json`), JSON.stringify(run.lhr));
        if (run.cpu) writeFileSync(join(reportsDir, `${tag}.cpu-time.json`), JSON.stringify(run.cpu.lhr));
      }
      delete run.lhr;
      if (run.cpu) delete run.cpu.lhr;
      return run;
    } catch (err) {
      console.log(`    ${tag}: run failed: ${err?.message ?? err}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return null;
}

/** Runs both sides alternately (baseline first on odd runs, current first on even ones) and prints them. Returns true when the budget broke. */
async function compare(pages, sides) {
  console.log(
    `\n== Previous release side by side (Lighthouse mobile, simulated throttling, ${RUNS} runs per page and build, alternating)` +
      `\n  baseline ${baselineName} on :${baselinePort}\n  current  ${currentName} on :${currentPort}` +
      `\n  goal (Lighthouse's figures, and on CPU time): each page's median performance >= the baseline's and median TBT <= the baseline's` +
      `\n  budget (on CPU time, which this machine's load does not move): median performance no more than ${SCORE_SLACK} under the baseline's,` +
      ` median TBT at most ${TBT_FACTOR}x the baseline's + ${TBT_SLACK_MS} ms`,
  );
  const runs = Object.fromEntries(pages.map((p) => [p.label, { baseline: [], current: [] }]));
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? ["baseline", "current"] : ["current", "baseline"];
    for (const page of pages) {
      for (const side of order) {
        const run = await measure(`${sides[side].base}${page.paths[side]}`, `${page.label}-${side}-${i + 1}`);
        if (run) runs[page.label][side].push(run);
      }
    }
  }
  let broken = false;
  let goalMet = true;
  let cpuGoalMet = true;
  const all = [];
  for (const page of pages) {
    const { baseline, current } = runs[page.label];
    console.log(`\n  ${page.label}${page.title ? ` ("${page.title}")` : ""}   baseline ${page.paths.baseline}   current ${page.paths.current}`);
    console.log("    run  build     score    TBT    LCP   long tasks: n, total, longest   requests   | on CPU time: score  TBT   LCP");
    for (let i = 0; i < Math.max(baseline.length, current.length); i++) {
      for (const [name, list] of [["baseline", baseline], ["current", current]]) {
        console.log(`    ${String(i + 1).padEnd(3)}  ${name.padEnd(8)} ${list[i] ? runLine(list[i]) : "(failed)"}`);
      }
    }
    if (!baseline.length || !current.length) {
      console.log("    BUDGET BROKEN: no successful run on one side");
      broken = true;
      goalMet = cpuGoalMet = false;
      continue;
    }
    all.push(...baseline, ...current);
    const med = (list, key) => median(list.map(key));
    const m = (list) => ({
      score: med(list, (r) => r.scores.performance),
      tbt: med(list, (r) => r.tbt),
      lcp: med(list, (r) => r.lcp),
      fcp: med(list, (r) => r.fcp),
      tasks: med(list, (r) => tasksOf(r).total),
      longest: med(list, (r) => tasksOf(r).longest),
      mainThread: med(list, (r) => r.mainThreadMs),
      bootup: med(list, (r) => r.bootupMs),
      requests: med(list, (r) => r.requests),
      scriptKb: med(list, (r) => r.scriptBytes / 1024),
      cpuScore: med(list, (r) => r.cpu?.score),
      cpuTbt: med(list, (r) => r.cpu?.tbt),
      cpuLcp: med(list, (r) => r.cpu?.lcp),
      cpuMainThread: med(list, (r) => r.cpu?.mainThreadCpuMs),
    });
    const b = m(baseline);
    const c = m(current);
    const row = (label, key, unit = " ms") =>
      console.log(`    ${label.padEnd(28)} ${`${fmt(b[key])}${unit}`.padStart(9)}  ${`${fmt(c[key])}${unit}`.padStart(9)}   ${ratio(c[key], b[key])}`);
    console.log("    median                        baseline    current   current / baseline");
    row("performance", "score", "");
    row("TBT", "tbt");
    row("LCP", "lcp");
    row("FCP", "fcp");
    row("long tasks, total", "tasks");
    row("longest task", "longest");
    row("main-thread work", "mainThread");
    row("script evaluation (bootup)", "bootup");
    row("requests", "requests", "");
    row("script bytes (transferred)", "scriptKb", " KB");
    row("main-thread CPU time", "cpuMainThread");
    row("on CPU time: performance", "cpuScore", "");
    row("on CPU time: TBT", "cpuTbt");
    row("on CPU time: LCP", "cpuLcp");
    // The median run's longest tasks, by script, on each side.
    const midRun = (list) => [...list].sort((x, y) => x.tbt - y.tbt)[Math.floor((list.length - 1) / 2)];
    for (const [name, list] of [["baseline", baseline], ["current", current]]) {
      const tasks = midRun(list).longTasks.slice(0, 5);
      console.log(`    ${name} long tasks (median run by TBT): ${tasks.length ? tasks.map((t) => `${shortUrl(t.url)} ${fmt(t.duration)} ms`).join(", ") : "none"}`);
    }
    const missed = (score, tbt, baseScore, baseTbt) => [
      ...(score >= baseScore ? [] : [`performance ${fmt(score)} < ${fmt(baseScore)}`]),
      ...(tbt <= baseTbt ? [] : [`TBT ${fmt(tbt)} ms > ${fmt(baseTbt)} ms`]),
    ];
    const missedLighthouse = missed(c.score, c.tbt, b.score, b.tbt);
    const missedCpu = missed(c.cpuScore, c.cpuTbt, b.cpuScore, b.cpuTbt);
    if (missedLighthouse.length) goalMet = false;
    if (missedCpu.length) cpuGoalMet = false;
    console.log(`    goal, Lighthouse's figures: ${missedLighthouse.length ? `MISSED (${missedLighthouse.join(", ")})` : "met"}`);
    console.log(`    goal, on CPU time: ${missedCpu.length ? `MISSED (${missedCpu.join(", ")})` : "met"}`);
    const over = [];
    if (!(c.cpuScore >= b.cpuScore - SCORE_SLACK)) over.push(`performance ${fmt(c.cpuScore)} more than ${SCORE_SLACK} under ${fmt(b.cpuScore)}`);
    if (!(c.cpuTbt <= TBT_FACTOR * b.cpuTbt + TBT_SLACK_MS)) over.push(`TBT ${fmt(c.cpuTbt)} ms over ${TBT_FACTOR}x ${fmt(b.cpuTbt)} ms + ${TBT_SLACK_MS} ms`);
    if (over.length) {
      broken = true;
      console.log(`    BUDGET BROKEN (on CPU time): ${over.join(", ")}`);
    }
  }
  const indexes = all.map((r) => r.benchmarkIndex);
  console.log(`\n  host benchmarkIndex ${fmt(median(indexes))} (min ${fmt(Math.min(...indexes))}, max ${fmt(Math.max(...indexes))}; under 2000: a busy or slow host)`);
  console.log(
    `  previous release side by side: goal ${goalMet ? "met" : "MISSED"} on Lighthouse's figures, ${cpuGoalMet ? "met" : "MISSED"} on CPU time${broken ? "; BUDGET BROKEN" : ""}`,
  );
  if (reportsDir) console.log(`  Lighthouse reports (and the CPU-time audits): ${reportsDir}`);
  return broken;
}

let failed = false;
try {
  const baselineRoot = prepareBaseline();
  if (process.env.BENCH_SKIP_BUILD) console.log("Reusing dist/ of this checkout (BENCH_SKIP_BUILD)");
  else {
    console.log("Building this checkout...");
    buildSpa();
  }
  const current = await serve("current", ROOT, currentPort);
  const baseline = await serve("baseline", baselineRoot, baselinePort);
  const listing = await newestListingWithPhoto(current.base);
  const baselineListingId = await listingTitled(baseline.base, listing.title);
  const pages = [
    { label: "home", paths: { baseline: "/", current: "/" } },
    { label: "listing", paths: { baseline: `/listing/${baselineListingId}`, current: `/listing/${listing.id}` }, title: listing.title },
  ];
  // Each server answers each page once before measuring (module load, D1's cache, the edge cache), alike.
  for (const page of pages) {
    for (const side of [baseline, current]) await (await fetch(`${side.base}${page.paths[side.name]}`)).arrayBuffer();
  }
  failed = (await compare(pages, { baseline, current })) || failed;
} catch (err) {
  console.log(`  the comparison could not run: ${err?.stack ?? err}\n  BUDGET BROKEN`);
  failed = true;
} finally {
  cleanUp();
}
process.exit(failed ? 1 : 0);

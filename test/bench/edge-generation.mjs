#!/usr/bin/env node
/**
 * The cost of the listings generation check (docs/decisions/016) in workerd
 * (`wrangler dev`, local D1), loopback only. Every signed-out read that may be answered from the edge
 * cache first reads `cache_generation` by its primary key, so a listing write retires every cached
 * answer at once. Measured here:
 *  - that statement's plan (a primary-key search: one row; D1's meta.rows_read = 1 is asserted by
 *    test/worker/app/edge-cache.test.ts, since local `wrangler d1 execute` reports no rows read);
 *  - median latency of sequential requests: the trivial route (/api/version, no database), /api/health
 *    (one D1 statement, `SELECT 1`: what a D1 round trip costs here) and a browse page answered from
 *    the cache (HIT: the generation read + the cache lookup);
 *  - throughput of that cached browse page against the trivial route (CONCURRENCY clients);
 *  - after a listing write (a staff edit), the first read is a MISS and the next ones HITs again.
 * Run: `node test/bench/edge-generation.mjs` (BENCH_SKIP_BUILD=1 reuses dist/). Informative: exits
 * non-zero only when a request fails or a cached read after a write is served from the old entry.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, buildSpa, ensureDevVars, ROOT, seedDemoData, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";

const port = Number(process.env.BENCH_PORT ?? 8795);
const base = `http://127.0.0.1:${port}`;
const RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 201);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const BROWSE = `${base}/api/v1/subleases/?limit=40`;

async function latency(url) {
  const times = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    if (i) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

async function throughput(url) {
  let done = 0;
  let failed = 0;
  const cache = {};
  const deadline = Date.now() + DURATION_MS;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) {
        const res = await fetch(url).catch(() => null);
        if (res?.ok) {
          await res.arrayBuffer();
          const state = res.headers.get("x-edge-cache") ?? "none";
          cache[state] = (cache[state] ?? 0) + 1;
          done++;
        } else failed++;
      }
    }),
  );
  return { rps: done / ((Date.now() - started) / 1000), failed, cache };
}

ensureDevVars();
if (!process.env.BENCH_SKIP_BUILD) buildSpa();
const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-generation-"));
applyMigrations(persistTo);
// Its own staff password for this run (the staff edit below), never the developer's.
const ADMIN_PASSWORD = "bench-generation-admin-1";
const server = spawnServer({ port, persistTo, vars: { ADMIN_PASSWORD } });
let failed = false;
try {
  await waitForHealth(base);
  await seedDemoData(base);

  // Local D1 does not report rows read to `wrangler d1 execute`; its plan shows the read (the worker test
  // test/worker/app/edge-cache.test.ts asserts D1's meta.rows_read = 1 for the same statement).
  const query = spawnSync(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--persist-to", persistTo, "--json", "--command", "EXPLAIN QUERY PLAN SELECT generation FROM cache_generation WHERE id = 1"],
    { cwd: ROOT, encoding: "utf8" },
  );
  const plan = (() => {
    try {
      return JSON.parse(query.stdout.slice(query.stdout.indexOf("[")))[0]?.results?.map((r) => r.detail).join("; ") ?? "?";
    } catch {
      return "?";
    }
  })();

  const trivial = await latency(`${base}/api/version`);
  const health = await latency(`${base}/api/health`);
  await fetch(BROWSE).then((r) => r.arrayBuffer());
  const hit = await latency(BROWSE);
  const trivialLoad = await throughput(`${base}/api/version`);
  const hitLoad = await throughput(BROWSE);
  if (trivialLoad.failed || hitLoad.failed) failed = true;

  // A listing write (staff hide, then show again) moves the generation: the next read must not be the old entry.
  const { token } = await (
    await fetch(`${base}/api/v1/admin/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ password: ADMIN_PASSWORD }) })
  ).json();
  const listing = (await (await fetch(BROWSE)).json()).data[0];
  const staffEdit = (moderation_status) =>
    fetch(`${base}/api/v1/admin/listings/${listing.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ moderation_status }),
    });
  const writeOk = (await staffEdit("hidden")).ok;
  const afterWrite = await fetch(BROWSE);
  const afterBody = await afterWrite.json();
  const gone = !afterBody.data.some((l) => l.id === listing.id);
  const next = (await fetch(BROWSE)).headers.get("x-edge-cache");
  await staffEdit("visible");
  if (!writeOk || !gone) failed = true;

  const ms = (r) => `median ${r.median.toFixed(2).padStart(6)} ms  p90 ${r.p90.toFixed(2).padStart(6)} ms`;
  console.log(`\n== Listings generation check (edge cache), ${RUNS} sequential requests each; ${CONCURRENCY} concurrent for ${DURATION_MS / 1000} s`);
  console.log(`  the check: SELECT generation FROM cache_generation WHERE id = 1 => ${plan} (1 row; D1 meta.rows_read in the worker test)`);
  console.log(`  GET /api/version (no database)          ${ms(trivial)}`);
  console.log(`  GET /api/health (one D1 statement)      ${ms(health)}  => one D1 round trip here ~ ${(health.median - trivial.median).toFixed(2)} ms`);
  console.log(`  GET browse ?limit=40, cached (HIT)      ${ms(hit)}  => check + cache lookup ~ ${(hit.median - trivial.median).toFixed(2)} ms over trivial`);
  console.log(
    `  throughput: trivial ${trivialLoad.rps.toFixed(0)} req/s, cached browse ${hitLoad.rps.toFixed(0)} req/s (${(hitLoad.rps / trivialLoad.rps).toFixed(2)} of trivial; ` +
      `${Object.entries(hitLoad.cache).map(([k, v]) => `${k} ${v}`).join(", ")})`,
  );
  console.log(`  after a staff hide: first read ${afterWrite.headers.get("x-edge-cache")} (listing ${gone ? "gone" : "STILL SHOWN"}), next read ${next}`);
} catch (err) {
  console.log(`  could not measure: ${err?.stack ?? err}`);
  failed = true;
} finally {
  server.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);


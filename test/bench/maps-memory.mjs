#!/usr/bin/env node
/**
 * Memory of the basemap archive route (docs/decisions/024) in workerd (`wrangler dev`, local R2),
 * loopback only. A large archive (MAPS_BENCH_MB, 256 MB by default: local `wrangler r2 object put`
 * takes at most ~300 MB) is put in local R2 and served as MAP_PMTILES_KEY; workerd's resident memory
 * (VmRSS of the workerd process, and its peak VmHWM) is read before and after each group of requests:
 *  - requests without a Range, with `bytes=0-` and with a huge end (each once read or refused whole);
 *  - a PMTiles reader's pattern: the 16 KB header, then N ranges of 16-256 KB at spread offsets (misses,
 *    streamed and written to the edge cache), then the same again (hits);
 *  - CONCURRENCY simultaneous `bytes=0-` requests (each capped at MAP_RANGE_MAX_BYTES).
 *  - a control: as many requests to /api/version (no storage), for what local workerd keeps per request.
 * Run: `node test/bench/maps-memory.mjs` (BENCH_SKIP_BUILD=1 reuses dist/, BENCH_PORT 8797;
 * MAPS_BENCH_TILES, 200). Exits non-zero when a request answers other than expected, or when workerd's
 * peak grows by more than the archive's size / 4 over the no-Range, open and huge-range requests or the
 * concurrent burst (a route that buffers the archive grows by about the archive per request). Local
 * workerd's own R2 and cache simulators run in the same process, so the tile passes grow it too; that
 * is printed, not budgeted (it was the same with the route's cache writes turned off).
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, buildSpa, ensureDevVars, OFFLINE_ENV, ROOT, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";
import { memory, workerdPid } from "../../scripts/lib/workerd-memory.mjs";

const port = Number(process.env.BENCH_PORT ?? 8797);
const base = `http://127.0.0.1:${port}`;
const ARCHIVE_MB = Number(process.env.MAPS_BENCH_MB ?? 256);
const TILES = Number(process.env.MAPS_BENCH_TILES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const KEY = "maps/bench.pmtiles";
const URL_ = `${base}/api/v1/maps/basemap.pmtiles`;
const MB = 1024 * 1024;

/** Answers other than expected, printed at the end (the run goes on, so older code can be measured too). */
const unexpected = [];
async function get(range, expected) {
  const res = await fetch(URL_, { headers: range ? { Range: range } : {} });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== expected) unexpected.push(`${range ?? "no Range"}: ${res.status}, expected ${expected}`);
  return { bytes, cache: res.headers.get("x-edge-cache") };
}

ensureDevVars();
if (!process.env.BENCH_SKIP_BUILD) buildSpa();
const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-maps-"));
applyMigrations(persistTo);

// The archive: pseudo-random bytes (incompressible, like tiles), written in 1 MB blocks.
const file = join(persistTo, "bench.pmtiles");
const fd = openSync(file, "w");
const block = Buffer.alloc(MB);
let s = 1;
for (let i = 0; i < block.length; i++) block[i] = (s = (s * 1103515245 + 12345) % 2147483648) & 0xff;
for (let i = 0; i < ARCHIVE_MB; i++) {
  block[0] = i & 0xff;
  writeSync(fd, block);
}
closeSync(fd);
const put = spawnSync(
  join(ROOT, "node_modules", ".bin", "wrangler"),
  ["r2", "object", "put", `campusnest-images/${KEY}`, "--local", "--persist-to", persistTo, "-c", "wrangler.toml", "--file", file, "--ct", "application/vnd.pmtiles"],
  { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...OFFLINE_ENV } },
);
if (put.status !== 0) throw new Error(`wrangler r2 object put failed: ${put.stderr || put.stdout}`);
rmSync(file);

const server = spawnServer({ port, persistTo, vars: { MAP_PMTILES_KEY: KEY } });
let failed = false;
try {
  await waitForHealth(base);
  const pid = workerdPid(server.child.pid, port);
  if (!pid) throw new Error("workerd not found in the server's process group");
  await get("bytes=0-16383", 206); // warm the route
  const rows = [];
  const step = async (name, run) => {
    const before = memory(pid);
    const started = performance.now();
    const detail = await run();
    const after = memory(pid);
    rows.push({ name, before, after, ms: performance.now() - started, detail });
  };
  const start = memory(pid);

  await step("3 without Range (400)", async () => {
    let bytes = 0;
    for (let i = 0; i < 3; i++) bytes += (await get(null, 400)).bytes;
    return `${(bytes / 3 / 1024).toFixed(0)} KB each`;
  });
  await step("3 x bytes=0- (206, capped)", async () => {
    let bytes = 0;
    for (let i = 0; i < 3; i++) bytes += (await get("bytes=0-", 206)).bytes;
    return `${(bytes / 3 / 1024).toFixed(0)} KB each`;
  });
  await step("3 x bytes=<1 MB>-99999999999999 (206, capped)", async () => {
    let bytes = 0;
    for (let i = 0; i < 3; i++) bytes += (await get(`bytes=${(i + 1) * MB}-99999999999999`, 206)).bytes;
    return `${(bytes / 3 / 1024).toFixed(0)} KB each`;
  });
  // Budgeted: the requests that made the route read whole archives (no Range, open or huge ranges).
  const capped = memory(pid).hwm - start.rss;
  const size = ARCHIVE_MB * MB;
  const tiles = Array.from({ length: TILES }, (_, i) => {
    const length = 16 * 1024 + ((i * 7919) % 15) * 16 * 1024;
    const offset = Math.floor(((i + 1) / (TILES + 1)) * (size - length));
    return `bytes=${offset}-${offset + length - 1}`;
  });
  for (const pass of ["misses", "hits"]) {
    await step(`${TILES} tile ranges 16-240 KB (${pass})`, async () => {
      const cache = {};
      let bytes = 0;
      for (const range of tiles) {
        const r = await get(range, 206);
        bytes += r.bytes;
        cache[r.cache] = (cache[r.cache] ?? 0) + 1;
      }
      return `${(bytes / MB).toFixed(1)} MB sent; ${Object.entries(cache).map(([k, v]) => `${k} ${v}`).join(", ")}`;
    });
  }
  // The control: as many requests to a route with no storage at all (what workerd keeps per request here).
  await step(`${TILES} x GET /api/version (control)`, async () => {
    for (let i = 0; i < TILES; i++) await (await fetch(`${base}/api/version`)).arrayBuffer();
    return "";
  });
  const beforeBurst = memory(pid);
  await step(`${CONCURRENCY} concurrent bytes=N- (206, capped)`, async () => {
    const all = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => get(`bytes=${(10 + i) * MB}-`, 206)));
    return `${(all.reduce((a, r) => a + r.bytes, 0) / MB).toFixed(1)} MB sent`;
  });
  const burst = memory(pid).hwm - beforeBurst.rss;
  const end = memory(pid);

  const mb = (n) => `${n.toFixed(1).padStart(7)} MB`;
  console.log(`\n== Basemap archive memory: workerd RSS, a ${ARCHIVE_MB} MB archive in local R2, ranges capped at 1 MB`);
  console.log(`  start: RSS ${mb(start.rss)}, peak so far ${mb(start.hwm)}`);
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(48)} RSS ${mb(r.before.rss)} -> ${mb(r.after.rss)} (${(r.after.rss - r.before.rss >= 0 ? "+" : "") + (r.after.rss - r.before.rss).toFixed(1)} MB), peak ${mb(r.after.hwm)}, anon ${mb(r.after.anon)}, file ${mb(r.after.file)}, ${r.ms.toFixed(0)} ms  ${r.detail}`,
    );
  }
  console.log(`  over the run: RSS ${mb(start.rss)} -> ${mb(end.rss)}, peak ${mb(end.hwm)} (${(end.hwm - start.rss).toFixed(1)} MB above the start)`);
  console.log(`  budget (${ARCHIVE_MB / 4} MB): peak growth over the uncapped-looking requests ${capped.toFixed(1)} MB, over the concurrent burst ${burst.toFixed(1)} MB`);
  const growth = Math.max(capped, burst);
  if (unexpected.length) {
    console.log(`  UNEXPECTED ANSWERS (${unexpected.length}): ${[...new Set(unexpected)].slice(0, 5).join("; ")}`);
    failed = true;
  }
  if (growth > ARCHIVE_MB / 4) {
    console.log(`  BUDGET BROKEN: workerd grew by more than ${ARCHIVE_MB / 4} MB`);
    failed = true;
  }
} catch (err) {
  console.log(`  could not measure: ${err?.stack ?? err}`);
  failed = true;
} finally {
  server.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

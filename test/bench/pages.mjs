/**
 * The cost of the HTML pages and of browse against the trivial route (/api/version), in the same
 * `wrangler dev` run: throughput (CONCURRENCY clients, DURATION_MS each) and median latency
 * (sequential requests), printed as ratios to the trivial route.
 *
 * Each is measured cold and warm. Cold: every request has a URL never asked before, so an edge cache
 * cannot answer (`/?min_rent=..&max_rent=..`, `/listing/{id}?back=/x<n>`, browse with the same rent filter); warm: the
 * same URL again and again. Once the edge cache lands, its `X-Edge-Cache` header (HIT, STALE, MISS,
 * BYPASS) is counted and the share of HITs in the warm runs printed; without the header, nothing fails.
 */

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 21);
/** Goal: browse from a warm cache answers at least this share of the trivial route's throughput. */
export const BROWSE_WARM_GOAL = 0.8;

/**
 * The load() pattern of run.mjs with a URL per request (`urlFor()` is called for each). Counts the
 * X-Edge-Cache values and checks the content type.
 */
async function load(urlFor, { durationMs = DURATION_MS, expect } = {}) {
  let done = 0;
  let failed = 0;
  const cache = {};
  const deadline = Date.now() + durationMs;
  const worker = async () => {
    while (Date.now() < deadline) {
      const res = await fetch(urlFor()).catch(() => null);
      if (res?.ok && (!expect || (res.headers.get("content-type") ?? "").includes(expect))) {
        await res.arrayBuffer();
        const state = res.headers.get("x-edge-cache");
        if (state) cache[state.toUpperCase()] = (cache[state.toUpperCase()] ?? 0) + 1;
        done++;
      } else {
        await res?.arrayBuffer().catch(() => {});
        failed++;
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;
  return { rps: done / seconds, done, failed, cache };
}

/** Median latency in ms of LATENCY_RUNS sequential requests (after one unmeasured request). */
async function latency(urlFor) {
  const times = [];
  await (await fetch(urlFor())).arrayBuffer();
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const t = performance.now();
    const res = await fetch(urlFor());
    await res.arrayBuffer();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

function cacheNote(cache) {
  const total = Object.values(cache).reduce((a, b) => a + b, 0);
  if (!total) return "X-Edge-Cache: absent";
  const parts = Object.entries(cache)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`);
  return `X-Edge-Cache: ${parts.join(", ")}`;
}

const hitShare = (cache) => {
  const total = Object.values(cache).reduce((a, b) => a + b, 0);
  return total ? (cache.HIT ?? 0) / total : null;
};

/**
 * A rent filter never asked before that keeps the same rows: min_rent cycles under every rent of the
 * data (demo and benchmark listings cost 400 or more) while max_rent, far above all of them, grows.
 * A bare increasing min_rent would pass 2,000 within seconds and leave empty, cheaper pages.
 */
const rentFilter = (n) => `min_rent=${n % 300}&max_rent=${100_000 + Math.floor(n / 300)}`;

/**
 * Measures and prints the pages and browse sections.
 * @param {string} base e.g. http://127.0.0.1:8792
 * @param {string} listingId an approved public listing
 * @returns {Promise<{ ok: boolean, browseWarmRatio: number }>} ok: no request failed
 */
export async function reportPages(base, listingId) {
  let ok = true;
  let n = 0; // numbers the cold URLs of the whole run: each is asked once
  // Warm the trivial route (module load) before measuring it.
  await load(() => `${base}/api/version`, { durationMs: 1000 });
  const trivial = await load(() => `${base}/api/version`);
  const trivialMs = await latency(() => `${base}/api/version`);
  if (trivial.failed) ok = false;

  const row = (label, r, ms) => {
    if (r.failed) ok = false;
    return (
      `  ${label.padEnd(36)} ${r.rps.toFixed(0).padStart(6)} req/s (${(r.rps / trivial.rps).toFixed(2)} of trivial)` +
      `  median ${ms.toFixed(1).padStart(6)} ms (${(ms / trivialMs).toFixed(1)}x trivial)` +
      `  ${r.done} ok, ${r.failed} failed; ${cacheNote(r.cache)}`
    );
  };

  console.log(`\n== Pages against the trivial route (${CONCURRENCY} concurrent, ${DURATION_MS / 1000} s each; median of ${LATENCY_RUNS} sequential requests)`);
  console.log(`  ${"GET /api/version".padEnd(36)} ${trivial.rps.toFixed(0).padStart(6)} req/s                     median ${trivialMs.toFixed(1).padStart(6)} ms`);
  const pages = [
    { label: "/", cold: () => `${base}/?${rentFilter(n++)}`, warm: () => `${base}/` },
    {
      label: "/listing/{id}",
      cold: () => `${base}/listing/${listingId}?back=${encodeURIComponent(`/x${n++}`)}`,
      warm: () => `${base}/listing/${listingId}`,
    },
  ];
  const warmHits = [];
  for (const page of pages) {
    const cold = await load(page.cold, { expect: "text/html" });
    const coldMs = await latency(page.cold);
    console.log(row(`GET ${page.label} cold (new URL each)`, cold, coldMs));
    const warm = await load(page.warm, { expect: "text/html" });
    const warmMs = await latency(page.warm);
    console.log(row(`GET ${page.label} warm (same URL)`, warm, warmMs));
    const share = hitShare(warm.cache);
    if (share !== null) warmHits.push(`${page.label} ${(share * 100).toFixed(0)}%`);
  }
  console.log(warmHits.length ? `  edge cache HITs in the warm runs: ${warmHits.join(", ")}` : "  edge cache: no X-Edge-Cache header (not in place yet)");

  // Browse, a page of 40 (the home page's first call): the same URL, then a new rent filter each time.
  const browseWarm = await load(() => `${base}/api/v1/subleases/?limit=40`, { expect: "application/json" });
  const browseWarmMs = await latency(() => `${base}/api/v1/subleases/?limit=40`);
  const coldUrl = () => `${base}/api/v1/subleases/?limit=40&${rentFilter(n++)}`;
  const browseCold = await load(coldUrl, { expect: "application/json" });
  const browseColdMs = await latency(coldUrl);
  const browseWarmRatio = browseWarm.rps / trivial.rps;
  console.log(`\n== Browse against the trivial route (GET /api/v1/subleases/?limit=40; goal: warm >= ${BROWSE_WARM_GOAL} of trivial)`);
  console.log(row("browse warm (same URL)", browseWarm, browseWarmMs));
  console.log(row("browse cold (rent filter new each)", browseCold, browseColdMs));
  // What a cold page costs the database (the rent filter is part of the query, not only of the key).
  const sample = await (await fetch(coldUrl())).json().catch(() => null);
  const plain = await (await fetch(`${base}/api/v1/subleases/?limit=40`)).json().catch(() => null);
  console.log(
    `  rows read/returned: cold page ${sample?.meta?.rows_read ?? "?"}/${sample?.data?.length ?? "?"},` +
      ` warm page ${plain?.meta?.rows_read ?? "?"}/${plain?.data?.length ?? "?"} (as cached)`,
  );
  const browseHit = hitShare(browseWarm.cache);
  if (browseHit !== null) console.log(`  edge cache HITs in the warm run: ${(browseHit * 100).toFixed(0)}%`);
  console.log(
    `  browse warm / trivial: ${browseWarmRatio.toFixed(2)} => goal (>= ${BROWSE_WARM_GOAL}) ${browseWarmRatio >= BROWSE_WARM_GOAL ? "met" : "MISSED"}`,
  );
  return { ok, browseWarmRatio };
}

#!/usr/bin/env node
/**
 * `npm run bench:scale` (part of `npm run bench`): the API at a market's size (docs/decisions/038).
 * A fresh local D1, the demo seed, then `POST dev/scale-seed` (20,000 listings, 10,000 users, 2,000
 * conversations of 5 messages, deals in every state): its duration, and the repeat's (it adds nothing).
 * Then each main route, one request at a time (the latency a person waits, not throughput): p50 and p95
 * of BENCH_SCALE_REQUESTS requests after 3 to warm up, and the rows it read (D1's rows_read summed over
 * the request, `x-count-rows-read`, development only). Printed as a table; it fails only when a route
 * does not answer 200 or the seed does not reach its counts (timings are recorded, never a test).
 *
 * Environment: BENCH_SCALE_PORT (8794), BENCH_SKIP_BUILD=1 reuses dist/, BENCH_SCALE_LISTINGS (20,000),
 * BENCH_SCALE_USERS (10,000), BENCH_SCALE_CONVERSATIONS (2,000), BENCH_SCALE_REQUESTS (40).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedStep } from "../../scripts/scale-seed.mjs";
import { applyMigrations, buildSpa, ensureDevVars, ROOT, seedDemoData, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";

const PORT = Number(process.env.BENCH_SCALE_PORT ?? 8794);
const BASE = `http://127.0.0.1:${PORT}`;
const COUNTS = {
  listings: Number(process.env.BENCH_SCALE_LISTINGS ?? 20_000),
  users: Number(process.env.BENCH_SCALE_USERS ?? 10_000),
  conversations: Number(process.env.BENCH_SCALE_CONVERSATIONS ?? 2_000),
  messages_per_conversation: 5,
};
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS ?? 40);
const WARMUP = 3;
const SEED_STEPS = Number(process.env.BENCH_SCALE_SEED_STEPS ?? 10);
const SCALE_PASSWORD = "scale-seed-password";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function post(path, body, headers = {}) {
  const res = await fetch(`${BASE}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function get(path, token, headers = {}) {
  const res = await fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const body = await res.arrayBuffer();
  return { res, body };
}

ensureDevVars();
if (!process.env.BENCH_SKIP_BUILD) buildSpa();
const adminPassword = /^ADMIN_PASSWORD=(.*)$/m.exec(readFileSync(join(ROOT, ".dev.vars"), "utf8"))?.[1]?.replace(/^"|"$/g, "") ?? "admin-dev-password";
const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-scale-"));
applyMigrations(persistTo);
const server = spawnServer({ port: PORT, persistTo });
let failed = false;
try {
  await waitForHealth(BASE, 120_000);
  await seedDemoData(BASE);

  // In steps, as `npm run seed:scale` does (seedStep): no one request holds the whole seed.
  let started = Date.now();
  let seeded;
  for (let step = 1; step <= SEED_STEPS; step++) {
    seeded = await post("/api/v1/dev/scale-seed", seedStep(COUNTS, step, SEED_STEPS));
  }
  const seedSeconds = (Date.now() - started) / 1000;
  started = Date.now();
  const repeated = await post("/api/v1/dev/scale-seed", COUNTS);
  const repeatSeconds = (Date.now() - started) / 1000;
  console.log(`\nScale seed: ${seedSeconds.toFixed(1)} s in ${SEED_STEPS} calls to`, { users: seeded.users, listings: seeded.listings, conversations: seeded.conversations, messages: seeded.messages, deals: seeded.deals }, `; repeated in ${repeatSeconds.toFixed(1)} s, adding`, repeated.added);
  for (const key of ["listings", "users", "conversations"]) {
    if (seeded[key] < COUNTS[key]) {
      console.log(`SEED SHORT: ${key} ${seeded[key]} < ${COUNTS[key]}`);
      failed = true;
    }
  }
  if (Object.values(repeated.added).some((n) => n > 0)) {
    console.log("SEED REPEAT ADDED ROWS");
    failed = true;
  }

  const student = (await post("/api/v1/auth/login", { email: "scale-user-0@scale.campusnest.dev", password: SCALE_PASSWORD })).access_token;
  const staff = (await post("/api/v1/admin/login", { password: adminPassword })).token;
  const browse = JSON.parse(Buffer.from((await get("/api/v1/subleases/?limit=20", student)).body).toString());
  const listing = browse.data[0].id;
  const university = browse.data[0].university_id;
  const inbox = JSON.parse(Buffer.from((await get("/api/v1/messages/conversations/enriched", student)).body).toString());
  const conversation = inbox.data[0]?.id;
  const listingsPage = JSON.parse(Buffer.from((await get("/api/v1/admin/listings", staff)).body).toString());

  const routes = [
    ["browse, newest", "/api/v1/subleases/?limit=20", student],
    ["browse, a university by price", `/api/v1/subleases/?limit=20&university_id=${university}&sort=price_asc`, student],
    ["browse, words", "/api/v1/subleases/?limit=20&q=furnished", student],
    ["listing (API)", `/api/v1/subleases/${listing}`, student],
    ["listing page (HTML)", `/listing/${listing}`, student],
    ["inbox", "/api/v1/messages/conversations/enriched", student],
    ...(conversation ? [["a conversation's messages", `/api/v1/messages/conversations/${conversation}/messages`, student]] : []),
    ["unread count", "/api/v1/messages/unread-count", student],
    ["admin: stats", "/api/v1/admin/stats", staff],
    ["admin: all listings", "/api/v1/admin/listings", staff],
    ["admin: all listings, page 2", `/api/v1/admin/listings?last_evaluated_key=${encodeURIComponent(listingsPage.pagination.next_token)}`, staff],
    ["admin: pending listings", "/api/v1/admin/listings/pending", staff],
    ["admin: listings by words", "/api/v1/admin/listings?q=furnished", staff],
    ["admin: users", "/api/v1/admin/users", staff],
    ["admin: users by name", "/api/v1/admin/users?q=alex", staff],
    ["admin: conversations", "/api/v1/admin/conversations", staff],
    ["admin: deals", "/api/v1/admin/deals", staff],
    ["admin: identity, never sent", "/api/v1/verification/admin/all?status=unverified", staff],
    ["admin: feedback", "/api/v1/feedback/admin", staff],
  ];
  const rows = [];
  for (const [name, path, token] of routes) {
    const times = [];
    let rowsRead = null;
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const t0 = performance.now();
      const { res } = await get(path, token, i === 0 ? { "x-count-rows-read": "1" } : {});
      const ms = performance.now() - t0;
      if (res.status !== 200) {
        console.log(`${name}: ${path} answered ${res.status}`);
        failed = true;
        break;
      }
      if (i === 0) rowsRead = res.headers.get("x-d1-rows-read");
      if (i >= WARMUP) times.push(ms);
    }
    times.sort((a, b) => a - b);
    rows.push({ name, p50: times.length ? percentile(times, 50) : NaN, p95: times.length ? percentile(times, 95) : NaN, rowsRead });
  }
  console.log(`\nAPI at ${COUNTS.listings.toLocaleString("en-US")} listings (${REQUESTS} requests each, one at a time, after ${WARMUP} to warm up; local workerd and D1)`);
  console.log(`${"route".padEnd(32)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"rows read".padStart(10)}`);
  for (const r of rows) console.log(`${r.name.padEnd(32)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${String(r.rowsRead ?? "-").padStart(10)}`);
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  server.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

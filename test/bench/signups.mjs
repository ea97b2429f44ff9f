#!/usr/bin/env node
/**
 * A sign-up rush in workerd (`wrangler dev`, local D1), loopback only (docs/decisions/022): 50 students
 * of one campus (one address) register at the same instant, then verify their emailed codes at the
 * same instant, then sign in at the same instant: 150 requests, register and sign-in one scrypt hash
 * each (N=2^13, r=8, p=10: 8 MiB; at most 2 at once per isolate, the rest queued:
 * worker/services/passwords.ts).
 * Budget: every request answers 2xx (no "worker restarted mid-request", no 5xx, no 429), and the
 * three bursts together (pauses between them not counted) take at most 1.2 s per student: the
 * budget the API suite used to assert (100 students in two minutes), measured here at the production
 * cost because the suite hashes at a light one (test/worker/setup.ts).
 * Run: `node test/bench/signups.mjs` (BENCH_SKIP_BUILD=1 reuses dist/; BENCH_SIGNUPS=N changes 50).
 * Exits non-zero when a request fails or the rush is over its budget.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, buildSpa, ensureDevVars, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";

const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 50);
const BUDGET_MS_PER_STUDENT = 1_200;
const port = Number(process.env.BENCH_PORT ?? 8794);
const base = `http://127.0.0.1:${port}`;
const CAMPUS = "203.0.113.50";
const PASSWORD = "orientation-week-1";

const post = (path, body) =>
  fetch(`${base}/api/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": CAMPUS },
    body: JSON.stringify(body),
  });

/** Fires every call at once; statuses (0 for a network failure), the slowest and the wall time. */
async function burst(label, calls) {
  const started = performance.now();
  const results = await Promise.all(
    calls.map(async (call) => {
      const t = performance.now();
      try {
        const res = await call();
        const text = await res.text();
        return { status: res.status, ms: performance.now() - t, text };
      } catch (err) {
        return { status: 0, ms: performance.now() - t, text: String(err?.cause?.code ?? err) };
      }
    }),
  );
  const wall = performance.now() - started;
  const ok = results.filter((r) => r.status >= 200 && r.status < 300).length;
  const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(22)} ${String(ok).padStart(3)}/${results.length} ok   median ${sorted[Math.floor(sorted.length / 2)].toFixed(0).padStart(5)} ms   slowest ${sorted.at(-1).toFixed(0).padStart(5)} ms   all done in ${wall.toFixed(0)} ms`,
  );
  const failures = results.filter((r) => r.status < 200 || r.status >= 300);
  for (const f of failures.slice(0, 5)) console.log(`    failed: ${f.status} ${f.text.slice(0, 160)}`);
  return { results, failed: failures.length, wall };
}

/**
 * A pause between bursts: after a long stretch in which the isolate was busy (workerd's scrypt runs on
 * the isolate's thread), `wrangler dev`'s proxy sends the next burst on connections the worker's runtime
 * is closing (idle 5 s) and answers those requests with its own 503 "Your worker restarted mid-request"
 * (no restart happens; decision 025). BENCH_SETTLE_MS=0 shows it (33 of 50 sign-ins).
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 15_000);
async function settle() {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  await waitForHealth(base);
}

ensureDevVars();
if (!process.env.BENCH_SKIP_BUILD) buildSpa();
const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-signups-"));
applyMigrations(persistTo);
const server = spawnServer({ port, persistTo });
let failed = 0;
let rushMs = 0;
try {
  await waitForHealth(base);
  const emails = Array.from({ length: SIGNUPS }, (_, i) => `fresher${i}@campus-rush.edu`);
  console.log(`\n== Sign-up rush: ${SIGNUPS} students behind one address, each step at the same instant (scrypt N=2^13 r=8 p=10)`);
  const registered = await burst("POST auth/register", emails.map((email) => () => post("auth/register", { email, password: PASSWORD, first_name: "Fresh", last_name: "Student" })));
  failed += registered.failed;
  rushMs += registered.wall;
  const codes = await Promise.all(
    emails.map(async (email) => {
      const { data } = await (await fetch(`${base}/api/v1/dev/emails?to=${encodeURIComponent(email)}`)).json();
      return /\b(\d{6})\b/.exec(data?.[0]?.text ?? "")?.[1] ?? "000000";
    }),
  );
  await settle();
  const verified = await burst("POST auth/verify-email", emails.map((email, i) => () => post("auth/verify-email", { email, code: codes[i] })));
  failed += verified.failed;
  rushMs += verified.wall;
  await settle();
  const signedIn = await burst("POST auth/login", emails.map((email) => () => post("auth/login", { email, password: PASSWORD })));
  failed += signedIn.failed;
  rushMs += signedIn.wall;
} finally {
  server.stop();
  rmSync(persistTo, { recursive: true, force: true });
}
const budgetMs = SIGNUPS * BUDGET_MS_PER_STUDENT;
const tooSlow = rushMs > budgetMs;
console.log(`  the three bursts took ${(rushMs / 1000).toFixed(1)} s (budget ${(budgetMs / 1000).toFixed(0)} s: ${BUDGET_MS_PER_STUDENT / 1000} s a student)`);
if (failed) console.log(`\n${failed} request(s) failed: BUDGET BROKEN`);
else if (tooSlow) console.log("\nThe rush took longer than its budget: BUDGET BROKEN");
else console.log("\nEvery sign-up, verification and sign-in succeeded, within the budget.");
process.exit(failed || tooSlow ? 1 : 0);

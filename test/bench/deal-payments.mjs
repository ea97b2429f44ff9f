#!/usr/bin/env node
/**
 * The money path of a deal (docs/decisions/029) inside workerd, with local D1: the latency of each step
 * and the rows it reads and writes (D1's meta of every statement). Bundles
 * test/bench/deal-payments-worker.ts (the product's services/payments) with esbuild and runs it through
 * Miniflare on a database migrated by `wrangler d1 migrations apply`, seeded with BENCH_DEALS signed
 * deals (each with its own lister, renter, listing and conversation, and one overlapping open request
 * that the payment declines). Per deal: checkout (a test session), the payment's webhook
 * (checkout.session.completed signed and applied: paid, the request declined, the receipt), the release
 * (the transfer, simulated without Stripe keys, and its write). Prints medians and p95s; no budget.
 * Run: `node test/bench/deal-payments.mjs` (BENCH_DEALS=N, default 30). Not part of `npm test`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { applyMigrations, ROOT } from "../../scripts/lib/server.mjs";

const DEALS = Number(process.env.BENCH_DEALS ?? 30);

const bundle = await build({
  entryPoints: [join(ROOT, "test/bench/deal-payments-worker.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["module", "main"],
  external: ["cloudflare:*", "node:*"],
  write: false,
  logLevel: "warning",
});

const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-payments-"));
applyMigrations(persistTo);
const databaseId = /database_id\s*=\s*"([^"]+)"/.exec(readFileSync(join(ROOT, "wrangler.toml"), "utf8"))[1];
const mf = new Miniflare({
  modules: true,
  script: bundle.outputFiles[0].text,
  compatibilityDate: "2026-04-01",
  compatibilityFlags: ["nodejs_compat"],
  d1Databases: { DB: databaseId },
  d1Persist: join(persistTo, "v3", "d1"),
  bindings: {
    ENVIRONMENT: "development",
    JWT_SECRET: "bench-jwt-secret-0123456789abcdef0123456789",
    ADMIN_PASSWORD: "bench-admin-password",
    ALLOWED_ORIGINS: "",
    PUBLIC_BASE_URL: "http://localhost",
  },
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const now = new Date().toISOString();

try {
  const db = await mf.getD1Database("DB");
  const ids = [];
  for (let i = 0; i < DEALS; i++) {
    const n = String(i).padStart(4, "0");
    const [renter, lister, other, listing, deal, conv] = [`benchrenter${n}`, `benchlister${n}`, `benchother${n}`, `benchlisting${n}`, `benchdeal${n}`, `benchconv${n}`];
    await db.batch([
      ...[renter, lister, other].map((id) =>
        db.prepare(`INSERT INTO users (id, email, first_name, last_name, email_verification_status) VALUES (?, ?, 'Bench', 'User', 'verified')`).bind(id, `${id}@bench.test`),
      ),
      db.prepare(
        `INSERT INTO listings (id, user_id, university_id, title, description, unit_type, address, address_public, monthly_rent, lease_term, verification_status, status, available_from, available_to, created_at)
         VALUES (?, ?, 1, 'Bench room', 'A room', '2x2', '1 Main St', 'Main St', 900, 'fall', 'approved', 'available', '2027-01-01', '2027-12-31', ?)`,
      ).bind(listing, lister, now),
      db.prepare(`INSERT INTO payout_accounts (user_id, stripe_account_id, status, transfers_active, created_at, updated_at) VALUES (?, ?, 'ready', 1, ?, ?)`).bind(lister, `acct_${n}`, now, now),
      db.prepare(`INSERT INTO conversations (id, user_a, user_b, listing_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`).bind(conv, lister, renter, listing, now, now),
      db.prepare(
        `INSERT INTO deals (id, listing_id, renter_id, lister_id, conversation_id, move_in, move_out, time_zone, status, listing_title, monthly_rent, fee_percent, address, landlord_consent, agreement_version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, '2027-03-01', '2027-06-30', 'America/Anchorage', 'signed', 'Bench room', 900, 5, '1 Main St', 'not_needed', 1, ?, ?)`,
      ).bind(deal, listing, renter, lister, conv, now, now),
      db.prepare(
        `INSERT INTO deals (id, listing_id, renter_id, lister_id, move_in, move_out, time_zone, status, listing_title, monthly_rent, created_at, updated_at)
         VALUES (?, ?, ?, ?, '2027-04-01', '2027-05-01', 'America/Anchorage', 'requested', 'Bench room', 900, ?, ?)`,
      ).bind(`${deal}r`, listing, other, lister, now, now),
    ]);
    ids.push({ deal, renter });
  }

  const step = async (path) => {
    const t = performance.now();
    const res = await mf.dispatchFetch(`http://bench${path}`, { method: "POST" });
    const body = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ...body, request_ms: performance.now() - t };
  };
  // Warm: the code compiled, the first statements prepared.
  await mf.dispatchFetch("http://bench/");
  const results = { checkout: [], webhook: [], release: [] };
  for (const { deal, renter } of ids) {
    const checkout = await step(`/checkout?deal=${deal}&renter=${renter}`);
    results.checkout.push(checkout);
    const paid = await step(`/pay?session=${checkout.result.session_id}`);
    results.webhook.push(paid);
    results.release.push(await step(`/release?deal=${deal}&at=2027-03-03T09:00:00.000Z`));
  }
  const released = results.release.filter((r) => r.result === "released").length;
  console.log(`\n== Deal payments in workerd (${DEALS} deals, local D1, no Stripe keys: development's simulated money):`);
  console.log("  step        median ms  p95 ms   rows read  rows written  statements   (+ emails and room events after the answer: read / written)");
  for (const [name, list] of Object.entries(results)) {
    const row = (k) => median(list.map((r) => r.step[k]));
    const after = (k) => median(list.map((r) => r.with_followups[k]));
    console.log(
      `  ${name.padEnd(10)}  ${median(list.map((r) => r.request_ms)).toFixed(1).padStart(9)}  ${p95(list.map((r) => r.request_ms)).toFixed(1).padStart(6)}  ${String(row("rows_read")).padStart(9)}  ${String(row("rows_written")).padStart(12)}  ${String(row("statements")).padStart(10)}   (${after("rows_read")} / ${after("rows_written")})`,
    );
  }
  console.log(`  released: ${released} of ${DEALS}`);
  if (released !== DEALS) process.exitCode = 1;
} finally {
  await mf.dispose();
  rmSync(persistTo, { recursive: true, force: true });
}

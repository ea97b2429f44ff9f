#!/usr/bin/env node
/**
 * Messaging in workerd (`wrangler dev`, local D1 and Durable Objects), loopback only, bounded:
 *  1. send-to-receive latency: 200 open sockets in 100 conversation rooms; messages are POSTed over
 *     HTTP at a steady 20 a second (each conversation every 5 s) and timed until the other
 *     participant's socket receives them (p50/p99; goal p99 < 100 ms); then, for reference, the
 *     rate at which back-to-back senders saturate the worker;
 *  2. what one conversation sustains: two senders in one room for a few seconds, messages per second
 *     delivered to the sockets.
 * The per-user send limit (30 a minute) would stop a benchmark long before the room does, so this
 * run uses a copy of wrangler.toml with that one limit raised; everything else is the real config.
 * Exits non-zero when the latency goal is missed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { SignJWT } from "jose";
import WebSocket from "ws";
import { applyMigrations, buildSpa, ensureDevVars, OFFLINE_ENV, ROOT, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";

const PAIRS = Number(process.env.BENCH_CONVERSATIONS ?? 100);
const SENDS = Number(process.env.BENCH_SENDS ?? 600);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const THROUGHPUT_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const P99_GOAL_MS = 100;

const devVars = Object.fromEntries(
  readFileSync(join(ROOT, ".dev.vars"), "utf8")
    .split("\n")
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).replace(/^"|"$/g, "")]),
);

/** An access token as the worker signs it (services/tokens.ts), for users the benchmark inserted. */
function accessToken(userId) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: "access" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer("campusnest")
    .setAudience("campusnest-api")
    .setIssuedAt(now)
    .setExpirationTime(now + 900)
    .sign(new TextEncoder().encode(devVars.JWT_SECRET));
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

ensureDevVars();
if (!process.env.BENCH_SKIP_BUILD) buildSpa();
const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-messages-"));
const config = join(ROOT, "wrangler.bench-messaging.toml");
writeFileSync(
  config,
  readFileSync(join(ROOT, "wrangler.toml"), "utf8").replace(/(name = "MESSAGE_LIMITER"[\s\S]*?limit = )\d+/, "$1100000"),
);
applyMigrations(persistTo);

// 200 users in 100 conversations (ids ordered within each pair, as the schema stores them).
const users = Array.from({ length: PAIRS * 2 }, (_, i) => `bench-user-${String(i).padStart(4, "0")}`);
const pairs = Array.from({ length: PAIRS }, (_, k) => ({ id: `bench-conv-${k}`, a: users[2 * k], b: users[2 * k + 1] }));
const sql = [
  ...users.map((id, i) => `INSERT INTO users (id, email, first_name, last_name, email_verification_status, email_on_message) VALUES ('${id}', 'bench${i}@bench.test', 'Bench', 'User${i}', 'verified', 0);`),
  ...pairs.map((p) => `INSERT INTO conversations (id, user_a, user_b, updated_at) VALUES ('${p.id}', '${p.a}', '${p.b}', '2026-01-01T00:00:00.000Z');`),
].join("\n");
const sqlFile = join(persistTo, "bench-messaging.sql");
writeFileSync(sqlFile, sql);
const seeded = spawnSync(join(ROOT, "node_modules", ".bin", "wrangler"), ["d1", "execute", "DB", "--local", "-c", "wrangler.toml", "--persist-to", persistTo, "--file", sqlFile], {
  cwd: ROOT,
  env: { ...process.env, ...OFFLINE_ENV },
  stdio: ["ignore", "ignore", "inherit"],
});
if (seeded.status !== 0) throw new Error("could not insert the benchmark users");

const port = Number(process.env.BENCH_PORT ?? 8793);
const base = `http://127.0.0.1:${port}`;
const server = spawnServer({ port, persistTo, config });
let failed = false;
const sockets = [];
try {
  await waitForHealth(base);
  const tokens = new Map(await Promise.all(users.map(async (u) => [u, await accessToken(u)])));
  const api = (path, token, body) =>
    fetch(`${base}/api/v1/${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "cf-connecting-ip": "127.0.0.1" },
      body: body ? JSON.stringify(body) : undefined,
    });

  // Every participant opens its conversation's room with a fresh ticket.
  const waiting = new Map(); // text -> resolve(receivedAt)
  const open = async (conversationId, userId) => {
    const res = await api("messages/socket-ticket", tokens.get(userId), {});
    if (!res.ok) throw new Error(`socket-ticket: ${res.status} ${await res.text()}`);
    const { data } = await res.json();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/parties/conversation/${conversationId}?token=${encodeURIComponent(data.ticket)}`);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    ws.on("message", (raw) => {
      const event = JSON.parse(String(raw));
      if (event.type !== "message" || event.message.sender_id === userId) return;
      waiting.get(event.message.text)?.(performance.now());
    });
    sockets.push(ws);
  };
  const openedAt = performance.now();
  for (let i = 0; i < pairs.length; i += 20) {
    await Promise.all(pairs.slice(i, i + 20).flatMap((p) => [open(p.id, p.a), open(p.id, p.b)]));
  }
  console.log(`\n== Messaging in workerd: ${sockets.length} sockets open in ${PAIRS} rooms (${(performance.now() - openedAt).toFixed(0)} ms to open)`);

  /** POSTs one message and resolves with its send-to-receive time, or null when it never arrived. */
  const sendAndReceive = async (pair, fromA, text) => {
    const sender = fromA ? pair.a : pair.b;
    const received = new Promise((resolve) => {
      waiting.set(text, resolve);
      setTimeout(() => resolve(null), 5000);
    });
    const started = performance.now();
    const res = await api(`messages/conversations/${pair.id}/send`, tokens.get(sender), { text, conversation_id: pair.id });
    if (res.status !== 201) throw new Error(`send: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    const at = await received;
    waiting.delete(text);
    return at === null ? null : at - started;
  };

  // 1. Latency under a steady load: messages arrive at RATE per second whatever the answers (an open
  //    loop, as people type), spread over every room: each of the 100 conversations sends every
  //    PAIRS/RATE seconds, several times a real chat's pace.
  for (let i = 0; i < 20; i++) await sendAndReceive(pairs[i % PAIRS], true, `warm-${i}`);
  const latencies = [];
  let lost = 0;
  const pending = [];
  for (let n = 0; n < SENDS; n++) {
    pending.push(
      sendAndReceive(pairs[n % PAIRS], n % 2 === 0, `latency-${n}`).then((ms) => {
        if (ms === null) lost++;
        else latencies.push(ms);
      }),
    );
    await new Promise((r) => setTimeout(r, 1000 / RATE));
  }
  await Promise.all(pending);
  latencies.sort((x, y) => x - y);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  console.log(
    `  send-to-receive at ${RATE} messages/s over ${latencies.length} messages: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms (goal p99 < ${P99_GOAL_MS} ms)`,
  );
  if (lost) console.log(`  ${lost} messages never reached the other socket`);
  if (p99 >= P99_GOAL_MS || lost) failed = true;

  // Saturation, for reference: CONCURRENCY senders in a closed loop (each sends when its last answer came).
  const saturated = [];
  let next = 0;
  const satStarted = performance.now();
  const closedLoop = async () => {
    while (next < 400) {
      const n = next++;
      const ms = await sendAndReceive(pairs[n % PAIRS], n % 2 === 1, `saturate-${n}`);
      if (ms !== null) saturated.push(ms);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, closedLoop));
  saturated.sort((x, y) => x - y);
  console.log(
    `  saturation, ${CONCURRENCY} senders back to back: ${(saturated.length / ((performance.now() - satStarted) / 1000)).toFixed(0)} messages/s, p50 ${percentile(saturated, 50).toFixed(1)} ms, p99 ${percentile(saturated, 99).toFixed(1)} ms (queueing, not a budget)`,
  );

  // 2. One conversation: both participants send as fast as answers come back.
  const room = pairs[0];
  let delivered = 0;
  let sent = 0;
  const deadline = performance.now() + THROUGHPUT_MS;
  const started = performance.now();
  const sender = async (fromA) => {
    while (performance.now() < deadline) {
      const ms = await sendAndReceive(room, fromA, `burst-${fromA ? "a" : "b"}-${sent++}`);
      if (ms !== null) delivered++;
    }
  };
  await Promise.all([sender(true), sender(true), sender(false), sender(false)]);
  const seconds = (performance.now() - started) / 1000;
  console.log(`  one conversation, 4 concurrent senders: ${(delivered / seconds).toFixed(0)} messages/s delivered (${delivered} of ${sent} in ${seconds.toFixed(1)} s)`);
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  for (const ws of sockets) ws.terminate();
  server.stop();
  rmSync(persistTo, { recursive: true, force: true });
  rmSync(config, { force: true });
}
console.log(failed ? "\nBUDGET BROKEN" : "\nMessaging budget met.");
process.exit(failed ? 1 : 0);

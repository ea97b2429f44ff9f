#!/usr/bin/env node
/**
 * How far one D1 database goes (docs/capacity.md), measured in workerd (`wrangler
 * dev`, local D1 and Durable Objects), loopback only, over the real API. Students sign up through the
 * dev mailbox (register, emailed code, verify); staff verifies the listers' identity; then:
 *  1. message sends (`POST messages/conversations/{id}/send`, with an Idempotency-Key as the SPA
 *     sends it) by K concurrent senders in a closed loop, K = 1, 4, 16, each in its own conversation:
 *     sends/s and latency; beside it /api/health (one D1 statement) and /api/version (none) at 16;
 *  2. listing writes: creates (`POST subleases/`, one photo each) and owner edits (`PATCH
 *     subleases/{id}`) by concurrent listers: writes/s and latency;
 *  3. rows read per browse page (D1's meta.rows_read, which the browse answer carries) over the
 *     listings just written, once staff approved them;
 *  4. token refreshes (`POST auth/refresh-token`), as an open tab makes one every 15 minutes;
 *  5. bytes on disk per row, indexes included, from SQLite's dbstat over the run's database file once
 *     the API's rows are copied (fresh ids) to 10,000 a table: messages, conversations, users, refresh
 *     tokens, listings (+ photos, full-text rows);
 *  6. SQLite's own CPU time for the statements of one message send, over those tables.
 * Steps 5 and 6 need the sqlite3 command (skipped without it).
 * The per-user throttles (30 messages and 60 writes a minute) would stop a benchmark long before the
 * database does, so this run uses a copy of wrangler.toml with those two limits raised; everything
 * else is the real config. Local workerd is not production D1 (docs/capacity.md says what differs).
 * Run: `node test/bench/capacity.mjs` (BENCH_SKIP_BUILD=1 reuses dist/; BENCH_DURATION_MS per step,
 * default 4000). Informative: exits non-zero only when a request fails or a step stays under a floor
 * far below anything seen (FLOOR_PER_SECOND).
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, buildSpa, ensureDevVars, ROOT, spawnServer, waitForHealth } from "../../scripts/lib/server.mjs";

const port = Number(process.env.BENCH_PORT ?? 8796);
const base = `http://127.0.0.1:${port}`;
const STUDENTS = 16;
const LISTERS = 4;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const REFRESHES_PER_STUDENT = 10;
/** Generous: a step below this many writes a second is broken, not slow. */
const FLOOR_PER_SECOND = 1;
const UF = 49; // University of Florida
const PASSWORD = "capacity-bench-1";
const ADMIN_PASSWORD = "capacity-bench-admin-1";

// Realistic text lengths: what students write to each other (about 70 characters on average) and
// what a lister writes (a title of about 45 characters, a description of about 600).
const MESSAGES = [
  "Hi! Is the room still available for the summer?",
  "Yes it is. When would you like to move in?",
  "Around May 15th. Is parking included in the rent or is that extra?",
  "Parking is included, one spot in the garage. Utilities are about $60 a month split.",
  "Great. Could I see it this weekend? Saturday afternoon works best for me.",
  "Saturday at 2 works. The address is on the listing; text me when you're outside.",
  "Thanks! One more thing: are the roommates okay with a cat?",
  "Sounds good, see you then!",
];
const DESCRIPTION =
  "Fully furnished private bedroom in a 4x4 apartment, ten minutes' walk from campus and right on the bus line. " +
  "You get your own bathroom and walk-in closet; the kitchen and living room are shared with three quiet roommates " +
  "(two grad students and a senior). In-unit washer and dryer, high-speed internet included, utilities capped at $40 " +
  "a month. The complex has a pool, a gym and a study lounge open 24/7. I'm leaving for an internship, so the room is " +
  "available for the whole summer term; the lease transfer is approved by the leasing office. Message me with any " +
  "questions or to set up a video tour.";

const config = join(ROOT, "wrangler.bench-capacity.toml");
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
let failed = false;

/**
 * `wrangler dev`'s proxy answers a request in flight while it swaps a long-busy worker with its own 503
 * (test/bench/signups.mjs); such a request is sent again once (a send with the same Idempotency-Key,
 * as the SPA's Retry does) and counted here, not as a failure of the app.
 */
let proxyRetries = 0;

async function call(method, path, { token, body, headers = {} } = {}, retried = false) {
  const res = await fetch(`${base}/api/v1/${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      "cf-connecting-ip": "203.0.113.60",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status === 503 && !retried && text.includes("restarted mid-request")) {
    proxyRetries++;
    return call(method, path, { token, body, headers }, true);
  }
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** A student through the real sign-up: register, the emailed code from the dev mailbox, verify. */
async function signUp(i) {
  const email = `capacity${i}@ufl.edu`;
  await call("POST", "auth/register", { body: { email, password: PASSWORD, first_name: "Cap", last_name: `Student${i}`, university_id: UF } });
  const { data } = await call("GET", `dev/emails?to=${encodeURIComponent(email)}`);
  const code = /\b(\d{6})\b/.exec(data?.[0]?.text ?? "")?.[1];
  if (!code) throw new Error(`no code emailed to ${email}`);
  const auth = await call("POST", "auth/verify-email", { body: { email, code } });
  return { id: auth.user.id, token: auth.access_token, refresh: auth.refresh_token };
}

/** A step's answer that ends its loop early (a fixed number of requests). */
const STOP = Symbol("stop");

/**
 * `workers` closed loops (each starts its next request when its last answered) for DURATION_MS:
 * requests per second, latency p50/p99 and failures. `step(worker, n)` makes one request, or
 * answers STOP to end its loop.
 */
async function closedLoop(workers, step) {
  const times = [];
  let failures = 0;
  let firstError = null;
  const deadline = performance.now() + DURATION_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let n = 0; performance.now() < deadline; n++) {
        const t = performance.now();
        try {
          if ((await step(w, n)) === STOP) break;
          times.push(performance.now() - t);
        } catch (err) {
          failures++;
          firstError ??= err;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { perSecond: times.length / seconds, done: times.length, p50: percentile(times, 50), p99: percentile(times, 99), failures, firstError };
}

function report(label, r, unit = "/s") {
  console.log(
    `  ${label.padEnd(44)} ${r.perSecond.toFixed(1).padStart(7)}${unit}  p50 ${r.p50.toFixed(0).padStart(4)} ms  p99 ${r.p99.toFixed(0).padStart(5)} ms  (${r.done} ok${r.failures ? `, ${r.failures} FAILED: ${String(r.firstError?.message ?? r.firstError).slice(0, 160)}` : ""})`,
  );
  if (r.failures) failed = true;
  return r;
}

/** The run's D1 file (miniflare keeps one SQLite file per database under the persist directory). */
function databaseFile(persistTo) {
  const dir = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  return files.map((f) => join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

function sqlite(file, query) {
  const out = spawnSync("sqlite3", ["-json", file, query], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(out.stderr || "sqlite3 failed");
  return out.stdout.trim() ? JSON.parse(out.stdout) : [];
}

const NEW_ID = "substr(lower(hex(randomblob(16))), 1, 21)"; // the length of lib/ids.ts's ids
/**
 * Copies of the rows the API wrote, with fresh random ids (and keys, hashes, emails where those are
 * unique), until each table holds GROW_TO rows: a B-tree's bytes per row settle only at a few
 * thousand rows (pages of random keys fill to about 70 %), and the API writes a few hundred here.
 */
const GROW_TO = Number(process.env.BENCH_GROW_TO ?? 10_000);
function growTables(file) {
  const listingColumns = sqlite(file, "SELECT name FROM pragma_table_xinfo('listings') WHERE hidden = 0").map((c) => c.name);
  const copies = {
    // Most messages get read: the copies are, so the unread index holds only the API's own rows.
    messages: `INSERT INTO messages (id, conversation_id, sender_id, text, safety_flags, read_at, client_key, created_at)
      SELECT ${NEW_ID}, conversation_id, sender_id, text, safety_flags, created_at, lower(hex(randomblob(18))), created_at FROM messages`,
    conversations: `INSERT INTO conversations (id, user_a, user_b, listing_id, last_message_preview, last_message_at, created_at, updated_at)
      SELECT ${NEW_ID}, ${NEW_ID}, ${NEW_ID}, listing_id, last_message_preview, last_message_at, created_at, updated_at FROM conversations`,
    users: `INSERT INTO users (id, email, password_hash, first_name, last_name, university_id, email_verification_status, id_verification_status, created_at)
      SELECT ${NEW_ID}, 'c' || lower(hex(randomblob(6))) || '@ufl.edu', password_hash, first_name, last_name, university_id, email_verification_status, id_verification_status, created_at FROM users`,
    refresh_tokens: `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, family_expires_at, rotated_at, successor, revoked_at, created_at)
      SELECT ${NEW_ID}, user_id, family_id, lower(hex(randomblob(32))), expires_at, family_expires_at, rotated_at, successor, revoked_at, created_at FROM refresh_tokens`,
    // The full-text rows follow by the listings' own triggers.
    listings: `INSERT INTO listings (${listingColumns.join(", ")})
      SELECT ${listingColumns.map((c) => (c === "id" ? NEW_ID : c)).join(", ")} FROM listings`,
  };
  for (const [table, insert] of Object.entries(copies)) {
    for (let n = sqlite(file, `SELECT count(*) AS n FROM ${table}`)[0].n; n > 0 && n < GROW_TO; n = sqlite(file, `SELECT count(*) AS n FROM ${table}`)[0].n) {
      sqlite(file, `${insert} LIMIT ${GROW_TO - n}`);
    }
  }
  // One photo for each copied listing, keyed as the upload route keys them.
  sqlite(
    file,
    `INSERT INTO listing_photos (id, listing_id, key, thumb_key, position, created_at)
       SELECT ${NEW_ID}, l.id, 'listings/' || l.user_id || '_' || ${NEW_ID} || '.jpg', NULL, 0, l.created_at FROM listings l
       WHERE NOT EXISTS (SELECT 1 FROM listing_photos p WHERE p.listing_id = l.id)`,
  );
}

/** Bytes per row of each table: its own B-tree and its indexes (for listings: with photos and full-text rows). */
function bytesPerRow(file) {
  const pages = sqlite(
    file,
    `SELECT coalesce(s.tbl_name, d.name) AS tbl, sum(CASE WHEN s.type = 'index' THEN d.pgsize ELSE 0 END) AS indexes, sum(d.pgsize) AS bytes
       FROM dbstat d LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY tbl`,
  );
  const byTable = Object.fromEntries(pages.map((p) => [p.tbl, p]));
  const fts = Object.keys(byTable).filter((n) => n.startsWith("listings_fts"));
  const sum = (names, key) => names.reduce((s, n) => s + (byTable[n]?.[key] ?? 0), 0);
  const count = (table) => sqlite(file, `SELECT count(*) AS n FROM ${table}`)[0].n;
  return {
    total: pages.reduce((s, p) => s + p.bytes, 0),
    devEmails: byTable.dev_emails?.bytes ?? 0,
    rows: [
      ["messages", "messages", []],
      ["conversations", "conversations", []],
      ["users", "users", []],
      ["refresh_tokens", "refresh_tokens", []],
      ["listings", "listings", []],
      ["  + its photo rows (1 each)", "listings", ["listing_photos"], true],
      ["  + its full-text rows", "listings", fts, true],
    ].map(([label, table, extra, extraOnly]) => {
      const names = extraOnly ? extra : [table, ...extra];
      const n = count(table);
      return { label, n, bytes: sum(names, "bytes") / n, indexes: sum(names, "indexes") / n };
    }),
  };
}

/**
 * SQLite's own CPU time for the statements one message send runs on the primary (services/messaging
 * sendMessage and afterSend, as of this writing: the sender's row, the conversation, the
 * Idempotency-Key lookup, the recipient, the block check, the batch of three writes, the unread count,
 * the email claim) and the recipient's read mark, `sends` times over the grown tables, WAL without
 * fsync. CPU seconds (bash's `times`), so a busy machine does not inflate it: the floor of what a send
 * costs D1's single writer, without D1's own handling of each statement.
 */
function sqliteCpuPerSend(file, sends = 1000) {
  const q = (v) => `'${String(v).replaceAll("'", "''")}'`;
  const pairs = sqlite(file, "SELECT id, user_a, user_b FROM conversations ORDER BY rowid LIMIT 8");
  const lines = ["PRAGMA synchronous = NORMAL;"];
  const t0 = Date.now();
  for (let n = 0; n < sends; n++) {
    const { id, user_a: sender, user_b: recipient } = pairs[n % pairs.length];
    const now = new Date(t0 + n).toISOString();
    const key = randomUUID();
    const text = MESSAGES[n % MESSAGES.length];
    lines.push(
      `SELECT * FROM users WHERE id = ${q(sender)};`,
      `SELECT * FROM conversations WHERE id = ${q(id)} AND (user_a = ${q(sender)} OR user_b = ${q(sender)});`,
      `SELECT * FROM messages WHERE sender_id = ${q(sender)} AND client_key = ${q(key)} AND created_at >= ${q(now)};`,
      `SELECT * FROM users WHERE id = ${q(recipient)};`,
      `SELECT 1 FROM blocks WHERE blocker_id = ${q(recipient)} AND blocked_id = ${q(sender)};`,
      "BEGIN;",
      `UPDATE messages SET client_key = NULL WHERE sender_id = ${q(sender)} AND client_key = ${q(key)} AND created_at < ${q(now)};`,
      `INSERT INTO messages (id, conversation_id, sender_id, text, safety_flags, read_at, client_key, created_at) VALUES (substr(lower(hex(randomblob(16))), 1, 21), ${q(id)}, ${q(sender)}, ${q(text)}, NULL, NULL, ${q(key)}, ${q(now)});`,
      `UPDATE conversations SET last_message_preview = ${q(text)}, last_message_at = ${q(now)}, updated_at = ${q(now)} WHERE id = ${q(id)};`,
      "COMMIT;",
      `SELECT count(*) FROM messages INNER JOIN conversations ON messages.conversation_id = conversations.id WHERE (conversations.user_a = ${q(recipient)} OR conversations.user_b = ${q(recipient)}) AND messages.sender_id <> ${q(recipient)} AND messages.read_at IS NULL AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${q(recipient)} AND b.blocked_id = messages.sender_id);`,
      `UPDATE conversations SET user_b_emailed_at = ${q(now)} WHERE id = ${q(id)} AND (user_b_emailed_at IS NULL OR user_b_emailed_at < ${q(new Date(t0 + n - 900_000).toISOString())});`,
      // The recipient reads it (POST .../read's write), so unread counts stay as small as a real inbox's.
      `UPDATE messages SET read_at = ${q(now)} WHERE conversation_id = ${q(id)} AND sender_id <> ${q(recipient)} AND read_at IS NULL;`,
    );
  }
  const script = `${file}.sends.sql`;
  writeFileSync(script, lines.join("\n"));
  // bash's `times` prints the CPU time of its children: sqlite3's, start-up and parsing included.
  const out = spawnSync("bash", ["-c", 'sqlite3 "$1" < "$2" > /dev/null && times', "bash", file, script], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(out.stderr || "sqlite3 failed");
  const [user, sys] = [...out.stdout.trim().split("\n").at(-1).matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return ((user + sys) / sends) * 1000;
}

ensureDevVars();
if (!process.env.BENCH_SKIP_BUILD) buildSpa();
const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-capacity-"));
writeFileSync(
  config,
  readFileSync(join(ROOT, "wrangler.toml"), "utf8")
    .replace(/(name = "MESSAGE_LIMITER"[\s\S]*?limit = )\d+/, "$1100000")
    .replace(/(name = "WRITE_LIMITER"[\s\S]*?limit = )\d+/, "$1100000"),
);
applyMigrations(persistTo);
const server = spawnServer({ port, persistTo, config, vars: { ADMIN_PASSWORD } });
let stopped = false;
const stop = async () => {
  if (stopped) return;
  stopped = true;
  server.stop();
  await new Promise((r) => (server.child.exitCode !== null ? r() : server.child.once("exit", r)));
};
try {
  await waitForHealth(base);
  const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
  console.log(`\n== Capacity in workerd (wrangler dev, local D1), ${DURATION_MS / 1000} s per step, closed loops; ${cpus().length} CPUs, load average ${load()}`);

  // Sign-ups: a few at a time (each costs one scrypt hash on the isolate's thread).
  const signUpStarted = performance.now();
  const students = [];
  for (let i = 0; i < STUDENTS; i += 4) students.push(...(await Promise.all([0, 1, 2, 3].map((k) => signUp(i + k)))));
  console.log(`  ${STUDENTS} students signed up through the dev mailbox in ${((performance.now() - signUpStarted) / 1000).toFixed(1)} s`);

  // Conversations: student 2k with 2k+1; each sender writes in its own pair's conversation.
  const conversationOf = new Map();
  for (let k = 0; k < STUDENTS; k += 2) {
    const { data } = await call("POST", "messages/conversations", { token: students[k].token, body: { participant_id: students[k + 1].id } });
    conversationOf.set(k, data.id).set(k + 1, data.id);
  }

  // 1. Message sends.
  const trivial = await closedLoop(16, () => fetch(`${base}/api/version`).then((r) => r.arrayBuffer()));
  const health = await closedLoop(16, () =>
    fetch(`${base}/api/health`).then((r) => {
      if (!r.ok) throw new Error(`health ${r.status}`);
      return r.arrayBuffer();
    }),
  );
  console.log("\n  Reference, 16 clients:");
  report("GET /api/version (no database)", trivial);
  report("GET /api/health (one D1 statement)", health);
  console.log("\n  Message sends (each in its own conversation, Idempotency-Key set):");
  const sends = {};
  for (const senders of [1, 4, 16]) {
    sends[senders] = report(`${senders} sender${senders > 1 ? "s" : " "}`, await closedLoop(senders, (w, n) =>
      call("POST", `messages/conversations/${conversationOf.get(w)}/send`, {
        token: students[w].token,
        headers: { "idempotency-key": randomUUID() },
        body: { text: `${MESSAGES[n % MESSAGES.length]} (${w}.${n})` },
      }),
    ));
  }

  // 2. Listing writes: staff verifies the listers' identity; each uploads one photo.
  const { token: staff } = await call("POST", "admin/login", { body: { password: ADMIN_PASSWORD } });
  const photo = `data:image/jpeg;base64,${readFileSync(join(ROOT, "scripts", "demo-photos", "01-bedroom.jpg")).toString("base64")}`;
  const listers = students.slice(0, LISTERS);
  for (const lister of listers) {
    await call("PATCH", `admin/users/${lister.id}/verify`, { token: staff, body: { verification_status: "verified" } });
    const uploaded = await call("POST", "upload/multiple-base64", { token: lister.token, body: { images: [{ filename: "room.jpg", image_data: photo }] } });
    lister.picture = uploaded.uploaded_files[0].url;
    lister.listings = [];
  }
  const createBody = (w, n) => ({
    title: `Furnished 4x4 room near campus, summer (${w}.${n})`,
    description: DESCRIPTION,
    unit_type: "4x4",
    address: `${1200 + n} SW 2nd Ave, Gainesville, FL 32601`,
    monthly_rent: 600 + ((w * 37 + n * 11) % 500),
    lease_term: "summer",
    available_from: "2027-05-10",
    available_to: "2027-08-10",
    university_id: UF,
    parking: n % 2 === 0,
    allow_pets: n % 3 === 0,
    gender_preference: "no_preference",
    pictures: [listers[w].picture],
  });
  console.log("\n  Listing writes (one photo each; every write also bumps the listings generation):");
  const creates = {};
  for (const writers of [1, LISTERS]) {
    creates[writers] = report(`creates, ${writers} lister${writers > 1 ? "s" : " "}`, await closedLoop(writers, async (w, n) => {
      const { id } = await call("POST", "subleases/", { token: listers[w].token, body: createBody(w, n) });
      listers[w].listings.push(id);
    }));
  }
  const edits = report(`owner edits (rent and title), ${LISTERS} listers`, await closedLoop(LISTERS, (w, n) => {
    const mine = listers[w].listings;
    return call("PATCH", `subleases/${mine[n % mine.length]}`, {
      token: listers[w].token,
      body: { monthly_rent: 650 + (n % 300), title: `Furnished 4x4 room near campus, summer, edited ${n}` },
    });
  }));

  // 3. Rows read per browse page over the listings written, once approved.
  const approved = await call("POST", "admin/listings/verify-all", { token: staff });
  const written = listers.reduce((s, l) => s + l.listings.length, 0);
  console.log(`\n  Rows read per browse page of 40 (D1 meta.rows_read / rows returned; ${written} listings, ${approved.verified_count} approved):`);
  for (const [label, query] of [
    ["newest", ""],
    ["university, newest", `university_id=${UF}`],
    ["university + term, newest", `university_id=${UF}&lease_term=summer`],
    ["university, price low to high", `university_id=${UF}&sort=price_asc`],
    ["university + summer stay", `university_id=${UF}&available_from=2027-05-20&available_to=2027-08-01`],
    ["full text: \"walk-in closet\"", `q=${encodeURIComponent("walk-in closet")}`],
  ]) {
    const pages = [];
    let cursor = null;
    for (let page = 0; page < 3; page++) {
      const body = await call("GET", `subleases/?limit=40&${query}${cursor ? `&last_evaluated_key=${cursor}` : ""}`, { headers: { "cache-control": "no-cache" } });
      pages.push(`${body.meta.rows_read}/${body.data.length}`);
      cursor = body.pagination.next_token;
      if (!cursor) break;
    }
    console.log(`    ${label.padEnd(34)} ${pages.join(", ")}`);
  }

  // 4. Token refreshes: each student's tab, REFRESHES_PER_STUDENT times (each leaves a rotated row for 30 days).
  report(`token refreshes, ${STUDENTS} tabs`, await closedLoop(STUDENTS, async (w, n) => {
    if (n >= REFRESHES_PER_STUDENT) return STOP;
    const auth = await call("POST", "auth/refresh-token", { body: { refresh_token: students[w].refresh } });
    students[w].refresh = auth.refresh_token;
  }));

  console.log(`  load average after the requests: ${load()}; requests sent again after wrangler's "restarted mid-request" 503: ${proxyRetries}`);
  const floorMissed = [sends[1], sends[16], creates[1], edits].some((r) => r.perSecond < FLOOR_PER_SECOND);
  if (floorMissed) {
    console.log(`  A step stayed under ${FLOOR_PER_SECOND} writes/s: BROKEN`);
    failed = true;
  }

  // 5. Bytes per row, indexes included (the server stopped first, so the file is complete).
  await stop();
  if (spawnSync("sqlite3", ["-version"]).status !== 0) {
    console.log("\n  Bytes per row: skipped (no sqlite3 command on this machine)");
  } else {
    const file = databaseFile(persistTo);
    const written = bytesPerRow(file);
    growTables(file);
    const grown = bytesPerRow(file);
    console.log(
      `\n  Bytes on disk per row (SQLite dbstat, 4 KiB pages, whole pages counted): the API's rows copied with fresh ids to ${GROW_TO.toLocaleString("en-US")} a table` +
        `\n  (the run's own database: ${(written.total / 1024 / 1024).toFixed(1)} MiB, of which the dev mailbox, absent in production, ${(written.devEmails / 1024 / 1024).toFixed(1)} MiB)`,
    );
    for (const r of grown.rows) {
      console.log(`    ${r.label.padEnd(30)} ${String(r.n).padStart(6)} rows  ${r.bytes.toFixed(0).padStart(6)} B/row, of which indexes ${r.indexes.toFixed(0).padStart(5)} B`);
    }
    const perSend = sqliteCpuPerSend(file);
    console.log(`\n  SQLite's own CPU per message send and its read mark (11 statements, WAL without fsync, grown tables): ${perSend.toFixed(3)} ms => one writer doing only this: ~${Math.round(1000 / perSend).toLocaleString("en-US")} sends/s`);
  }
} catch (err) {
  console.log(`  could not measure: ${err?.stack ?? err}`);
  failed = true;
} finally {
  await stop();
  rmSync(persistTo, { recursive: true, force: true });
  rmSync(config, { force: true });
}
console.log(failed ? "\nCAPACITY BENCH FAILED" : "\nCapacity measured.");
process.exit(failed ? 1 : 0);

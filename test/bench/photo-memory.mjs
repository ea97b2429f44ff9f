#!/usr/bin/env node
/**
 * The photo check's memory and latency in workerd (`wrangler dev`, local R2 and queues; docs/decisions/036,
 * 033). For each photo (a phone's 1600x1200 JPEG, and the largest the upload accepts: a 25-megapixel
 * baseline JPEG, the same progressive, a 25-megapixel PNG), in a fresh server: a verified student uploads
 * it and creates a listing with it; the bench reads the runtime workerd's resident memory (VmRSS) before
 * the listing is created and its peak (VmHWM) once staff's view says the photo was compared, and the time
 * from the create's answer to that moment (polled every 50 ms). It also times the demo seed's photos
 * (each stored file decoded once) until every demo listing is compared.
 * Only the HTTP API is used, so the same file measures an older checkout (BENCH_ROOT: its own
 * node_modules and dist/ are used) for a before/after.
 * Run: `node test/bench/photo-memory.mjs` (BENCH_SKIP_BUILD=1 reuses dist/, BENCH_PORT 8798,
 * PHOTO_MEMORY_CASES=typical,jpeg25,jpeg25p,png25, PHOTO_SOURCE a photograph to scale, else a synthetic scene).
 * Exits non-zero when a photo is not compared within 60 s or a request answers other than expected.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";

const ROOT = process.env.BENCH_ROOT ?? new URL("../../", import.meta.url).pathname;
const { applyMigrations, buildSpa, ensureDevVars, spawnServer, waitForHealth, seedDemoData } = await import(pathToFileURL(join(ROOT, "scripts/lib/server.mjs")).href);
const { memory, workerdPid } = await import(new URL("../../scripts/lib/workerd-memory.mjs", import.meta.url).href);

const port = Number(process.env.BENCH_PORT ?? 8798);
const base = `http://127.0.0.1:${port}`;
const CASES = (process.env.PHOTO_MEMORY_CASES ?? "typical,jpeg25,jpeg25p,png25").split(",");
const MB = 1024 * 1024;
const ADMIN_PASSWORD = "admin-dev-password";

/** A photograph to scale up (the photo-hash bench's set when installed), else a synthetic scene with texture. */
async function source() {
  const listed = join(ROOT, "test/bench/photo-set.json");
  const candidates = [process.env.PHOTO_SOURCE, ...(existsSync(listed) ? JSON.parse(readFileSync(listed, "utf8")).filter((i) => !i.entry).map((i) => i.path) : [])].filter(Boolean);
  const path = candidates.find((p) => existsSync(p));
  if (path) return { name: path, input: sharp(readFileSync(path)) };
  const w = 1000, h = 1000;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0, s = 7; i < raw.length; i++) raw[i] = ((i % (w * 3)) / 12 + Math.floor(i / (w * 3)) / 6 + ((s = (s * 1103515245 + 12345) % 2147483648) % 40)) & 0xff;
  return { name: "synthetic", input: sharp(raw, { raw: { width: w, height: h, channels: 3 } }) };
}

/** The photos, as a student's browser would send them (each within the upload's 10 MB). */
async function photos() {
  const src = await source();
  const make = {
    typical: async () => ({ file: "typical.jpg", bytes: await src.input.clone().resize(1600, 1200, { fit: "cover" }).jpeg({ quality: 85 }).toBuffer(), pixels: "1600x1200" }),
    jpeg25: async () => ({ file: "jpeg25.jpg", bytes: await src.input.clone().resize(5000, 5000, { fit: "cover" }).jpeg({ quality: 80 }).toBuffer(), pixels: "5000x5000" }),
    jpeg25p: async () => ({ file: "jpeg25p.jpg", bytes: await src.input.clone().resize(5000, 5000, { fit: "cover" }).jpeg({ quality: 80, progressive: true }).toBuffer(), pixels: "5000x5000 progressive" }),
    png25: async () => ({ file: "png25.png", bytes: await src.input.clone().resize(5000, 5000, { fit: "cover" }).png({ palette: true, colours: 8, compressionLevel: 9 }).toBuffer(), pixels: "5000x5000" }),
  };
  const out = [];
  for (const name of CASES) out.push({ name, ...(await make[name]()) });
  for (const p of out) if (p.bytes.length > 10 * MB) throw new Error(`${p.file} is ${(p.bytes.length / MB).toFixed(1)} MB: over the upload's 10 MB`);
  return { src: src.name, list: out };
}

const unexpected = [];
async function call(method, path, { token, body, timeoutMs } = {}) {
  const res = await fetch(`${base}/api/v1/${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
  });
  const text = await res.text();
  if (!res.ok) unexpected.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

async function verifiedStudent(i) {
  const email = `photo-memory-${i}@ufl.edu`;
  await call("POST", "auth/register", { body: { email, password: "photo-memory-pass-1", first_name: "Photo", last_name: `Bench${i}`, university_id: 3 } });
  const mail = await call("GET", `dev/emails?to=${encodeURIComponent(email)}`);
  const code = /\b(\d{6})\b/.exec(mail?.data?.[0]?.text ?? "")?.[1];
  const auth = await call("POST", "auth/verify-email", { body: { email, code } });
  const admin = (await call("POST", "admin/login", { body: { password: ADMIN_PASSWORD } })).token;
  await call("PATCH", `admin/users/${auth.user.id}/verify`, { token: admin, body: { verification_status: "verified" } });
  return { token: auth.access_token, admin };
}

/** Polls staff's view until the listing's photos were compared; ms from `since`, or null after 60 s. */
async function comparedAfter(listingId, admin, since, view = "admin/listings/pending") {
  while (performance.now() - since < 60_000) {
    // A server stalled by a decode (the version before decision 036) answers nothing: asked again, up to 60 s.
    const answer = await call("GET", view, { token: admin, timeoutMs: 5000 }).catch(() => null);
    const row = answer?.listings?.find((l) => l.id === listingId);
    if (row && row.photo_check_pending === false) return { ms: performance.now() - since, row };
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

const mb = (n) => `${n.toFixed(0)} MB`;
ensureDevVars();
if (!process.env.BENCH_SKIP_BUILD) buildSpa();
const { src, list } = await photos();
console.log(`photo-memory: ${ROOT} (photos from ${src})`);
const rows = [];
let failed = false;

async function withServer(run) {
  const persistTo = mkdtempSync(join(tmpdir(), "campusnest-bench-photo-"));
  applyMigrations(persistTo);
  const server = spawnServer({ port, persistTo });
  try {
    await waitForHealth(base, 120_000);
    const pid = workerdPid(server.child.pid, port);
    if (!pid) throw new Error("workerd not found in the server's process group");
    return await run(pid);
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 1500));
    rmSync(persistTo, { recursive: true, force: true });
  }
}

for (const [i, photo] of list.entries()) {
  await withServer(async (pid) => {
    const student = await verifiedStudent(i);
    await call("GET", "subleases/?limit=1");
    const upload = await call("POST", "upload/multiple-base64", { token: student.token, body: { images: [{ filename: photo.file, content_type: photo.file.endsWith(".png") ? "image/png" : "image/jpeg", image_data: photo.bytes.toString("base64") }] } });
    const url = upload?.uploaded_files?.[0]?.url;
    if (!url) throw new Error(`${photo.file} was not accepted: ${JSON.stringify(upload?.failed_files ?? upload)}`);
    const before = memory(pid);
    const body = { title: "Bright room near campus", description: "A bright room, five minutes from campus.", unit_type: "2x2", monthly_rent: 850, address: "12 Oak St, Gainesville, FL", lease_term: "spring", university_id: 3, parking: "false", allow_pets: "false", gender_preference: "no_preference", pictures: [url] };
    const created = await call("POST", "subleases/", { token: student.token, body });
    const t = performance.now();
    const done = await comparedAfter(created.id, student.admin, t);
    const after = memory(pid);
    rows.push({ photo, before, after, compared: done });
    console.log(`photo-memory: ${photo.name} done (${done ? `${done.ms.toFixed(0)} ms` : "not compared"}, RSS before ${mb(before.rss)}, peak ${mb(after.hwm)})`);
    if (!done) failed = true;
  });
}

// The demo seed: its photos checked like any upload (each stored file decoded once).
if (CASES.includes("typical")) {
  await withServer(async (pid) => {
    const before = memory(pid);
    const t = performance.now();
    const seeded = await seedDemoData(base);
    const admin = (await call("POST", "admin/login", { body: { password: ADMIN_PASSWORD } }))?.token;
    if (!admin) console.log(`photo-memory: staff could not sign in after the seed: ${unexpected.slice(-3).join("; ")}`);
    let ms = null;
    while (admin && performance.now() - t < 120_000) {
      const { listings } = await call("GET", "admin/listings", { token: admin });
      if (listings.length && listings.every((l) => l.photo_check_pending === false)) {
        ms = performance.now() - t;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`\n== The demo seed (${seeded.listings} listings, ${seeded.photos} stored photos): ${ms === null ? "not every listing compared within 120 s" : `every listing compared ${(ms / 1000).toFixed(1)} s after the seed call`}; workerd RSS ${mb(before.rss)} -> peak ${mb(memory(pid).hwm)}`);
  });
}

console.log(`\n== Photo check: workerd (runtime) memory and upload-to-compared time, a fresh server per photo`);
for (const r of rows) {
  console.log(
    `  ${r.photo.name.padEnd(8)} ${r.photo.pixels.padEnd(22)} ${(r.photo.bytes.length / MB).toFixed(1).padStart(5)} MB file: RSS before ${mb(r.before.rss)}, peak after ${mb(r.after.hwm)} (+${(r.after.hwm - r.before.rss).toFixed(0)} MB), ` +
      (r.compared ? `compared ${r.compared.ms.toFixed(0)} ms after the create's answer${r.compared.row.photos_not_compared?.length ? " (not compared: " + r.compared.row.photos_not_compared.length + ")" : ""}` : "NOT compared within 60 s"),
  );
}
if (unexpected.length) {
  console.log(`  UNEXPECTED ANSWERS (${unexpected.length}): ${[...new Set(unexpected)].slice(0, 5).join("; ")}`);
  failed = true;
}
process.exit(failed ? 1 : 0);

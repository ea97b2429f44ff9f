#!/usr/bin/env node
/**
 * The signed agreement PDF inside workerd (docs/decisions/026): its size and the time to make it.
 * Bundles test/bench/deal-pdf-worker.ts (the product's pdf.ts and template) with esbuild, runs it in
 * workerd through Miniflare with the real fonts behind ASSETS, warms it up, then makes it N times one
 * after another. Reports the PDF's bytes, the median time measured inside the worker
 * (performance.now(); workerd's clock may only move on I/O, so it can read low), and the median
 * request time minus a no-op request's (the CPU the request costs, loopback only).
 * Run: `node test/bench/deal-pdf.mjs` (BENCH_PDF_RUNS=N, default 20). Not part of `npm test`.
 */
import { readFileSync } from "node:fs";
import { build } from "esbuild";
import { Miniflare } from "miniflare";

const RUNS = Number(process.env.BENCH_PDF_RUNS ?? 20);
const root = new URL("../../", import.meta.url);
// The fonts the worker reads from its static assets, by path (regular and bold).
const fonts = { "/fonts/DejaVuSans.ttf": readFileSync(new URL("web/public/fonts/DejaVuSans.ttf", root)), "/fonts/DejaVuSans-Bold.ttf": readFileSync(new URL("web/public/fonts/DejaVuSans-Bold.ttf", root)) };

const bundle = await build({
  entryPoints: [new URL("test/bench/deal-pdf-worker.ts", root).pathname],
  bundle: true,
  format: "esm",
  platform: "neutral",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["module", "main"],
  write: false,
  logLevel: "warning",
});
const script = bundle.outputFiles[0].text;

const mf = new Miniflare({
  modules: true,
  script,
  compatibilityDate: "2026-04-01",
  compatibilityFlags: ["nodejs_compat"],
  serviceBindings: { ASSETS: (req) => { const font = fonts[new URL(req.url).pathname]; return font ? new Response(font, { headers: { "content-type": "font/ttf" } }) : new Response("not found", { status: 404 }); } },
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(path) {
  const t = performance.now();
  const res = await mf.dispatchFetch(`http://bench${path}`);
  const body = path === "/noop" ? await res.text() : await res.json();
  return { ms: performance.now() - t, body };
}

try {
  for (let i = 0; i < 3; i++) await timed("/pdf"); // warm: font loaded, code compiled
  const noop = [];
  const pdf = [];
  for (let i = 0; i < RUNS; i++) {
    noop.push((await timed("/noop")).ms);
    pdf.push(await timed("/pdf"));
  }
  const bytes = pdf[0].body.bytes;
  const inside = median(pdf.map((p) => p.body.inside_ms));
  const request = median(pdf.map((p) => p.ms)) - median(noop);
  console.log(`Signed agreement PDF in workerd (${RUNS} runs, bundle ${(script.length / 1024).toFixed(0)} KB of JS):`);
  console.log(`  size                      ${bytes} bytes (${(bytes / 1024).toFixed(1)} KB; DejaVu Sans subset embedded)`);
  console.log(`  time inside the worker    median ${inside.toFixed(1)} ms`);
  console.log(`  request minus a no-op     median ${request.toFixed(1)} ms`);
} finally {
  await mf.dispose();
}

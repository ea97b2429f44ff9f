#!/usr/bin/env node
/**
 * Scam shield figures: precision and recall of worker/services/scam-shield.ts on the labelled corpus
 * (test/fixtures/scam-corpus.json). The TS module is bundled with esbuild to a temporary .mjs and
 * imported, so this runs in well under a second. Run alone (`node test/bench/scam-shield.mjs`) or from
 * run.mjs. Budget: both figures at least 0.9.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SCAM_SHIELD_BUDGET = 0.9;

/**
 * { n, precision, recall, messagePrecision, messageRecall, misses } over the corpus, and over the held-out
 * corpus (test/fixtures/scam-corpus-holdout.json: written by someone who had not seen the rules, and never
 * used to tune them, so it says how the rules do on phrasings they were not written for).
 */
export async function scamShieldFigures() {
  const dir = mkdtempSync(join(tmpdir(), "campusnest-scam-shield-"));
  try {
    const outfile = join(dir, "scam-shield.mjs");
    await build({ entryPoints: [join(ROOT, "worker/services/scam-shield.ts")], bundle: true, format: "esm", platform: "neutral", outfile, logLevel: "warning" });
    const { scoreCorpus } = await import(pathToFileURL(outfile).href);
    const { cases } = JSON.parse(readFileSync(join(ROOT, "test/fixtures/scam-corpus.json"), "utf8"));
    const heldOut = JSON.parse(readFileSync(join(ROOT, "test/fixtures/scam-corpus-holdout.json"), "utf8"));
    return { ...scoreCorpus(cases), heldOut: scoreCorpus(heldOut) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the line `npm run bench` shows; false when a figure is under the budget. */
export async function reportScamShield() {
  const s = await scamShieldFigures();
  console.log("\n== Scam shield (test/fixtures/scam-corpus.json)");
  console.log(`scam shield: precision ${s.precision.toFixed(2)} recall ${s.recall.toFixed(2)} (n=${s.n})`);
  console.log(`  messages flagged: precision ${s.messagePrecision.toFixed(2)} recall ${s.messageRecall.toFixed(2)}`);
  for (const m of s.misses) console.log(`  miss: ${JSON.stringify(m.text)} expected [${m.expected.join(", ")}] got [${m.got.join(", ")}]`);
  const h = s.heldOut;
  console.log(`held-out corpus (not used to tune the rules; reported, not a budget): precision ${h.precision.toFixed(2)} recall ${h.recall.toFixed(2)} (n=${h.n})`);
  console.log(`  messages flagged: precision ${h.messagePrecision.toFixed(2)} recall ${h.messageRecall.toFixed(2)}; ${h.misses.length} messages with a wrong reason set`);
  const ok = s.precision >= SCAM_SHIELD_BUDGET && s.recall >= SCAM_SHIELD_BUDGET;
  if (!ok) console.log(`  BUDGET BROKEN: both must be at least ${SCAM_SHIELD_BUDGET}`);
  return ok;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (!(await reportScamShield())) process.exitCode = 1;
}

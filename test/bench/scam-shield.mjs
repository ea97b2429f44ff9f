#!/usr/bin/env node
/**
 * Scam shield figures: precision and recall of worker/services/scam-shield.ts (rules, then the scored
 * model of scam-model.ts, scored by test/bench/scam-scoring.ts) on the tuning corpora (test/fixtures/scam-corpus.json by reason,
 * scam-corpus-tuning.json by kind) and, reported, on the two held-out corpora never used to tune or train
 * it (scam-corpus-holdout.json, scam-corpus-blind.json); the model's size, cost per message and whether
 * it is up to date with the tuning corpora. The TS modules are bundled with esbuild to a temporary .mjs
 * and imported. Run alone (`node test/bench/scam-shield.mjs`) or from run.mjs. Budget: both tuning
 * figures at least 0.9, and the committed model up to date.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { trainScamModel } from "../../scripts/train-scam-model.mjs";

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
    // The shield with the scoring (test/bench/scam-scoring.ts, kept out of the worker's bundle).
    await build({
      stdin: { contents: 'export * from "./worker/services/scam-shield.ts"; export * from "./test/bench/scam-scoring.ts";', resolveDir: ROOT, loader: "ts" },
      bundle: true,
      format: "esm",
      platform: "neutral",
      outfile,
      logLevel: "warning",
    });
    const { scoreCorpus, scoreKinds, scoreReal, realPart, ruleReasons, shieldWords } = await import(pathToFileURL(outfile).href);
    const modelOut = join(dir, "scam-model.mjs");
    await build({ entryPoints: [join(ROOT, "worker/services/scam-model.ts")], bundle: true, format: "esm", platform: "neutral", outfile: modelOut, logLevel: "warning" });
    const { scoreWords } = await import(pathToFileURL(modelOut).href);
    const read = (name) => JSON.parse(readFileSync(join(ROOT, "test/fixtures", name), "utf8"));
    const heldOut = read("scam-corpus-holdout.json");
    const blind = read("scam-corpus-blind.json");
    // The model alone: its file, and its cost per message (the blind corpus, read once to warm up).
    const modelFile = readFileSync(join(ROOT, "worker/services/scam-model.json"));
    const words = blind.map((c) => shieldWords(c.text));
    for (const w of words) scoreWords(w);
    const start = performance.now();
    for (let round = 0; round < 10; round++) for (const w of words) scoreWords(w);
    const model = {
      kb: modelFile.length / 1024,
      gzipKb: gzipSync(modelFile).length / 1024,
      features: Object.keys(JSON.parse(modelFile.toString()).weights).length,
      microsPerMessage: ((performance.now() - start) * 1000) / (10 * words.length),
      fresh: `${JSON.stringify(await trainScamModel())}\n` === modelFile.toString(),
    };
    // Real messages quoted from public sources (decision 015): scored when the files are there.
    const realFile = (part) => join(ROOT, "test/fixtures", `scam-corpus-real-${part}.json`);
    const real = Object.fromEntries(["tuning", "holdout"].filter((part) => existsSync(realFile(part))).map((part) => [part, scoreReal(JSON.parse(readFileSync(realFile(part), "utf8")).cases)]));
    // Real SMS (the UCI SMS Spam Collection, CC BY 4.0, not kept in the repo): SCAM_SMS_CORPUS=<its file>.
    const sms = process.env.SCAM_SMS_CORPUS ? smsFigures(process.env.SCAM_SMS_CORPUS, scoreReal, realPart) : null;
    return {
      real,
      sms,
      ...scoreCorpus(read("scam-corpus.json").cases),
      tuning: scoreKinds(read("scam-corpus-tuning.json").cases),
      heldOut: scoreCorpus(heldOut),
      blind: scoreKinds(blind),
      blindRulesOnly: scoreKinds(blind, undefined, ruleReasons),
      model,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The SMS Spam Collection's lines ("ham<TAB>text" / "spam<TAB>text"), in the same two parts as a real
 * corpus: the false-flag rate on its honest texts, and how many of its spam texts are flagged (spam is
 * not rental fraud and has no red flag recorded, so that figure is read, not a goal).
 */
function smsFigures(file, scoreReal, realPart) {
  const rows = readFileSync(file, "utf8").split("\n").map((line) => line.split("\t")).filter(([label, text]) => (label === "ham" || label === "spam") && text);
  const part = (name) => {
    const cases = rows.filter(([, text]) => realPart(text) === name).map(([label, text]) => ({ text, scam: label === "spam", red_flag: null, source: {} }));
    const s = scoreReal(cases);
    return { honest: s.honest, falseFlags: s.falseFlags.length, falseFlagRate: s.falseFlagRate, spam: s.openers, spamFlagged: s.openersFlagged };
  };
  return { tuning: part("tuning"), holdout: part("holdout") };
}

/** Real-message goals (docs/decisions/015), on the held-out part: false flags on honest messages, recall on scams with a red flag. */
export const REAL_FALSE_FLAG_MAX = 0.02;
export const REAL_RED_FLAG_RECALL = 0.9;
function printReal(real, sms) {
  for (const [part, r] of Object.entries(real)) {
    const goal = part === "holdout" ? ` (goal: <= ${REAL_FALSE_FLAG_MAX} and >= ${REAL_RED_FLAG_RECALL}: ${r.falseFlagRate <= REAL_FALSE_FLAG_MAX && r.redFlagRecall >= REAL_RED_FLAG_RECALL ? "met" : "MISSED"})` : "";
    console.log(`real messages, ${part} (test/fixtures/scam-corpus-real-${part}.json): false flags ${(r.falseFlagRate * 100).toFixed(1)} % of ${r.honest} honest; recall ${r.redFlagRecall.toFixed(2)} on ${r.redFlagScams} scams with a red flag; openers flagged ${r.openersFlagged}/${r.openers}${goal}`);
    if (part === "tuning") for (const f of r.falseFlags) console.log(`  false flag: ${JSON.stringify(f.text.slice(0, 120))} [${f.got.join(", ")}]`);
  }
  if (Object.keys(real).length === 0) console.log("real messages (test/fixtures/scam-corpus-real-*.json): none in the repo (docs/decisions/015 says why)");
  if (sms) {
    for (const [part, p] of Object.entries(sms)) {
      console.log(`real SMS, ${part} half (SMS Spam Collection): false flags ${(p.falseFlagRate * 100).toFixed(1)} % (${p.falseFlags} of ${p.honest} honest texts); spam flagged ${p.spamFlagged}/${p.spam} (not rental fraud: read, not a goal)`);
    }
  }
}

/** The goal (docs/decisions/015) on a corpus labelled by kind: message precision and recall, and no honest kind above 1 in 10. */
export const HONEST_KIND_MAX = 0.1;
function printKinds(title, k) {
  console.log(`${title}: messages flagged: precision ${k.precision.toFixed(2)} recall ${k.recall.toFixed(2)} (n=${k.n}, ${k.microsPerMessage.toFixed(0)} us per message)`);
  for (const [kind, v] of Object.entries(k.byKind).sort(([a], [b]) => a.localeCompare(b))) {
    const mark = v.scam ? "caught" : `flagged by mistake${v.flagged / v.n > HONEST_KIND_MAX ? " (ABOVE 1 IN 10)" : ""}`;
    console.log(`  ${kind.padEnd(26)} ${v.flagged}/${v.n} ${mark}`);
  }
  return k.precision >= SCAM_SHIELD_BUDGET && k.recall >= SCAM_SHIELD_BUDGET && Object.values(k.byKind).every((v) => v.scam || v.flagged / v.n <= HONEST_KIND_MAX);
}

/** Prints the lines `npm run bench` shows; false when a tuning figure is under the budget. */
export async function reportScamShield() {
  const s = await scamShieldFigures();
  console.log("\n== Scam shield (rules with context windows, then a scored model for what they leave clean: worker/services/scam-shield.ts, scam-model.ts; runs in the worker, nothing to download)");
  const m = s.model;
  console.log(`model: scam-model.json ${m.kb.toFixed(0)} KB (${m.gzipKb.toFixed(0)} KB gzip), ${m.features} features, ${m.microsPerMessage.toFixed(0)} us per message; ${m.fresh ? "up to date with the tuning corpora" : "OUT OF DATE: run node scripts/train-scam-model.mjs"}`);
  console.log(`tuning corpus (test/fixtures/scam-corpus.json): precision ${s.precision.toFixed(2)} recall ${s.recall.toFixed(2)} (n=${s.n})`);
  console.log(`  messages flagged: precision ${s.messagePrecision.toFixed(2)} recall ${s.messageRecall.toFixed(2)}`);
  for (const m of s.misses) console.log(`  miss: ${JSON.stringify(m.text)} expected [${m.expected.join(", ")}] got [${m.got.join(", ")}]`);
  const tuningOk = printKinds("tuning corpus by kind (test/fixtures/scam-corpus-tuning.json)", s.tuning);
  const h = s.heldOut;
  console.log(`held-out corpus (test/fixtures/scam-corpus-holdout.json, never used to tune): precision ${h.precision.toFixed(2)} recall ${h.recall.toFixed(2)} (n=${h.n})`);
  console.log(`  messages flagged: precision ${h.messagePrecision.toFixed(2)} recall ${h.messageRecall.toFixed(2)}; ${h.misses.length} messages with a wrong reason set`);
  const r = s.blindRulesOnly;
  console.log(`blind held-out corpus, rules alone (without the model): precision ${r.precision.toFixed(2)} recall ${r.recall.toFixed(2)}`);
  const blindOk = printKinds("blind held-out corpus (test/fixtures/scam-corpus-blind.json: written without seeing the rules, never used to tune; goal, not a budget)", s.blind);
  console.log(`  goal, docs/decisions/015 (>= ${SCAM_SHIELD_BUDGET} both, no honest kind above 1 in 10): ${blindOk ? "met" : "MISSED"}`);
  printReal(s.real, s.sms);
  const ok = s.precision >= SCAM_SHIELD_BUDGET && s.recall >= SCAM_SHIELD_BUDGET && tuningOk && m.fresh;
  if (!ok) console.log(`  BUDGET BROKEN: the tuning corpora must reach ${SCAM_SHIELD_BUDGET} with no honest kind above 1 in 10`);
  return ok;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (!(await reportScamShield())) process.exitCode = 1;
}

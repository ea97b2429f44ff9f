#!/usr/bin/env node
/**
 * Staff decisions become data (docs/decisions/015): exports every message staff or its recipient have
 * judged as a labelled, de-identified example for the scam shield's model. A script, never a live retrain:
 * a person reads the file, then `node scripts/train-scam-model.mjs --add <file>` merges it into the staff
 * corpus and retrains (decision 033).
 *
 * Labels, strongest first:
 *  - scam, `staff_suspended`: a flagged message whose sender staff suspended;
 *  - honest, `staff_reviewed`: a flagged message sent before staff reviewed its conversation in the
 *    Safety queue and left the sender alone;
 *  - honest, `recipient_fine`: a message whose recipient said "This is fine" (weaker: a scammer's target
 *    can be talked into it, so staff's verdict wins when there is one).
 * Flagged messages nobody has judged yet are left out.
 *
 * De-identified: the two participants' names, emails and phone numbers, any email address, phone
 * number or street address become placeholders of the same shape ("Alex", name@example.com,
 * (555) 555-0100, 123 Main St), so the shield still reads a contact as a contact; no ids, only the month.
 *
 *   node scripts/export-safety-labels.mjs [--local] [--persist-to <dir>] [--out <file>]
 *   node scripts/export-safety-labels.mjs --sqlite <file.sqlite> [--out <file>]
 * --local (the default) reads the local D1 under .wrangler/state through `wrangler d1 execute`;
 * --sqlite reads a copy of the database with the sqlite3 command-line tool. Prints JSON
 * ({ cases: [...] }, the shape of test/fixtures/scam-corpus-tuning.json plus the label's source).
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Every message with a flag or a "This is fine", with what staff and the recipient decided. */
export const LABEL_SQL = `SELECT m.text, m.safety_flags, m.created_at, c.safety_reviewed_at,
  s.first_name AS s_first, s.last_name AS s_last, s.email AS s_email, s.phone AS s_phone, s.suspended_at AS s_suspended_at,
  r.first_name AS r_first, r.last_name AS r_last, r.email AS r_email, r.phone AS r_phone,
  (SELECT group_concat(f.kind) FROM safety_feedback f WHERE f.message_id = m.id) AS fine_kinds
FROM messages m JOIN conversations c ON c.id = m.conversation_id
LEFT JOIN users s ON s.id = m.sender_id
LEFT JOIN users r ON r.id = CASE WHEN c.user_a = m.sender_id THEN c.user_b ELSE c.user_a END
WHERE m.safety_flags IS NOT NULL OR EXISTS (SELECT 1 FROM safety_feedback f WHERE f.message_id = m.id)
ORDER BY m.created_at, m.id`;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const PHONE = /(?<![\d$])(?:\+?1[\s.-]*)?\(?\d{3}\)?[\s.-]*\d{3}[\s.-]*\d{4}(?!\d)/g;
const ADDRESS = /\b\d{1,5}\s+(?:[NSEW]\.?\s+)?(?:[A-Za-z]+\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|Ct|Court|Way|Pl|Place|Pkwy|Parkway|Ter|Terrace)\b\.?/gi;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The text with the participants' identities and any contact or street address replaced. */
export function deidentify(text, people = []) {
  let out = text.replace(EMAIL, "name@example.com").replace(PHONE, "(555) 555-0100").replace(ADDRESS, "123 Main St");
  for (const p of people) {
    for (const value of [p.phone && p.phone.replace(/\D/g, "").length >= 7 ? p.phone : null, p.first, p.last]) {
      if (value && value.trim().length > 1) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(value.trim())}(?![\\p{L}\\p{N}])`, "giu"), p.first === value ? "Alex" : p.last === value ? "Doe" : "(555) 555-0100");
    }
  }
  return out;
}

const parseFlags = (json) => {
  try {
    const parsed = JSON.parse(json ?? "null");
    return Array.isArray(parsed) ? parsed.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
};

/** The labelled examples from the rows of LABEL_SQL (pure: the test feeds it rows). */
export function labelRows(rows) {
  const cases = [];
  for (const row of rows) {
    const flags = parseFlags(row.safety_flags);
    const reasons = flags.filter((f) => f !== "scored");
    const fine = row.fine_kinds ? String(row.fine_kinds).split(",").sort() : [];
    let label = null;
    if (reasons.length > 0 && row.s_suspended_at) label = { scam: true, source: "staff_suspended" };
    else if (reasons.length > 0 && row.safety_reviewed_at && row.safety_reviewed_at >= row.created_at) label = { scam: false, source: "staff_reviewed" };
    else if (fine.length > 0) label = { scam: false, source: "recipient_fine" };
    if (!label) continue;
    const people = [
      { first: row.s_first, last: row.s_last, phone: row.s_phone },
      { first: row.r_first, last: row.r_last, phone: row.r_phone },
    ];
    cases.push({
      text: deidentify(row.text, people),
      scam: label.scam,
      kind: label.scam ? "staff_verdict_scam" : label.source === "staff_reviewed" ? "staff_verdict_honest" : "recipient_fine",
      source: label.source,
      reasons,
      scored: flags.includes("scored"),
      fine_kinds: fine,
      month: String(row.created_at ?? "").slice(0, 7),
    });
  }
  return cases;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** Rows of LABEL_SQL from the local D1 (wrangler) or from a SQLite file (sqlite3). */
export function readRows({ sqlite, persistTo } = {}) {
  if (sqlite) {
    const res = spawnSync("sqlite3", ["-json", "-readonly", sqlite, LABEL_SQL], { encoding: "utf8", maxBuffer: 1 << 28 });
    if (res.error) fail(`Could not run sqlite3 (${res.error.message}); install it, or read the local D1 with --local.`);
    if (res.status !== 0) fail(`sqlite3 failed on ${sqlite}: ${res.stderr.trim()}`);
    return res.stdout.trim() ? JSON.parse(res.stdout) : [];
  }
  const args = ["d1", "execute", "DB", "--local", "--json", "--command", LABEL_SQL.replace(/\s+/g, " ")];
  if (persistTo) args.push("--persist-to", persistTo);
  const res = spawnSync(join(ROOT, "node_modules/.bin/wrangler"), args, {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "true" },
  });
  if (res.status !== 0) fail(`wrangler d1 execute failed: ${(res.stderr || res.stdout).trim()}`);
  const parsed = JSON.parse(res.stdout);
  return parsed.flatMap((r) => r.results ?? []);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const argv = process.argv.slice(2);
  const value = (name) => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    if (!argv[i + 1]) fail(`${name} needs a value`);
    return argv[i + 1];
  };
  const cases = labelRows(readRows({ sqlite: value("--sqlite"), persistTo: value("--persist-to") }));
  const text = `${JSON.stringify({ exported: "labelled by staff and recipients; see docs/decisions/015", cases }, null, 2)}\n`;
  const out = value("--out");
  if (out) {
    writeFileSync(out, text);
    console.error(`wrote ${cases.length} examples to ${out}`);
  } else process.stdout.write(text);
}

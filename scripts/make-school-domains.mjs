/**
 * Builds worker/services/school-domains.json: the email domains that earn the school email badge
 * (docs/decisions/028, 032). Two public sources, both read from files given on the command line (the
 * worker never fetches them; the list is bundled at build time):
 *   - Hipo's university-domains-list (MIT; https://github.com/Hipo/university-domains-list): names and
 *     email domains, US entries only. It is community-maintained and also lists a county government, a
 *     school district, companies and schools long closed.
 *   - IPEDS' institutional directory (HD, U.S. Department of Education, NCES; public domain): every US
 *     postsecondary institution with its web address (WEBADDR), whether it grants degrees (DEGGRANT),
 *     is open (CYACTIVE, CLOSEDAT, ACT) and takes part in federal student aid (OPEFLAG).
 * The rule: a Hipo domain counts when it belongs to an IPEDS institution that grants degrees (DEGGRANT 1),
 * is open (CYACTIVE 1, CLOSEDAT -2, ACT A, N or R) and is accredited: in Title IV (OPEFLAG 1 or 2, which
 * needs accreditation by an agency the Department recognises) or on a .edu web domain (EDUCAUSE gives .edu
 * only to institutions so accredited). It belongs to one when the institution's web host (without www) is
 * the domain, a subdomain of it, or its parent; or, for a .edu domain, when Hipo's name is the
 * institution's name or one of its aliases (a school whose email and web domains differ). Each kept domain
 * is matched by name to our universities (migrations/0001) where one is, as before.
 *   node scripts/make-school-domains.mjs <world_universities_and_domains.json> <hipo commit> <hdYYYY.csv> <IPEDS year>
 */
import { readFileSync, writeFileSync } from "node:fs";

const [hipoFile, hipoCommit = "unknown", ipedsFile, ipedsYear = "unknown"] = process.argv.slice(2);
if (!hipoFile || !ipedsFile) {
  throw new Error("usage: node scripts/make-school-domains.mjs <world_universities_and_domains.json> <hipo commit> <hdYYYY.csv> <IPEDS year>");
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF): rows of fields. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") endField();
    else if (ch === "\n") {
      endField();
      rows.push(row);
      row = [];
    } else if (ch !== "\r") field += ch;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

const name = (text) =>
  text
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/\bsaint\b/g, "st")
    .replace(/[^a-z0-9]+/g, " ")
    .replace(/\bthe\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
const hostOf = (url) => /^(?:https?:\/\/)?([^/:?#\s]+)/i.exec(url.trim())?.[1]?.toLowerCase().replace(/^www\d*\./, "").replace(/\.$/, "") ?? null;

const [header, ...lines] = parseCsv(readFileSync(ipedsFile, "utf8").replace(/^\uFEFF/, ""));
const institutions = lines.filter((r) => r.length === header.length).map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), r[i].trim()])));
const accredited = (r) => r.OPEFLAG === "1" || r.OPEFLAG === "2" || (hostOf(r.WEBADDR) ?? "").endsWith(".edu");
const counts = (r) => r.DEGGRANT === "1" && r.CYACTIVE === "1" && r.CLOSEDAT === "-2" && ["A", "N", "R"].includes(r.ACT) && accredited(r);
const schools = institutions.filter(counts);
const schoolHosts = new Set(schools.map((r) => hostOf(r.WEBADDR)).filter((h) => h && h.includes(".")));
const schoolNames = new Set(schools.flatMap((r) => [r.INSTNM, ...r.IALIAS.split("|")].map(name).filter(Boolean)));

/** Whether the domain is a counted institution's web host, one of its subdomains, or its parent. */
function isSchoolDomain(domain) {
  const labels = domain.split(".");
  for (let i = 0; i < labels.length - 1; i++) if (schoolHosts.has(labels.slice(i).join("."))) return true;
  for (const host of schoolHosts) if (host.endsWith(`.${domain}`)) return true;
  return false;
}

const world = JSON.parse(readFileSync(hipoFile, "utf8"));
const ours = [...readFileSync(new URL("../migrations/0001_universities.sql", import.meta.url), "utf8").matchAll(/^\((\d+), '((?:[^']|'')*)'/gm)].map(
  (m) => ({ id: Number(m[1]), name: m[2].replace(/''/g, "'") }),
);
const key = (text) =>
  text
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, " ")
    .replace(/\bthe\b/g, "")
    .replace(/\s+/g, " ")
    .trim();
const byName = new Map(ours.map((u) => [key(u.name), u.id]));
const domains = {};
const dropped = [];
for (const u of world) {
  if (u.alpha_two_code !== "US") continue;
  const id = byName.get(key(u.name)) ?? 0;
  for (const d of u.domains) {
    const domain = d.toLowerCase().trim();
    if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain)) continue;
    if (!isSchoolDomain(domain) && !(domain.endsWith(".edu") && schoolNames.has(name(u.name)))) {
      dropped.push(`${domain} (${u.name})`);
      continue;
    }
    // A domain listed twice keeps the match to our university, if either has one.
    domains[domain] = Math.max(domains[domain] ?? 0, id);
  }
}
const sorted = Object.fromEntries(Object.entries(domains).sort(([a], [b]) => a.localeCompare(b)));
const matched = new Set(Object.values(sorted).filter(Boolean));
writeFileSync(
  new URL("../worker/services/school-domains.json", import.meta.url),
  JSON.stringify({
    source: "https://github.com/Hipo/university-domains-list",
    license: "MIT (worker/services/school-domains.LICENSE.txt)",
    commit: hipoCommit,
    filter: `IPEDS HD${ipedsYear} (U.S. Department of Education, NCES; public domain): degree-granting, open, accredited (Title IV or .edu); docs/decisions/032`,
    note: "US entries only; value: our universities.id matched by name, 0 when none",
    domains: sorted,
  }) + "\n",
);
console.log(`${Object.keys(sorted).length} domains kept, ${dropped.length} dropped; ${matched.size} of our ${ours.length} universities matched`);
console.log(`dropped: ${dropped.join(", ")}`);

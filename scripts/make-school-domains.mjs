/**
 * Builds worker/services/school-domains.json (the domains that earn the school email badge,
 * docs/decisions/028) from Hipo's university-domains-list (MIT; https://github.com/Hipo/university-domains-list):
 * US entries only, each domain matched by name to our universities (migrations/0001) where one is.
 * Run by hand when refreshing the list; the worker never fetches it (bundled at build time).
 *   node scripts/make-school-domains.mjs <world_universities_and_domains.json> <source commit>
 */
import { readFileSync, writeFileSync } from "node:fs";

const [input, commit = "unknown"] = process.argv.slice(2);
if (!input) throw new Error("usage: node scripts/make-school-domains.mjs <world_universities_and_domains.json> <commit>");
const world = JSON.parse(readFileSync(input, "utf8"));
const ours = [...readFileSync(new URL("../migrations/0001_universities.sql", import.meta.url), "utf8").matchAll(/^\((\d+), '((?:[^']|'')*)'/gm)].map(
  (m) => ({ id: Number(m[1]), name: m[2].replace(/''/g, "'") }),
);
const key = (name) =>
  name
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, " ")
    .replace(/\bthe\b/g, "")
    .replace(/\s+/g, " ")
    .trim();
const byName = new Map(ours.map((u) => [key(u.name), u.id]));
const domains = {};
for (const u of world) {
  if (u.alpha_two_code !== "US") continue;
  const id = byName.get(key(u.name)) ?? 0;
  for (const d of u.domains) {
    const domain = d.toLowerCase().trim();
    if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain)) continue;
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
    commit,
    note: "US entries only; value: our universities.id matched by name, 0 when none",
    domains: sorted,
  }) + "\n",
);
console.log(`${Object.keys(sorted).length} domains; ${matched.size} of our ${ours.length} universities matched`);

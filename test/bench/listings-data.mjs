/**
 * 50,000 approved listings for the browse benchmark, written as SQL for
 * `wrangler d1 execute --local --file` (multi-row INSERTs; D1 statements stay small).
 */
import { writeFileSync } from "node:fs";

const TERMS = ["fall", "spring", "summer"];
const UNITS = ["studio", "1x1", "2x1", "2x2", "3x2", "4x4"];
const GENDERS = ["no_preference", "no_preference", "male_preferred", "female_preferred"];
/** The form's term presets (contract TERM_DATES), `MM-DD`. */
const TERM_DATES = { fall: ["08-20", "12-20"], spring: ["01-05", "05-15"], summer: ["05-15", "08-15"] };
const DAY_MS = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * A listing's exact dates (docs/decisions/021) from its term: the term's next typical dates after it was
 * listed; most keep the preset, some move either end by up to 10 days; one in seven has none (listed
 * before dates existed). `rand` is the generator's own, so the data stays reproducible.
 */
export function benchDates(term, createdMs, rand) {
  if (rand() < 1 / 7) return [null, null];
  const [from, to] = TERM_DATES[term];
  const year = new Date(createdMs).getUTCFullYear();
  const start = `${year}-${from}` >= isoDay(createdMs) ? year : year + 1;
  const shift = () => (rand() < 0.7 ? 0 : Math.round((rand() - 0.5) * 20)) * DAY_MS;
  return [isoDay(Date.parse(`${start}-${from}T00:00:00Z`) + shift()), isoDay(Date.parse(`${start}-${to}T00:00:00Z`) + shift())];
}

/**
 * Miles to the listing's campus (docs/decisions/019): most within 5 miles, a tail out to 15, one in six
 * unknown (no coordinates: an address typed without picking a suggestion).
 */
export function benchDistance(rand) {
  if (rand() < 1 / 6) return null;
  return Math.round(15 * rand() ** 2 * 10 + 1) / 10;
}

export function writeBenchListings(file, count = 50_000, universityIds = []) {
  // mulberry32, seeded: reproducible and well mixed. The LCG used before (mod 2^31) correlated
  // consecutive draws: a listing's distance followed its end date's shift, so sorted by distance
  // whole stretches of a stay's edge cell ended too early (0.00 / 0.97 / 0.03 / 0.97 by distance
  // fifth), which real listings do not do.
  let seed = 7;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const lines = [
    "INSERT INTO users (id, email, first_name, last_name, email_verification_status, id_verification_status) VALUES ('benchuser000000000001', 'bench@campusnest.dev', 'Bench', 'Lister', 'verified', 'verified');",
  ];
  const start = Date.UTC(2025, 0, 1);
  // 250 rows per INSERT: a statement must stay under D1's 100 KB limit (the dates made 500 rows too long).
  // Each row has its public address as a save stores it (decision 024), as the cron's backfill leaves old rows.
  for (let i = 0; i < count; i += 250) {
    const rows = [];
    for (let j = i; j < Math.min(count, i + 250); j++) {
      const uni = rand() < 0.5 && universityIds.length ? pick(universityIds) : 1 + Math.floor(rand() * 198);
      const created = new Date(start + j * 600_000).toISOString();
      const term = pick(TERMS);
      const [from, to] = benchDates(term, start + j * 600_000, rand).map((d) => (d ? `'${d}'` : "NULL"));
      const distance = benchDistance(rand) ?? "NULL";
      rows.push(
        `('bench${String(j).padStart(16, "0")}','benchuser000000000001',${uni},'Bench room ${j}','A bench listing','${pick(UNITS)}','${j} Bench St','Bench St',${400 + Math.floor(rand() * 1600)},'${term}',${rand() < 0.4 ? 1 : 0},${rand() < 0.3 ? 1 : 0},'${pick(GENDERS)}','approved','available','${created}',${from},${to},${distance})`,
      );
    }
    lines.push(
      `INSERT INTO listings (id,user_id,university_id,title,description,unit_type,address,address_public,monthly_rent,lease_term,parking,allow_pets,gender_preference,verification_status,status,created_at,available_from,available_to,distance_miles) VALUES ${rows.join(",")};`,
    );
  }
  writeFileSync(file, lines.join("\n"));
}

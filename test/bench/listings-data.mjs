/**
 * 50,000 approved listings for the browse benchmark, written as SQL for
 * `wrangler d1 execute --local --file` (multi-row INSERTs; D1 statements stay small).
 */
import { writeFileSync } from "node:fs";

const TERMS = ["fall", "spring", "summer"];
const UNITS = ["studio", "1x1", "2x1", "2x2", "3x2", "4x4"];
const GENDERS = ["no_preference", "no_preference", "male_preferred", "female_preferred"];

export function writeBenchListings(file, count = 50_000, universityIds = []) {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const lines = [
    "INSERT INTO users (id, email, first_name, last_name, email_verification_status, id_verification_status) VALUES ('benchuser000000000001', 'bench@campusnest.dev', 'Bench', 'Lister', 'verified', 'verified');",
  ];
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < count; i += 500) {
    const rows = [];
    for (let j = i; j < Math.min(count, i + 500); j++) {
      const uni = rand() < 0.5 && universityIds.length ? pick(universityIds) : 1 + Math.floor(rand() * 198);
      const created = new Date(start + j * 600_000).toISOString();
      rows.push(
        `('bench${String(j).padStart(16, "0")}','benchuser000000000001',${uni},'Bench room ${j}','A bench listing','${pick(UNITS)}','${j} Bench St',${400 + Math.floor(rand() * 1600)},'${pick(TERMS)}',${rand() < 0.4 ? 1 : 0},${rand() < 0.3 ? 1 : 0},'${pick(GENDERS)}','approved','available','${created}')`,
      );
    }
    lines.push(
      `INSERT INTO listings (id,user_id,university_id,title,description,unit_type,address,monthly_rent,lease_term,parking,allow_pets,gender_preference,verification_status,status,created_at) VALUES ${rows.join(",")};`,
    );
  }
  writeFileSync(file, lines.join("\n"));
}

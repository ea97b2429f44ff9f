/**
 * A SQLite copy of the database built from the migrations with the sqlite3 tool, as
 * `scripts/export-safety-labels.mjs --sqlite` reads one (staff's verdicts become labelled examples).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Writes `file`: every migration in order, then `seed` (SQL). */
export function sqliteFromMigrations(file: string, seed: string): void {
  const migrations = readdirSync(join(ROOT, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => readFileSync(join(ROOT, "migrations", f), "utf8"))
    .join("\n");
  execFileSync("sqlite3", [file], { input: `${migrations}\n${seed}` });
}

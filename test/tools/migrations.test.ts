/**
 * The schema and its migrations agree (docs/decisions/031): `worker/db/schema.ts` is the single source
 * of truth, the migrations are what wrangler applies, and drizzle-kit's snapshots are how
 * `npm run db:generate` knows what changed. Two checks, in Node with Debian's sqlite3 tool:
 * - the database the migrations build and the one drizzle-kit exports from schema.ts have the same
 *   tables, columns (type, NOT NULL, default, key), indexes (unique, columns, partial condition) and
 *   foreign keys (tables only a migration makes, the full-text index, are not in schema.ts);
 * - `db:generate` on the unchanged schema makes nothing (the newest snapshot is the schema).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const DRIZZLE_KIT = join(ROOT, "node_modules", ".bin", "drizzle-kit");
const work = mkdtempSync(join(tmpdir(), "campusnest-migrations-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sqlite = (db: string, input: string) => execFileSync("sqlite3", ["-bail", db], { input, encoding: "utf8" });
const json = <T>(db: string, query: string): T[] => {
  const out = execFileSync("sqlite3", ["-json", db, query], { encoding: "utf8" }).trim();
  return out ? (JSON.parse(out) as T[]) : [];
};

function migratedDatabase(): string {
  const db = join(work, "migrated.db");
  const files = readdirSync(join(ROOT, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const file of files) sqlite(db, readFileSync(join(ROOT, "migrations", file), "utf8"));
  return db;
}

function schemaDatabase(): string {
  const db = join(work, "schema.db");
  const sql = execFileSync(DRIZZLE_KIT, ["export", "--sql", "--dialect", "sqlite", "--schema", "./worker/db/schema.ts"], { cwd: ROOT, encoding: "utf8" });
  sqlite(db, sql.replaceAll("--> statement-breakpoint", ""));
  return db;
}

const normalise = (text: string | null) => (text ?? "").replace(/[`"]/g, "").replace(/\s+/g, " ").trim().toLowerCase();

/** Everything about the tables schema.ts declares that a query could depend on, as sorted lines. */
function describeDatabase(db: string, tables: string[]): string[] {
  const inList = tables.map((t) => `'${t}'`).join(", ");
  const columns = json<{ t: string; name: string; type: string; notnull: number; dflt_value: string | null; pk: number; hidden: number }>(
    db,
    `SELECT m.name AS t, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden FROM sqlite_master m JOIN pragma_table_xinfo(m.name) p WHERE m.type = 'table' AND m.name IN (${inList})`,
  ).map((c) => `column ${c.t}.${c.name} ${c.type.toLowerCase()} notnull=${c.notnull} default=${normalise(c.dflt_value)} pk=${c.pk} hidden=${c.hidden}`);
  const indexes = json<{ t: string; name: string; uniq: number; cols: string; sql: string | null }>(
    db,
    `SELECT m.name AS t, i.name, i."unique" AS uniq,
       (SELECT group_concat(coalesce(x.name, '<expr>'), ',') FROM pragma_index_xinfo(i.name) x WHERE x.key = 1) AS cols,
       (SELECT s.sql FROM sqlite_master s WHERE s.name = i.name) AS sql
     FROM sqlite_master m JOIN pragma_index_list(m.name) i WHERE m.type = 'table' AND m.name IN (${inList})`,
  ).map((i) => {
    const where = i.sql && /\swhere\s/i.test(i.sql) ? normalise(i.sql.slice(i.sql.search(/\swhere\s/i))) : "";
    // SQLite names the index behind a UNIQUE or PRIMARY KEY constraint itself: name it by its columns.
    const name = i.name.startsWith("sqlite_autoindex_") ? `(${i.cols})` : i.name;
    return `index ${i.t}.${name} unique=${i.uniq} on (${i.cols}) ${where}`;
  });
  const foreignKeys = json<{ t: string; table: string; from: string; to: string | null; on_update: string; on_delete: string }>(
    db,
    `SELECT m.name AS t, f."table", f."from", f."to", f.on_update, f.on_delete FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table' AND m.name IN (${inList})`,
  ).map((f) => `fk ${f.t}.${f.from} -> ${f.table}.${f.to ?? "(key)"} update=${f.on_update} delete=${f.on_delete}`);
  return [...columns, ...indexes, ...foreignKeys].sort();
}

describe("the schema and the migrations", () => {
  it("describe the same database: tables, columns, indexes and foreign keys", () => {
    const fromSchema = schemaDatabase();
    const fromMigrations = migratedDatabase();
    const declared = json<{ name: string }>(fromSchema, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map((r) => r.name);
    expect(declared.length).toBeGreaterThan(30);
    const migrated = new Set(json<{ name: string }>(fromMigrations, "SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name));
    expect(declared.filter((t) => !migrated.has(t)), "tables schema.ts declares that no migration makes").toEqual([]);
    expect(describeDatabase(fromMigrations, declared)).toEqual(describeDatabase(fromSchema, declared));
  });

  it("db:generate on the unchanged schema makes no migration", () => {
    const out = join(work, "generated");
    cpSync(join(ROOT, "migrations"), out, { recursive: true });
    const before = readdirSync(out).sort();
    // drizzle-kit reads `--out` relative to where it runs.
    const run = spawnSync(DRIZZLE_KIT, ["generate", "--dialect", "sqlite", "--schema", join(ROOT, "worker/db/schema.ts"), "--out", "generated"], { cwd: work, encoding: "utf8" });
    const said = `${run.stdout}${run.stderr}`;
    expect(run.status, said).toBe(0);
    expect(readdirSync(out).sort(), said).toEqual(before);
    expect(said).toMatch(/No schema changes/);
  });
});

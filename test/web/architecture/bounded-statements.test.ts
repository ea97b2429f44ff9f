/**
 * D1 refuses a statement with more than 100 bound parameters (docs/decisions/038): eslint's
 * `house/bounded-in-lists` refuses a list the data makes long spread into a statement, in the worker's
 * code, through the project's own eslint.config.js. Each form it refuses has a failing sample here.
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();
const FILE = "worker/db/queries/example.ts";

async function boundedErrors(source: string, filePath = FILE): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "house/bounded-in-lists").map((m) => m.message);
}

const PREAMBLE = `import { inArray, notInArray, sql } from "drizzle-orm";
import { boundedMarks, inValues } from "../bounded";
declare const db: any;
declare const t: any;
`;

describe("house/bounded-in-lists", () => {
  it.each([
    ["inArray over a list", "export const f = (ids: string[]) => db.select().from(t).where(inArray(t.id, ids));"],
    ["notInArray over a list", "export const f = (ids: string[]) => db.select().from(t).where(notInArray(t.id, ids));"],
    ["inArray over a list held in a const", "export const f = (rows: { id: string }[]) => { const ids = rows.map((r) => r.id); return db.select().from(t).where(inArray(t.id, ids)); };"],
    ["placeholders built from a list", 'export const f = (ids: string[]) => db.$client.prepare(`SELECT * FROM t WHERE id IN (${ids.map(() => "?").join(",")})`).bind(...ids);'],
    ["placeholders built in a const", 'export const f = (ids: string[]) => { const marks = ids.map(() => "?").join(","); return db.$client.prepare(`SELECT * FROM t WHERE id IN (${marks})`).bind(...ids); };'],
    ["a list spread by a sql template", "export const f = (ids: string[]) => db.select().from(t).where(sql`${t.id} IN ${ids}`);"],
  ])("refuses %s", async (_, body) => {
    expect(await boundedErrors(`${PREAMBLE}${body}\n`)).toEqual([expect.stringContaining("D1 refuses more than 100 bound parameters")]);
  });

  it.each([
    ["a literal list of constants", 'export const f = () => db.select().from(t).where(inArray(t.status, ["hashed", "undecoded"]));'],
    ["a subquery", "export const f = () => { const old = db.select({ id: t.id }).from(t); return db.delete(t).where(inArray(t.id, old)); };"],
    ["a sql subquery", "export const f = (id: string) => { const later = sql`(SELECT id FROM t WHERE x = ${id})`; return db.select().from(t).where(sql`${t.id} IN ${later}`); };"],
    ["inValues (one JSON parameter)", "export const f = (ids: string[]) => db.select().from(t).where(inValues(t.id, ids));"],
    ["json_each in raw SQL", "export const f = (ids: string[]) => db.$client.prepare(`SELECT * FROM t WHERE id IN (SELECT value FROM json_each(?1))`).bind(JSON.stringify(ids));"],
    ["boundedMarks (checked against the limit)", "export const f = (ids: string[]) => db.$client.prepare(`SELECT * FROM t WHERE id IN (${boundedMarks(ids)})`).bind(...ids);"],
    ["English words in a message", "export const f = (n: number) => `Try again in ${n} seconds`;"],
  ])("allows %s", async (_, body) => {
    expect(await boundedErrors(`${PREAMBLE}${body}\n`)).toEqual([]);
  });

  it("applies to every file of the worker", async () => {
    const body = `${PREAMBLE}export const f = (ids: string[]) => db.select().from(t).where(inArray(t.id, ids));\n`;
    for (const file of ["worker/services/example.ts", "worker/db/browse/example.ts", "worker/routes/admin/example.ts", "worker/db/seed/example.ts"])
      expect(await boundedErrors(body, file), file).toHaveLength(1);
  });
});

/**
 * The import boundaries of the SPA (docs/decisions/011) and of the worker's zones (architecture.md
 * "Code layout"), checked through the project's own eslint.config.js: a rule that
 * silently stops applying (flat config replaces a rule's options per block) fails here, not in a review.
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function lintErrors(filePath: string, source: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

async function importErrors(filePath: string, source: string): Promise<string[]> {
  return lintErrors(filePath, `${source}\nexport const used = x;\n`, "no-restricted-imports");
}

describe("SPA import boundaries", () => {
  it.each([
    ["web/lib/example.ts", 'import { x } from "../../../worker/db/browse/cells";'],
    ["web/features/browse/components/example.ts", 'import { x } from "../../../../worker/db/browse/cells";'],
    ["web/features/messages/api/example.ts", 'import { x } from "../../../../party/room";'],
  ])("%s may not import worker or party internals", async (file, source) => {
    expect(await importErrors(file, source)).toEqual([expect.stringContaining("The SPA may import only worker/contract")]);
  });

  it("a feature may import the contract and its own files, not another feature", async () => {
    expect(await importErrors("web/features/browse/components/example.ts", 'import { x } from "@contract/listings";')).toEqual([]);
    expect(await importErrors("web/features/browse/components/example.ts", 'import { x } from "@party/protocol";')).toEqual([]);
    expect(await importErrors("web/features/browse/components/example.ts", 'import { x } from "../lib/example";')).toEqual([]);
    expect(await importErrors("web/features/browse/components/example.ts", 'import { x } from "../../messages/lib/unsent";')).toEqual([
      expect.stringContaining("Features never import other features."),
    ]);
    // The long way round, through web/, is the same import.
    expect(await importErrors("web/features/browse/components/example.ts", 'import { x } from "../../../features/messages/lib/unsent";')).toEqual([
      expect.stringContaining("Features never import other features."),
    ]);
  });

  it.each([
    ["web/lib/example.ts", "../features/messages/lib/unsent"],
    ["web/lib/example.ts", "../app/router"],
    ["web/components/example.tsx", "../features/browse/components/browse-page"],
    ["web/components/ui/example.tsx", "../../features/auth/lib/welcome"],
    ["web/config/example.ts", "../features/admin/lib/format"],
  ])("shared SPA code %s may not import %s", async (file, specifier) => {
    expect(await importErrors(file, `import { x } from "${specifier}";`)).toEqual([expect.stringContaining("never imports a feature or the app layer")]);
  });

  it("shared SPA code may import other shared code and the contract", async () => {
    expect(await importErrors("web/lib/example.ts", 'import { x } from "./api-client";')).toEqual([]);
    expect(await importErrors("web/components/example.tsx", 'import { x } from "../lib/api-client";')).toEqual([]);
    expect(await importErrors("web/components/example.tsx", 'import { x } from "@contract/constants";')).toEqual([]);
  });
});

describe("worker zones", () => {
  const NO_SPA = "The worker never imports the SPA";
  const CONTRACT = "worker/contract imports nothing outside itself";
  const HTTP_LAYER = "never import routes or middleware";
  const QUERIES = "db/queries never imports services";
  const PARTY = "party/ imports only party/* and worker/contract";
  const ROUTE = "A route never imports another route";
  const NO_SERVICES = "never imports services: services build on it";
  const NO_SQL = "Routes hold no SQL";
  const NO_SQL_IN_SERVICES = "Services hold no SQL";

  // [file, import, the refusal it must get, or null when allowed]
  it.each([
    // Every zone keeps the shared rule: the worker never imports the SPA (only the built @web/ssr).
    ["worker/services/example.ts", "../../../web/lib/api-client", NO_SPA],
    ["worker/services/example.ts", "@web/ssr", null],
    ["worker/routes/listings/example.ts", "../../../web/lib/api-client", NO_SPA],
    ["worker/db/queries/example.ts", "../../../web/lib/api-client", NO_SPA],
    // The contract stands alone.
    ["worker/contract/example.ts", "../db/client", CONTRACT],
    ["worker/contract/example.ts", "../../../party/protocol", CONTRACT],
    ["worker/contract/example.ts", "./constants", null],
    ["worker/contract/example.ts", "zod", null],
    // Services never reach up into the HTTP layer.
    ["worker/services/example.ts", "../middleware/require-admin", HTTP_LAYER],
    ["worker/services/example.ts", "../routes/admin/index", HTTP_LAYER],
    ["worker/services/example.ts", "../db/queries/users", null],
    ["worker/services/example.ts", "./tokens", null],
    // Queries never import services (nor the HTTP layer).
    ["worker/db/queries/example.ts", "../../services/tokens", QUERIES],
    ["worker/db/queries/example.ts", "../../middleware/auth", HTTP_LAYER],
    ["worker/db/queries/example.ts", "./users", null],
    ["worker/db/queries/example.ts", "../../contract/policies", null],
    // The rooms see only their protocol and the contract.
    ["party/example.ts", "../worker/db/client", PARTY],
    ["party/example.ts", "../worker/env", PARTY],
    ["party/example.ts", "../worker/contract/../env", PARTY],
    ["party/example.ts", "../web/lib/api-client", PARTY],
    ["party/example.ts", "../worker/contract/messages", null],
    ["party/example.ts", "./protocol", null],
    ["party/example.ts", "partyserver", null],
    // A route never imports another route; one route's own files may import each other.
    ["worker/routes/listings/example.ts", "../messages/index", ROUTE],
    ["worker/routes/listings/example.ts", "../messages", ROUTE],
    ["worker/routes/example.ts", "./seo", ROUTE],
    ["worker/routes/admin/example.ts", "./listings", null],
    ["worker/routes/listings/example.ts", "../../services/listings", null],
    ["worker/routes/example.ts", "../services/pages", null],
    // Pure helpers and the browse query sit under the services.
    ["worker/lib/example.ts", "../services/tokens", NO_SERVICES],
    ["worker/lib/example.ts", "../middleware/auth", HTTP_LAYER],
    ["worker/lib/example.ts", "./errors", null],
    ["worker/db/browse/example.ts", "../../services/listings", NO_SERVICES],
    ["worker/db/browse/example.ts", "../../routes/listings", HTTP_LAYER],
    ["worker/db/browse/example.ts", "../queries/listing-sql", null],
    // A route reaches the database only through services: no query builder, no tables.
    ["worker/routes/listings/example.ts", "drizzle-orm", NO_SQL],
    ["worker/routes/listings/example.ts", "../../db/schema", NO_SQL],
    ["worker/routes/example.ts", "drizzle-orm/d1", NO_SQL],
    // Nor does a service: its statements are named functions of db/queries.
    ["worker/services/example.ts", "drizzle-orm", NO_SQL_IN_SERVICES],
    ["worker/services/payouts/example.ts", "../../db/schema", NO_SQL_IN_SERVICES],
    ["worker/services/example.ts", "drizzle-orm/batch", NO_SQL_IN_SERVICES],
    ["worker/services/notify/channels/email.ts", "drizzle-orm", NO_SQL_IN_SERVICES],
    ["worker/services/housekeeping.ts", "drizzle-orm", NO_SQL_IN_SERVICES],
    ["worker/services/example.ts", "../db/queries/payouts", null],
  ])("%s importing %s: %s", async (file, specifier, refusal) => {
    const errors = await importErrors(file, `import { x } from "${specifier}";`);
    expect(errors).toEqual(refusal ? [expect.stringContaining(refusal)] : []);
  });

  // One database handle per request: routes and services take the request's Db; only the cron's run
  // (services/housekeeping.ts) and the seed make their own.
  const ONE_DB = "never create a database handle";
  it.each([
    ["worker/routes/users/example.ts", 'import { createDb } from "../../db/client";', ONE_DB],
    ["worker/routes/example.ts", 'import { createDb } from "../db/client";', ONE_DB],
    ["worker/services/example.ts", 'import { createDb } from "../db/client";', ONE_DB],
    ["worker/services/example.ts", 'import { createDb as make } from "../db/client";', ONE_DB],
    ["worker/services/example.ts", 'import { type Db, primaryOf } from "../db/client";', null],
    ["worker/routes/users/example.ts", 'import type { Db } from "../../db/client";', null],
    ["worker/services/housekeeping.ts", 'import { createDb } from "../db/client";', null],
    ["worker/db/seed/example.ts", 'import { createDb } from "../client";', null],
  ])("%s: %s", async (file, source, refusal) => {
    const errors = await importErrors(file, source);
    expect(errors).toEqual(refusal ? [expect.stringContaining(refusal)] : []);
  });

  // Routes hold no SQL: no prepared statements, no sql`` fragments, no D1 binding.
  it.each([
    ['export const f = (c) => c.env.DB.prepare("SELECT 1").first();'],
    ["export const f = (env) => env.DB.exec('DELETE FROM users');"],
    ["export const f = (c) => { const { DB } = c.env; return DB; };"],
    ["export const f = (db) => db.prepare('SELECT 1');"],
    ["export const f = (db, sql) => db.run(sql`DELETE FROM users`);"],
  ])("a route may not run SQL: %s", async (source) => {
    for (const file of ["worker/routes/listings/example.ts", "worker/routes/example.ts"]) {
      const errors = await lintErrors(file, source, "no-restricted-syntax");
      expect(errors.length, file).toBeGreaterThan(0);
      expect(errors.every((e) => e.includes(NO_SQL))).toBe(true);
    }
  });

  it("a route may call a service with the request's Db", async () => {
    const source = 'import { getListing } from "../../services/listings";\nexport const f = (c) => getListing(c.var.db, c.env.BUCKET);\n';
    expect(await lintErrors("worker/routes/listings/example.ts", source, "no-restricted-syntax")).toEqual([]);
  });

  // Services hold no SQL either: the same refusals, and no statement written in place ({ sql }, raw text).
  it.each([
    ['export const f = (env) => env.DB.prepare("SELECT 1");'],
    ["export const f = (db) => db.$client.prepare('UPDATE deals SET version = version + 1 WHERE id = ?');"],
    ["export const f = (db, sql) => db.run(sql`DELETE FROM users`);"],
    ['export const f = (id) => ({ sql: "EXISTS (SELECT 1 FROM deals WHERE id = ? AND claim_id IS NULL)", params: [id] });'],
    ["export const f = (a, b) => ({ sql: `${a.sql} AND ${b.sql}`, params: [...a.params, ...b.params] });"],
    ['export const q = "SELECT id FROM users WHERE email = ?";'],
    ["export const q = (t) => `DELETE FROM ${t}`;"],
  ])("a service may not hold SQL: %s", async (source) => {
    for (const file of ["worker/services/example.ts", "worker/services/deals/example.ts", "worker/services/housekeeping.ts"]) {
      const errors = await lintErrors(file, source, "no-restricted-syntax");
      expect(errors.length, file).toBeGreaterThan(0);
      expect(errors.every((e) => e.includes(NO_SQL_IN_SERVICES))).toBe(true);
    }
  });

  it("a service may call db/queries, batch what they return and write prose that mentions a table", async () => {
    const source = [
      'import { claimCondition, noOverlapCondition } from "../db/queries/deals";',
      "export const f = (db, id) => db.batch([claimCondition(id), noOverlapCondition(['paid'], 'l', '2026-01-01', '2026-02-01', id)]);",
      'export const detail = "Select a date before you pay";',
    ].join("\n");
    expect(await lintErrors("worker/services/example.ts", source, "no-restricted-syntax")).toEqual([]);
    expect(await importErrors("worker/services/example.ts", source)).toEqual([]);
  });
});

describe("comments say why inside the repository", () => {
  const ISSUE = "not an issue number";
  const SPEC = "not a section of the spec";
  it.each([
    ["worker/services/example.ts", "// Fresh listings (issue 13): paused after three weeks.\nexport const x = 1;\n", ISSUE],
    ["web/features/browse/components/example.tsx", "/** The Featured row (Issue #25, item 5). */\nexport const x = 1;\n", ISSUE],
    ["party/example.ts", "/* see issues 14 and 24 */\nexport const x = 1;\n", ISSUE],
    ["test/worker/example.test.ts", "// issue 22: paid means paid\nexport const x = 1;\n", ISSUE],
    ["web/lib/example.ts", "/** The signed-in session (spec, section 4). */\nexport const x = 1;\n", SPEC],
    ["worker/contract/example.ts", "// Who may message whom (spec section 8).\nexport const x = 1;\n", SPEC],
  ])("%s: a comment citing a tracker or a spec section is refused", async (file, source, refusal) => {
    expect(await lintErrors(file, source, "house/no-issue-comments")).toEqual([expect.stringContaining(refusal)]);
  });

  it.each([
    ["worker/services/example.ts", "// Fresh listings (docs/decisions/015): paused after three weeks.\nexport const x = 1;\n"],
    ["web/lib/example.ts", "/** The signed-in session (docs/product-rules.md \"Session\"). */\nexport const x = 1;\n"],
    // Only comments: a string that names an issue is data, and "issue" without a number is a word.
    ["web/lib/example.ts", 'export const x = "issue 25";\n// An issue with the cache: it is keyed by user.\n'],
  ])("%s: a comment citing the repository, or code that is no comment, passes", async (file, source) => {
    expect(await lintErrors(file, source, "house/no-issue-comments")).toEqual([]);
  });
});

describe("notices go through notify", () => {
  const NOTIFY = "Send notices with notify() from services/notify";
  it.each([
    ["worker/services/example.ts", 'import { sendEmail as x } from "./email";', NOTIFY],
    ["worker/services/promotions/example.ts", 'import { sendEmail as x } from "../email";', NOTIFY],
    ["worker/services/example.ts", 'import { notify as x } from "./notify";', null],
    ["worker/services/notify/channels/email.ts", 'import { sendEmail as x } from "../../email";', null],
  ])("%s: %s", async (file, source, refusal) => {
    const errors = await importErrors(file, source);
    expect(errors).toEqual(refusal ? [expect.stringContaining(refusal)] : []);
  });
});

/**
 * The import boundaries of the SPA (docs/decisions/011) and of the worker's zones (issue 23,
 * architecture.md "Code layout"), checked through the project's own eslint.config.js: a rule that
 * silently stops applying (flat config replaces a rule's options per block) fails here, not in a review.
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
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
  });
});

describe("worker zones", () => {
  const NO_SPA = "The worker never imports the SPA";
  const CONTRACT = "worker/contract imports nothing outside itself";
  const HTTP_LAYER = "never import routes or middleware";
  const QUERIES = "db/queries never imports services";
  const PARTY = "party/ imports only party/* and worker/contract";
  const ROUTE = "A route never imports another route";

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
});

/**
 * The SPA's import boundaries (docs/decisions/011, architecture.md "Code layout"), checked through the
 * project's own eslint.config.js: a rule that silently stops applying (flat config replaces a rule's
 * options per block) fails here, not in a review.
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
    ["web/lib/example.ts", 'import { x } from "../../worker/db/browse-cells";'],
    ["web/features/browse/components/example.ts", 'import { x } from "../../../../worker/db/browse-cells";'],
    ["web/features/messages/api/example.ts", 'import { x } from "../../../../party/auth";'],
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

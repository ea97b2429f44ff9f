/**
 * The deal's process in its decision record (docs/decisions/035) is generated from the declaration
 * (worker/contract/deal-process.ts): a transition, timer or group changed without rerunning
 * `node scripts/deal-diagram.mjs` fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RECORD, renderedRecord } from "../../scripts/deal-diagram.mjs";

describe("docs/decisions/035's diagram and tables", () => {
  it("are what scripts/deal-diagram.mjs makes from the declaration (run it after changing the process)", async () => {
    const rendered = await renderedRecord();
    expect(rendered).toContain("stateDiagram-v2");
    expect(rendered).toContain("`cancellation_lapse`");
    expect(readFileSync(RECORD, "utf8")).toBe(rendered);
  });
});

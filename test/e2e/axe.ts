/** axe-core (WCAG 2.2 AA rules) on a page: its serious and critical violations (a11y.test.ts, deals.test.ts). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Serious and critical violations on the page as it is now, in a readable form. */
export async function violations(page: Page): Promise<string[]> {
  // Through the DevTools protocol, so the page's strict CSP (no inline scripts) is left as it is.
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: Violation[] }> } }).axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    });
    return result.violations;
  });
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(" ")}`));
}


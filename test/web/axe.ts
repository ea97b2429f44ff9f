/**
 * axe-core (the WCAG 2.2 AA rules the browser journeys run: test/e2e/axe.ts) on what a component test
 * rendered: its serious and critical violations, readable. jsdom computes no layout or colours, so the
 * rules that need them (colour contrast) are left to the browser journeys.
 */
import axe from "axe-core";

export async function axeViolations(root: Element = document.body): Promise<string[]> {
  const result = await axe.run(root, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    rules: { "color-contrast": { enabled: false } },
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(" ")}`));
}

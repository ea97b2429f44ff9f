/**
 * axe-core (WCAG 2.2 AA rules) on every route of the route table, signed out and signed in, in the
 * light and the dark theme: a serious or critical violation fails the suite.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiLogin, demoListingIds, signInContext, signInAdmin } from "./session";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const b = useBrowser({ width: 1280, height: 900 });

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Serious and critical violations on the page as it is now, in a readable form. */
async function violations(page: Page): Promise<string[]> {
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

async function settle(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await page.locator("h1").first().waitFor();
  // Images and lazy chunks in; transitions (300 ms fades) over.
  await page.waitForTimeout(400);
}

let listingId: string;
let ownListingId: string;

beforeAll(async () => {
  ({ anyListing: listingId, listerListing: ownListingId } = await demoListingIds(b.baseUrl));
});

const publicRoutes = () => ["/", "/?term=fall", `/listing/${listingId}`, "/signup", "/support", "/terms", "/safety", "/availability?token=invalid", "/unsubscribe?token=invalid", "/no/such/page", "/staff"];
const signedInRoutes = () => [
  "/",
  `/listing/${listingId}`,
  `/listing/${ownListingId}`,
  "/profile",
  "/favorites",
  "/messages",
  "/create",
  `/edit/${ownListingId}`,
  `/promote?listing_id=${ownListingId}`,
  "/billing",
  "/verification",
  "/support",
  "/terms",
  "/safety",
];

for (const theme of ["light", "dark"] as const) {
  describe(`accessibility in the ${theme} theme`, () => {
    const setTheme = (page: Page) => page.addInitScript((dark) => localStorage.setItem("darkMode", String(dark)), theme === "dark");

    it("has no serious or critical violation on any public page, signed out", { timeout: 90_000 }, async () => {
      await setTheme(b.page);
      const problems: string[] = [];
      for (const path of publicRoutes()) {
        await settle(b.page, path);
        problems.push(...(await violations(b.page)).map((v) => `${path}: ${v}`));
      }
      expect(problems).toEqual([]);
    });

    it("has none on any page signed in (a verified lister with listings)", async () => {
      const session = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
      await signInContext(b.context, session);
      await setTheme(b.page);
      const problems: string[] = [];
      for (const path of signedInRoutes()) {
        await settle(b.page, path);
        problems.push(...(await violations(b.page)).map((v) => `${path}: ${v}`));
      }
      expect(problems).toEqual([]);
    }, 90_000);

    it("has none in the staff panel, signed in", { timeout: 90_000 }, async () => {
      await signInAdmin(b.context, b.baseUrl);
      await setTheme(b.page);
      await settle(b.page, "/staff");
      const problems = await violations(b.page);
      for (const tab of ["Users", "Listings", "Feedback", "Reports", "Safety"]) {
        await b.page.getByRole("tab", { name: tab, exact: true }).click();
        await b.page.waitForLoadState("networkidle");
        await b.page.waitForTimeout(300);
        problems.push(...(await violations(b.page)).map((v) => `${tab}: ${v}`));
      }
      expect(problems).toEqual([]);
    });
  });
}

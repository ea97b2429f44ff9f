/**
 * axe-core (WCAG 2.2 AA rules) on every route of the route table, signed out and signed in, in the
 * light and the dark theme: a serious or critical violation fails the suite.
 */
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { violations } from "./axe";
import { useBrowser } from "./fixtures";
import { dealSteps } from "./deal-steps";
import { apiLogin, demoListingIds, requestDeal, signInContext, signInAdmin, type AuthSession } from "./session";

const b = useBrowser({ width: 1280, height: 900 });

async function settle(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await page.locator("h1").first().waitFor();
  await quiet(page);
}

/**
 * Images in and transitions (300 ms fades) over: axe must see the colours a person reads. A lazy
 * image below the fold may never load (Chromium loads those within about 1,250 px of the viewport).
 */
async function quiet(page: Page) {
  await page.waitForFunction(
    () =>
      Array.from(document.images).every((img) => img.complete || (img.loading === "lazy" && img.getBoundingClientRect().top > window.innerHeight)) &&
      document.getAnimations().every((a) => a.playState !== "running" || !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity)),
  );
}

/** The selected staff section's panel shows its data: something rendered, no "Loading…" and no spinner left. */
async function tabLoaded(page: Page, tab: string) {
  await page.getByRole("tablist", { name: "Admin sections" }).getByRole("tab", { name: tab, exact: true, selected: true }).waitFor();
  await page.waitForFunction(() => {
    const selected = document.querySelector('[role="tablist"][aria-label="Admin sections"] [role="tab"][aria-selected="true"]');
    const panel = selected && document.getElementById(selected.getAttribute("aria-controls") ?? "");
    return !!panel && panel.childElementCount > 0 && !panel.textContent!.includes("Loading…") && !panel.querySelector(".page-loading, .spinner");
  });
}

/** Pages audited at once: most of a route's time is waiting (network idle, fades), not the CPU. */
const PAGES_AT_ONCE = 3;

/**
 * Every route's serious and critical violations, `path: violation`, audited on a few pages of
 * `context` at once (each page signed in, themed, like the first).
 */
async function auditRoutes(context: BrowserContext, routes: string[], prepare: (page: Page) => Promise<unknown>): Promise<string[]> {
  const queue = [...routes];
  const problems = new Map<string, string[]>();
  await Promise.all(
    Array.from({ length: Math.min(PAGES_AT_ONCE, routes.length) }, async () => {
      const page = await context.newPage();
      try {
        await prepare(page);
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          await settle(page, path);
          problems.set(path, (await violations(page)).map((v) => `${path}: ${v}`));
        }
      } finally {
        await page.close();
      }
    }),
  );
  // In the route table's order, whichever page finished first.
  return routes.flatMap((path) => problems.get(path) ?? []);
}

let listingId: string;
let ownListingId: string;
/** A request for the demo lister's listing (a deal page to audit). */
let dealId: string;

const publicRoutes = () => ["/", "/?term=fall", "/?view=map", `/listing/${listingId}`, "/signup", "/support", "/terms", "/safety", "/availability?token=invalid", "/unsubscribe?token=invalid", "/landlord-consent/invalid", "/no/such/page", "/staff"];
const signedInRoutes = () => [
  "/",
  "/?view=map",
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
  `/deals/${dealId}`,
];

let lister: AuthSession;
/**
 * A released deal with its move-in report (a damaged room, a photo, the lister's comment) and both reviews
 * revealed, made once by the first test that needs it (signing polls the dev mailbox: inside a test).
 */
let afterKeys: Promise<{ dealId: string; renter: AuthSession }> | undefined;
function dealAfterTheKeys() {
  afterKeys ??= (async () => {
    // After the keys (docs/decisions/040), through the API: the renter's move-in report, the lister's comment,
    // the release by the deal jobs at its time, both reviews (the lister's pushes a payment off the platform,
    // so the scam shield puts it in staff's Reviews queue).
    const s = dealSteps(b.baseUrl);
    const held = await s.heldDealMovingInToday({ lister: "Ada", renter: "Ben" }, `Audited stay ${Date.now() % 100000}`);
    const photo = await s.evidencePhoto(held.renter);
    await s.post(`deals/${held.deal.id}/condition-report`, held.renter, {
      phase: "move_in",
      rooms: [
        { name: "Bathroom", condition: "damaged", note: "Cracked sink", photos: [photo] },
        { name: "Kitchen", condition: "good", note: "", photos: [] },
      ],
    });
    await s.post(`deals/${held.deal.id}/condition-report/move_in/comment`, held.lister, { text: "It was chipped before." });
    await s.released(held.deal.id, held.renter);
    await s.post(`deals/${held.deal.id}/review`, held.renter, { rating: 5, text: "Exactly as described." });
    await s.post(`deals/${held.deal.id}/review`, held.lister, { rating: 4, text: "Great renter. Next time just send the rent by Zelle to me directly." });
    return { dealId: held.deal.id, renter: held.renter };
  })();
  return afterKeys;
}

beforeAll(async () => {
  ({ anyListing: listingId, listerListing: ownListingId } = await demoListingIds(b.baseUrl));
  // One sign-in for the file (a production-cost scrypt check each): every context gets its tokens.
  lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
  // A renter no other file uses: deals.test.ts plays Jordan's request on the same listing, and a second
  // open request of the same pair would show a second card in its thread.
  const renter = await apiLogin(b.baseUrl, "liam.brooks@campusnest.dev", "lister-demo-123");
  dealId = (await requestDeal(b.baseUrl, renter, ownListingId)).id;
});

for (const theme of ["light", "dark"] as const) {
  // A limit sized for a busy 2-core machine (a test audits up to 16 routes), not a timing assertion.
  describe(`accessibility in the ${theme} theme`, { timeout: 90_000 }, () => {
    const setTheme = (page: Page) => page.addInitScript((dark) => localStorage.setItem("darkMode", String(dark)), theme === "dark");

    it("has no serious or critical violation on any public page, signed out", async () => {
      expect(await auditRoutes(b.context, publicRoutes(), setTheme)).toEqual([]);
    });

    it("has none on any page signed in (a verified lister with listings)", async () => {
      await signInContext(b.context, lister);
      expect(await auditRoutes(b.context, signedInRoutes(), setTheme)).toEqual([]);
    });

    it("has none on a deal after the keys (the condition report with its photo, both reviews), signed in as its renter", { timeout: 180_000 }, async () => {
      const { dealId, renter } = await dealAfterTheKeys();
      await signInContext(b.context, renter);
      expect(await auditRoutes(b.context, [`/deals/${dealId}`], setTheme)).toEqual([]);
    });

    it("has none in the staff panel, signed in", { timeout: 180_000 }, async () => {
      // The Reviews tab's queue holds the flagged review of the deal after the keys.
      await dealAfterTheKeys();
      await signInAdmin(b.context, b.baseUrl);
      await setTheme(b.page);
      await settle(b.page, "/staff");
      const problems = await violations(b.page);
      for (const tab of ["Users", "Listings", "Feedback", "Reports", "Safety", "Reviews", "Deals"]) {
        await b.page.getByRole("tab", { name: tab, exact: true }).click();
        // A tab is no navigation (its network-idle state was reached before): its panel has its data.
        await tabLoaded(b.page, tab);
        await quiet(b.page);
        problems.push(...(await violations(b.page)).map((v) => `${tab}: ${v}`));
      }
      expect(problems).toEqual([]);
    });
  });
}

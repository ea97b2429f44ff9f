import type { BrowserContext, ConsoleMessage } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useBrowser } from "./fixtures";
import { apiLogin, demoListingIds, signInContext } from "./session";

const b = useBrowser();
const LISTER = { email: "lister@campusnest.dev", password: "lister-demo-123" };

let listingId: string;
let ownListingId: string;
beforeAll(async () => {
  ({ anyListing: listingId, listerListing: ownListingId } = await demoListingIds(b.baseUrl));
});

describe("the app shell in Chromium", () => {
  it("renders the home page with universities from the API, and no console errors", async () => {
    const response = await b.page.goto("/");
    expect(response?.status()).toBe(200);
    await b.page.getByRole("heading", { level: 1, name: "Find a sublease near campus" }).waitFor();
    // Demo data: a live-looking marketplace, 12 results on a desktop under a Featured row (issue 25)
    // of promoted listings, none of them shown twice. The page is rendered with a phone's first batch;
    // the desktop's batch and the Featured row follow hydration: read it, in one go, once both are in.
    const cards = () =>
      b.page.evaluate(() => {
        const hrefs = (scope: string) => Array.from(document.querySelectorAll(`${scope} article`), (card) => card.querySelector("a")!.getAttribute("href")!.split("?")[0]!);
        return { featured: hrefs('section[aria-labelledby="featured-heading"]'), results: hrefs('section[aria-labelledby="results-heading"]'), all: hrefs("body") };
      });
    const { featured, results, all } = await vi.waitFor(
      async () => {
        const now = await cards();
        if (!now.featured.length || now.results.length < 12 - now.featured.length) throw new Error(`home page still filling in: ${JSON.stringify(now)}`);
        return now;
      },
      { timeout: 10_000, interval: 100 },
    );
    // The first 12 in the chosen order, less any of them the Featured row shows already.
    expect(results.length).toBeLessThanOrEqual(12);
    expect(all).toEqual([...featured, ...results]);
    expect(new Set(all).size).toBe(all.length);
    // The university field loads every university when used (issue 24), and finds them by name.
    const field = b.page.getByRole("combobox", { name: "University" });
    await field.fill("florida");
    await b.page.getByRole("option", { name: "UF · University of Florida" }).waitFor();
    await field.fill("");
    expect(await b.page.getByRole("option").count()).toBeGreaterThan(5);
    expect(await b.page.title()).toContain("CampusNest");
    expect(b.errors).toEqual([]);
  });

  it("serves the strict security headers on the document", async () => {
    const response = await b.page.goto("/");
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["strict-transport-security"]).toContain("max-age=");
    // The page ran under that CSP without a violation (violations are console errors).
    await b.page.getByRole("heading", { level: 1 }).waitFor();
    expect(b.errors).toEqual([]);
  });

  it("keeps dark mode across a reload", async () => {
    await b.page.goto("/");
    await b.page.getByRole("button", { name: "Switch to dark mode" }).click();
    // The class is applied by an effect after the re-render: wait for it rather than read it once.
    await expect.poll(() => b.page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await b.page.reload();
    await b.page.getByRole("button", { name: "Switch to light mode" }).waitFor();
    expect(await b.page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    expect(await b.page.evaluate(() => localStorage.getItem("darkMode"))).toBe("true");
    const background = await b.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(13, 17, 23)");
    expect(b.errors).toEqual([]);
  });

  it("serves the SPA for a deep link", async () => {
    const response = await b.page.goto("/terms");
    expect(response?.status()).toBe(200);
    await b.page.getByRole("heading", { level: 1, name: "Terms of Use" }).waitFor();
    expect(b.errors).toEqual([]);
  });

  it("shows the not-found page for an unknown path, with status 404", async () => {
    const response = await b.page.goto("/this/does/not/exist");
    expect(response?.status()).toBe(404);
    await b.page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    await b.page.getByRole("link", { name: "Browse listings" }).click();
    await b.page.waitForURL((url) => url.pathname === "/");
    // Chromium's own line for the document's 404, and nothing else.
    expect(b.errors).toEqual(["Failed to load resource: the server responded with a status of 404 (Not Found)"]);
  });

  it("opens the welcome modal and closes it with Escape", async () => {
    await b.page.goto("/");
    await b.page.getByRole("button", { name: "Get Started" }).click();
    const dialog = b.page.getByRole("dialog", { name: "Welcome to CampusNest" });
    await dialog.waitFor();
    await b.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(b.errors).toEqual([]);
  });
});

describe("at 360 px", () => {
  it("has no horizontal scroll on the home page", async () => {
    await b.page.setViewportSize({ width: 360, height: 740 });
    await b.page.goto("/");
    await b.page.getByRole("heading", { level: 1 }).waitFor();
    const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Filters fold behind a button, so the first listing starts on the first screen; 8 cards per batch.
    await b.page.getByRole("article").first().waitFor();
    const top = await b.page.getByRole("article").first().evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(740);
    // The server renders a desktop batch (it knows no screen); the phone's batch follows hydration.
    await expect.poll(() => b.page.getByRole("region", { name: "Listings", exact: true }).getByRole("article").count()).toBe(8);
    await b.page.getByRole("button", { name: "Filters" }).click();
    await b.page.getByLabel("Unit type").selectOption("studio");
    await b.page.waitForURL((url) => url.searchParams.get("unitType") === "studio");
  });
});

describe("theme", () => {
  it("follows the device's dark setting until the student chooses, without storing it", async () => {
    const context = await b.browser.newContext({ baseURL: b.baseUrl, colorScheme: "dark" });
    try {
      const page = await context.newPage();
      await page.goto("/");
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
      expect(await page.evaluate(() => localStorage.getItem("darkMode"))).toBeNull();
      // The device turns light: the page follows.
      await page.emulateMedia({ colorScheme: "light" });
      await page.waitForFunction(() => !document.documentElement.classList.contains("dark"));
      // A stored choice wins over the device.
      await page.evaluate(() => localStorage.setItem("darkMode", "false"));
      await page.emulateMedia({ colorScheme: "dark" });
      await page.reload();
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    } finally {
      await context.close();
    }
  });
});

describe("the shell at 360 px", () => {
  const overlaps = (a: { x: number; y: number; width: number; height: number }, c: { x: number; y: number; width: number; height: number }) =>
    a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height;

  it("the Feedback button is a small icon button that covers no field, card or the listing's sticky bar", async () => {
    const context = await b.browser.newContext({ baseURL: b.baseUrl, viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      for (const path of ["/signup", "/", `/listing/${listingId}`]) {
        await page.goto(path);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        const feedback = page.getByRole("button", { name: "Feedback", exact: true });
        const box = (await feedback.boundingBox())!;
        expect(box.width).toBeLessThanOrEqual(48);
        // Wherever the page is scrolled, nothing interactive or content-bearing lies under it.
        for (const scroll of [0, 400, 100_000]) {
          await page.evaluate((y) => window.scrollTo(0, y), scroll);
          const hidden = await page.evaluate(() => {
            const fab = Array.from(document.querySelectorAll("button")).find((el) => el.getAttribute("aria-label") === "Feedback" || el.textContent?.trim() === "Feedback")!;
            const r = fab.getBoundingClientRect();
            const points = [
              [r.left + 2, r.top + 2],
              [r.right - 2, r.bottom - 2],
              [r.left + r.width / 2, r.top + r.height / 2],
            ];
            // A point of the button that shows something else (not the button, the footer or the page background) is a covered thing.
            fab.style.visibility = "hidden";
            const under = points
              .map(([x, y]) => document.elementFromPoint(x!, y!))
              .filter((el) => el && r.bottom > 0 && r.top < innerHeight && !el.closest("footer") && el !== document.body && !el.classList.contains("app") && el.tagName !== "HTML")
              .map((el) => `${el!.tagName}.${el!.className}`);
            fab.style.visibility = "";
            return under;
          });
          expect(hidden, `${path} at ${scroll}`).toEqual([]);
        }
        const sticky = page.locator(".listing-sticky-bar");
        if (await sticky.count()) {
          const bar = await sticky.boundingBox();
          const fab = await feedback.boundingBox();
          if (bar && fab) expect(overlaps(bar, fab)).toBe(false);
        }
      }
      await page.getByRole("button", { name: "Feedback", exact: true }).click();
      await page.getByRole("dialog", { name: "Send feedback" }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("dialog actions are full width and stacked, primary on top, cancel last", async () => {
    const context = await b.browser.newContext({ baseURL: b.baseUrl, viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      await page.goto("/");
      await page.getByRole("button", { name: "Get Started" }).click();
      const dialog = page.getByRole("dialog", { name: "Welcome to CampusNest" });
      const primary = (await dialog.getByRole("link", { name: "Create an account" }).boundingBox())!;
      const secondary = (await dialog.getByRole("button", { name: "Browse listings" }).boundingBox())!;
      const panel = (await dialog.boundingBox())!;
      expect(primary.y + primary.height).toBeLessThanOrEqual(secondary.y);
      expect(primary.width).toBeGreaterThan(panel.width - 48);
      expect(secondary.width).toBeCloseTo(primary.width, 0);
    } finally {
      await context.close();
    }
  });
});

describe("a quiet console", () => {
  const routeTable = () => [
    "/",
    `/listing/${listingId}`,
    "/signup",
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
    "/no/such/page",
    "/staff",
  ];

  /** Pages loading routes at once: most of a route's time is waiting for the network to go idle. */
  const PAGES_AT_ONCE = 3;

  /** Every warning and error logged while each route loads, `path: type: text`, in the route table's order. */
  async function consoleOnEveryRoute(context: BrowserContext): Promise<string[]> {
    const routes = routeTable();
    const queue = [...routes];
    const logged = new Map<string, string[]>();
    await Promise.all(
      Array.from({ length: PAGES_AT_ONCE }, async () => {
        const page = await context.newPage();
        let messages: string[] = [];
        page.on("console", (msg: ConsoleMessage) => {
          // An unknown address is answered 404 on purpose (issue 25, item 12): Chromium notes the document's status.
          if (/Failed to load resource: the server responded with a status of 404/.test(msg.text()) && msg.location().url.endsWith("/no/such/page")) return;
          if (msg.type() === "warning" || msg.type() === "error") messages.push(`${msg.type()}: ${msg.text()}`);
        });
        page.on("pageerror", (err) => messages.push(`pageerror: ${err.message}`));
        try {
          for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
            messages = [];
            await page.goto(path);
            await page.waitForLoadState("networkidle");
            await page.getByRole("heading", { level: 1 }).first().waitFor();
            logged.set(path, messages.map((m) => `${path}: ${m}`));
          }
        } finally {
          await page.close();
        }
      }),
    );
    return routes.flatMap((path) => logged.get(path) ?? []);
  }

  it("logs no warning or error on a fresh load of any route, signed out", { timeout: 90_000 }, async () => {
    expect(await consoleOnEveryRoute(b.context)).toEqual([]);
  });

  it("logs no warning or error on a fresh load of any route, signed in", { timeout: 90_000 }, async () => {
    await signInContext(b.context, await apiLogin(b.baseUrl, LISTER.email, LISTER.password));
    expect(await consoleOnEveryRoute(b.context)).toEqual([]);
  });
});

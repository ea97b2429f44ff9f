/**
 * Pages rendered by the worker (issue 14): `/` and a listing show their first screen before any
 * JavaScript runs, then hydrate with no warning, no error and no second fetch of the data they came
 * with; signed-in students get their own view right after hydration.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useBrowser } from "./fixtures";
import { apiCall, apiLogin, demoListingIds, signInContext } from "./session";

const b = useBrowser({ width: 360, height: 780 });

/** Data calls the page makes (photos are files, not data). */
function watchApi(page: Page) {
  const calls: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith("/api/") && !url.pathname.startsWith("/api/v1/images/")) calls.push(`${url.pathname}${url.search}`);
  });
  return calls;
}

/** Every console line of the page, warnings included (hydration mismatches are reported there). */
function watchConsole(page: Page) {
  const lines: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") lines.push(`${msg.type()}: ${msg.text()}`);
  });
  return lines;
}

/** Resolves when React has hydrated: a click on the filter toggle changes aria-expanded only then. */
async function hydrated(page: Page) {
  const toggle = page.getByRole("button", { name: /^Filters/ });
  await expect
    .poll(async () => {
      await toggle.click();
      return toggle.getAttribute("aria-expanded");
    })
    .toBe("true");
}

describe("pages rendered at the edge", () => {
  it("browse shows the hero and the cards with JavaScript off", async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 780 }, baseURL: b.baseUrl });
    const page = await context.newPage();
    const first = await apiCall<{ data: { title: string }[] }>(b.baseUrl, "subleases/?limit=1");
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Find a sublease near campus" }).waitFor();
    await page.getByText(first.data[0]!.title).first().waitFor();
    await page.getByRole("searchbox", { name: "Search listings" }).waitFor();
    // The filter form works without JavaScript too (issue 24): every filter shows on a phone, a
    // typed university becomes its id, and the server renders the results.
    await page.getByRole("combobox", { name: "University" }).fill("UF");
    await page.getByLabel("Term").selectOption("fall");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((url) => url.searchParams.get("term") === "fall" && url.searchParams.has("university") && !url.searchParams.has("campus"));
    const shown = await page.locator(".listing-card-university").allTextContents();
    expect(shown.filter((t) => !t.startsWith("UF ·"))).toEqual([]);
    expect(await page.getByRole("combobox", { name: "University" }).inputValue()).toBe("UF");
    await context.close();
  });

  it("browse hydrates with no warning and fetches neither the listings nor the universities again", async () => {
    const { page } = b;
    const calls = watchApi(page);
    const console = watchConsole(page);
    // A filter no other file asks for: a page another file had cached more than the SPA's 30 s
    // staleTime ago is rightly refetched after hydration.
    await page.goto(`/?term=fall&min=${1 + Math.floor(Math.random() * 98)}`);
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    // (The next page may be fetched ahead once idle, for Load More: that is not a second fetch.)
    expect(calls.filter((c) => (c.startsWith("/api/v1/subleases") && !c.includes("last_evaluated_key")) || c.startsWith("/api/v1/universities"))).toEqual([]);
    expect(console).toEqual([]);
    // And it is the live app: a filter change fetches the new page.
    await page.getByLabel("Term").selectOption("spring");
    await expect.poll(() => calls.some((c) => c.startsWith("/api/v1/subleases") && c.includes("lease_term=spring"))).toBe(true);
    await expect.poll(() => new URL(page.url()).searchParams.get("term")).toBe("spring");
  });

  it("a listing hydrates with no warning and no second fetch; a signed-in student then gets their view", async () => {
    const { listerListing } = await demoListingIds(b.baseUrl);
    const owner = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    // Start from a fresh render: a page another file had cached more than the SPA's 30 s staleTime
    // ago is rightly refetched after hydration. A write (confirming availability) purges the page.
    await apiCall(b.baseUrl, `subleases/${listerListing}/confirm-availability`, { method: "POST", headers: { authorization: `Bearer ${owner.access_token}` } });
    const { page } = b;
    const calls = watchApi(page);
    const console = watchConsole(page);
    await page.goto(`/listing/${listerListing}`);
    await page.getByRole("button", { name: "Message" }).first().waitFor();
    await page.waitForLoadState("networkidle");
    expect(calls.filter((c) => c.startsWith(`/api/v1/subleases/${listerListing}`) || c.startsWith("/api/v1/users/"))).toEqual([]);
    expect(console).toEqual([]);

    // The owner: the server's markup is the visitor's view, hydration swaps in "Edit listing".
    await signInContext(b.context, owner);
    const ownerConsole = watchConsole(page);
    await page.goto(`/listing/${listerListing}`);
    await page.getByRole("link", { name: "Edit listing" }).first().waitFor();
    await page.waitForLoadState("networkidle");
    expect(ownerConsole).toEqual([]);
  });

  it("an unknown listing answers 404 with the 'Listing not found' page, rendered and hydrated", async () => {
    const { page } = b;
    const calls = watchApi(page);
    const res = await page.goto("/listing/no-such-listing-here");
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "Listing not found" }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(calls).not.toContain("/api/v1/subleases/no-such-listing-here");
    await page.getByRole("link", { name: "← Back" }).click();
    await page.getByRole("heading", { level: 1, name: "Find a sublease near campus" }).waitFor();
  });
});

/**
 * Issue 27 in Chromium: browse's List / Map toggle keeps the filters, the map has a pin per listing
 * with its rent (demo listings have coordinates), a pin opens its card and Escape closes it; the
 * listing page's Location map loads only when scrolled to. Development has no basemap: the plain map.
 */
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { demoListingIds } from "./session";

const b = useBrowser();
const UF = 49;

describe("maps", () => {
  it("browse: the toggle keeps the filters, pins carry the rent, a pin opens its card, Escape closes it", async () => {
    const { page } = b;
    await page.goto(`/?university=${UF}&sort=price_asc`);
    await page.getByRole("heading", { name: "Listings" }).waitFor({ state: "attached" });
    await page.getByRole("link", { name: "Map", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("view") === "map");
    const url = new URL(page.url());
    expect(url.searchParams.get("university")).toBe(String(UF));
    expect(url.searchParams.get("sort")).toBe("price_asc");
    const map = page.getByRole("region", { name: "Map of these listings" });
    await map.waitFor();
    const pins = map.getByRole("button", { name: /^\$[\d,]+\/month, / });
    await pins.first().waitFor();
    expect(await pins.count()).toBeGreaterThan(0);
    expect(await pins.first().textContent()).toMatch(/\$[\d,]+/);
    await map.getByRole("img", { name: "UF campus" }).waitFor();
    const name = (await pins.first().getAttribute("aria-label"))!;
    await pins.first().click();
    const panel = map.getByRole("group", { name: `Selected listing: ${name}` });
    await panel.waitFor();
    expect(await panel.getByRole("heading", { level: 3 }).count()).toBe(1);
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    // The list is still below the map.
    expect(await page.locator(".listing-grid .listing-card").count()).toBeGreaterThan(0);
  });

  it("the listing page's map loads only when its Location section is scrolled to", async () => {
    const { page } = b;
    const { anyListing } = await demoListingIds(b.baseUrl);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto(`/listing/${anyListing}`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    const beforeScroll = scripts.length;
    const location = page.getByRole("heading", { name: "Location" });
    await location.scrollIntoViewIfNeeded();
    const section = page.locator(".listing-location");
    const onMap = (await section.getByText("Location not on the map").count()) === 0;
    if (onMap) {
      await section.getByRole("region", { name: /^Map: / }).waitFor();
      // The map's code arrived only now, with the section in view (chunk names are hashes).
      expect(scripts.length).toBeGreaterThan(beforeScroll);
    }
  });
});

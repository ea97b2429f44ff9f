import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./fixtures";
import { apiLogin, createPendingListing } from "./session";

// A phone-sized screen: the staff panel must work on one too. Staff in Chicago: times are in the
// viewer's own zone, named, not New York's.
const b = useBrowser({ width: 360, height: 740 }, { timezoneId: "America/Chicago" });

async function adminLogin(page: Page) {
  await page.goto("/staff");
  await page.getByLabel("Admin password").fill("admin-dev-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("tab", { name: "Dashboard" }).waitFor();
}

/** True when the element is fully inside the window horizontally (not cut off or scrolled away). */
const fullyInView = (element: Locator) =>
  element.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth;
  });


const pageScrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe("the staff panel at 360 px", () => {
  it("reaches every tab and sub-tab with the arrow keys, each scrolled into view; badges fit their word", async () => {
    const { page } = b;
    await adminLogin(page);
    const sections = page.getByRole("tablist", { name: "Admin sections" });
    await sections.getByRole("tab", { name: "Dashboard" }).focus();
    for (const name of ["Users", "Listings", "Reports", "Safety", "Reviews", "Deals", "Failed jobs", "Feedback"]) {
      await page.keyboard.press("ArrowRight");
      const tab = sections.getByRole("tab", { name, exact: true });
      await expect.poll(() => tab.getAttribute("aria-selected")).toBe("true");
      await expect.poll(() => fullyInView(tab)).toBe(true);
    }
    // On a phone the bar wraps rather than hiding tabs off the edge: every tab is on screen at once, in three
    // rows at most (two until the Reviews section made nine).
    expect(await sections.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const tops = new Set<number>();
    for (const name of ["Dashboard", "Users", "Listings", "Reports", "Safety", "Reviews", "Deals", "Failed jobs", "Feedback"]) {
      const tab = sections.getByRole("tab", { name, exact: true });
      expect(await fullyInView(tab), name).toBe(true);
      tops.add(Math.round((await tab.boundingBox())!.y));
    }
    expect(tops.size).toBeLessThanOrEqual(3);
    // The header's three actions share one line under the title.
    const actionTops = await Promise.all(["Public site", "Refresh", "Logout"].map(async (name) => Math.round((await page.getByRole(name === "Public site" ? "link" : "button", { name }).boundingBox())!.y)));
    expect(new Set(actionTops).size).toBe(1);
    expect(await pageScrollsSideways(page)).toBe(false);

    for (const [section, subTabs] of [
      ["Users", ["Users", "Pending", "Unverified"]],
      ["Listings", ["All", "Pending", "Promoted"]],
      ["Reports", ["Open", "Resolved"]],
      ["Reviews", ["Queue", "Hidden"]],
      ["Feedback", ["Feedback", "Archive"]],
    ] as const) {
      await sections.getByRole("tab", { name: section, exact: true }).click();
      const bar = page.getByRole("tablist", { name: section, exact: true });
      await bar.getByRole("tab", { name: subTabs[0], exact: true }).focus();
      for (const name of subTabs.slice(1)) {
        await page.keyboard.press("ArrowRight");
        const tab = bar.getByRole("tab", { name, exact: true });
        await expect.poll(() => tab.getAttribute("aria-selected")).toBe("true");
        await expect.poll(() => fullyInView(tab)).toBe(true);
      }
      expect(await pageScrollsSideways(page)).toBe(false);
    }

    // A user's verification badge is as wide as its word, not the card.
    await sections.getByRole("tab", { name: "Users", exact: true }).click();
    // A section keeps the sub-tab it was left on (Unverified, above): back to its list of users.
    await page.getByRole("tablist", { name: "Users", exact: true }).getByRole("tab", { name: "Users", exact: true }).click();
    // Found by search: the list is newest first, and the journeys before this one in its lane add students.
    await page.getByRole("searchbox", { name: "Search users" }).fill("lister@campusnest.dev");
    const card = page.locator(".admin-user", { hasText: "lister@campusnest.dev" });
    const badge = card.locator(".badge");
    await badge.waitFor();
    const [badgeWidth, textWidth] = await Promise.all([badge.evaluate((el) => el.getBoundingClientRect().width), card.locator(".admin-user-text").evaluate((el) => el.getBoundingClientRect().width)]);
    expect(badgeWidth).toBeLessThan(textWidth / 2);
    expect(b.errors).toEqual([]);
  });

  it("a pending listing's details name the lister, link to their card, and read as words", { timeout: 60_000 }, async () => {
    const { page } = b;
    const lister = await apiLogin(b.baseUrl, "lister@campusnest.dev", "lister-demo-123");
    const title = `Details words ${Date.now() % 100000}`;
    await createPendingListing(b.baseUrl, lister, title);

    await adminLogin(page);
    await page.getByRole("tab", { name: "Listings" }).click();
    await page.getByRole("tab", { name: "Pending" }).click();
    await page.locator(".admin-tile", { hasText: title }).getByRole("button", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: title });
    const value = (term: string) => dialog.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd");
    expect(await value("Unit type").textContent()).toBe("Studio");
    expect(await value("Lease term").textContent()).toBe("Summer");
    expect(await value("Status").textContent()).toBe("Pending review · Available");
    expect(await value("Created").textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[SD]T$/);
    expect(await dialog.getByText(lister.user.id).count()).toBe(0);

    await dialog.getByRole("button", { name: /^Maya Lopez/ }).click();
    await dialog.waitFor({ state: "detached" });
    const search = page.getByRole("searchbox", { name: "Search users" });
    await expect.poll(() => search.inputValue()).toBe(lister.user.id);
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    const cards = page.locator(".admin-user");
    await expect.poll(() => cards.count()).toBe(1);
    await cards.getByText("lister@campusnest.dev").waitFor();
    expect(await pageScrollsSideways(page)).toBe(false);
    expect(b.errors).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { pages } from "../../../web/app/router";

describe("lazy routes", () => {
  it("every page but home is its own lazy chunk, loadable ahead of hydration", async () => {
    expect(pages.length).toBeGreaterThan(10);
    for (const { path, page } of pages) expect(typeof page.preload, path).toBe("function");
    // The same promise each time: preloading before hydration and the render share one load.
    const listing = pages.find((p) => p.path === "/listing/:id")!.page;
    expect(listing.preload()).toBe(listing.preload());
    await listing.preload();
  });
});

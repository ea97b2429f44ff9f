/** The worker's list of the app's pages (404 for anything else) matches the router. */
import { SPA_PATH_PATTERNS } from "@contract/spa-paths";
import { describe, expect, it } from "vitest";
import { pages } from "../../../web/app/router";
import { paths } from "../../../web/config/paths";

describe("the SPA's path patterns", () => {
  it("are exactly the router's pages, the home page and the staff panel", () => {
    const router = [paths.home, ...pages.map((p) => p.path), paths.admin];
    expect([...SPA_PATH_PATTERNS].sort()).toEqual([...router].sort());
  });
});

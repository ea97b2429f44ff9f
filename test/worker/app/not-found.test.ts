/** An address the app does not know answers 404 (with the app's not-found page). */
import { describe, expect, it } from "vitest";
import { isSpaPath } from "../../../worker/contract/spa-paths";
import { api } from "../helpers";

describe("unknown addresses", () => {
  it.each(["/nonsense", "/listing", "/listing/a/b", "/profile/extra", "/billing/x/y"])("%s answers 404 with the app's shell (its not-found page)", async (path) => {
    const res = await api(path, { headers: { Accept: "text/html" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain('<div id="root">');
  });

  it.each(["/profile", "/favorites", "/billing?listing_id=x", "/messages?userId=u1", "/edit/abc", "/staff", "/Support", "/terms/"])(
    "%s, one of the app's pages, answers 200",
    async (path) => {
      const res = await api(path, { headers: { Accept: "text/html" } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it("static files are served as before", async () => {
    const res = await api("/favicon.svg");
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it("unknown API paths keep their JSON 404", async () => {
    const res = await api("/api/v1/nonsense");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
  });
});

describe("isSpaPath", () => {
  it("matches the app's patterns as React Router does", () => {
    expect(isSpaPath("/")).toBe(true);
    expect(isSpaPath("/listing/abc")).toBe(true);
    expect(isSpaPath("/listing/")).toBe(false);
    expect(isSpaPath("/SAFETY")).toBe(true);
    expect(isSpaPath("/safety/")).toBe(true);
    expect(isSpaPath("/safety/more")).toBe(false);
    expect(isSpaPath("/%E0%A4%A")).toBe(false);
  });
});

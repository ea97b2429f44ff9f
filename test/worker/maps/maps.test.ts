/** Maps (issue 27): the basemap archive by range from R2, the map's config, and the public's approximate point. */
import { env } from "cloudflare:test";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { api, insertListing, json, signUp } from "../helpers";
import { mapsRoutes } from "../../../worker/routes/maps";
import { approximatePoint, APPROX_RADIUS_M } from "../../../worker/lib/approximate-point";
import type { MapConfig } from "../../../worker/contract/maps";

/** The routes as app.ts mounts them (under /api/v1/maps), with the settings given. */
const maps = new Hono<{ Bindings: Env }>().route("/api/v1/maps", mapsRoutes);
const call = (path: string, vars: Record<string, string> = {}, init?: RequestInit) =>
  maps.fetch(new Request(`http://localhost/api/v1/maps${path}`, init), { ...env, ...vars } as Env);

const KEY = "maps/test-20260101.pmtiles";
const ARCHIVE = new Uint8Array(4096).map((_, i) => i % 251);

function metresBetween(a: [number, number], b: [number, number]) {
  const r = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(r(b[0] - a[0]) / 2) ** 2 + Math.cos(r(a[0])) * Math.cos(r(b[0])) * Math.sin(r(b[1] - a[1]) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

beforeAll(async () => {
  await env.IMAGES.put(KEY, ARCHIVE);
});

describe("the basemap archive", () => {
  it("answers 404 when no archive is configured", async () => {
    expect((await call("/basemap.pmtiles", {}, { headers: { Range: "bytes=0-16383" } })).status).toBe(404);
  });

  it("answers a range with 206 and Content-Range, from R2 then from the edge cache", async () => {
    const first = await call("/basemap.pmtiles", { MAP_PMTILES_KEY: KEY }, { headers: { Range: "bytes=100-199" } });
    expect(first.status).toBe(206);
    expect(first.headers.get("Content-Range")).toBe(`bytes 100-199/${ARCHIVE.length}`);
    expect(first.headers.get("Accept-Ranges")).toBe("bytes");
    expect(first.headers.get("Cache-Control")).toContain("public");
    expect([...new Uint8Array(await first.arrayBuffer())]).toEqual([...ARCHIVE.slice(100, 200)]);
    const again = await call("/basemap.pmtiles", { MAP_PMTILES_KEY: KEY }, { headers: { Range: "bytes=100-199" } });
    expect(again.status).toBe(206);
    expect(again.headers.get("X-Edge-Cache")).toBe("hit");
    expect(again.headers.get("Content-Range")).toBe(`bytes 100-199/${ARCHIVE.length}`);
    expect([...new Uint8Array(await again.arrayBuffer())]).toEqual([...ARCHIVE.slice(100, 200)]);
  });

  it("answers open and suffix ranges, the whole archive without a range, and 416 to a bad range", async () => {
    const tail = await call("/basemap.pmtiles", { MAP_PMTILES_KEY: KEY }, { headers: { Range: "bytes=4000-" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("Content-Range")).toBe(`bytes 4000-4095/${ARCHIVE.length}`);
    expect((await tail.arrayBuffer()).byteLength).toBe(96);
    const suffix = await call("/basemap.pmtiles", { MAP_PMTILES_KEY: KEY }, { headers: { Range: "bytes=-10" } });
    expect(suffix.headers.get("Content-Range")).toBe(`bytes 4086-4095/${ARCHIVE.length}`);
    await suffix.arrayBuffer();
    const whole = await call("/basemap.pmtiles", { MAP_PMTILES_KEY: KEY });
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBe(ARCHIVE.length);
    expect((await call("/basemap.pmtiles", { MAP_PMTILES_KEY: KEY }, { headers: { Range: "bytes=20-10" } })).status).toBe(416);
    expect((await call("/basemap.pmtiles", { MAP_PMTILES_KEY: KEY }, { headers: { Range: "bytes=9000-" } })).status).toBe(416);
  });
});

describe("the map's config", () => {
  it("names the basemap configured, or none, and the campus asked for", async () => {
    const none = await json<MapConfig>(await call("/config?university=49"));
    expect(none.basemap).toEqual({ kind: "none" });
    expect(none.campus).toMatchObject({ abbreviation: "UF" });
    expect(none.campus!.point[0]).toBeCloseTo(29.64629, 4);
    expect(none.campus!.point[1]).toBeCloseTo(-82.347911, 4);
    expect((await json<MapConfig>(await call("/config", { MAP_PMTILES_KEY: KEY }))).basemap).toEqual({ kind: "pmtiles", url: "/api/v1/maps/basemap.pmtiles" });
    const styled = await json<MapConfig>(await call("/config", { MAP_STYLE_URL: "https://tiles.example/style.json" }));
    expect(styled).toEqual({ basemap: { kind: "style", url: "https://tiles.example/style.json" }, campus: null });
  });
});

describe("the approximate point", () => {
  it("is within the circle, never the exact point, and the same on every read", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 2000; i++) {
      const exact: [number, number] = [25 + random() * 23, -124 + random() * 57];
      const id = `listing-${i}`;
      const point = approximatePoint(id, exact[0], exact[1])!;
      expect(point).not.toEqual(exact);
      expect(point[0] === exact[0] && point[1] === exact[1]).toBe(false);
      const metres = metresBetween(point, exact);
      expect(metres).toBeLessThanOrEqual(APPROX_RADIUS_M);
      expect(metres).toBeGreaterThan(0);
      expect(approximatePoint(id, exact[0], exact[1])).toEqual(point);
    }
    // A place exactly at a cell's centre still moves.
    expect(approximatePoint("x", 29.651, -82.325)).not.toEqual([29.651, -82.325]);
    expect(approximatePoint("x", null, null)).toBeNull();
  });

  it("is what the public gets in browse and on the listing page; the exact point stays the owner's", async () => {
    const owner = await signUp("maps-owner@ufl.edu");
    await insertListing(owner.user.id, "map01", { latitude: 29.651234, longitude: -82.325678, distance_miles: 1.4 });
    await insertListing(owner.user.id, "map02", { latitude: null, longitude: null, distance_miles: null });
    const page = await json<{ data: { id: string; approx_point: [number, number] | null }[] }>(await api("/api/v1/subleases?limit=40"));
    const listed = page.data.find((l) => l.id === "map01")!;
    expect(listed.approx_point).toEqual(approximatePoint("map01", 29.651234, -82.325678));
    expect(listed.approx_point).not.toEqual([29.651234, -82.325678]);
    expect(page.data.find((l) => l.id === "map02")?.approx_point).toBeNull();
    const detail = await json<{ data: Record<string, unknown> }>(await api("/api/v1/subleases/map01"));
    expect(detail.data.approx_point).toEqual(listed.approx_point);
    expect(JSON.stringify(detail)).not.toContain("82.325678");
  });
});

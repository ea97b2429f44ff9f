/** Maps (decision 024): the basemap archive by range from R2, the map's config, and the public's approximate point. */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { mapsRoutes } from "../../../worker/routes/maps";
import { RANGE_TEXTS } from "../../../worker/services/maps";
import { createDb } from "../../../worker/db/client";
import type { AppContext } from "../../../worker/lib/context";
import { MAP_RANGE_MAX_BYTES } from "../../../worker/contract/constants";
import { approximatePoint, APPROX_RADIUS_M } from "../../../worker/lib/approximate-point";
import type { MapConfig } from "../../../worker/contract/maps";
import { api, insertListing, json, signUp } from "../helpers";

/** The routes as app.ts mounts them (under /api/v1/maps, with the request's `db`), with the settings given. */
const maps = new Hono<AppContext>().use("*", (c, next) => (c.set("db", createDb(c.env)), next())).route("/api/v1/maps", mapsRoutes);
/** One request with an execution context, waited on (the edge cache's write included) before it returns. */
async function call(path: string, vars: Record<string, string> = {}, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await maps.fetch(new Request(`http://localhost/api/v1/maps${path}`, init), { ...env, ...vars } as Env, ctx);
  // Read the body before waiting: the cache's branch of the stream is written while the client's is read.
  const body = res.body ? await res.arrayBuffer() : null;
  await waitOnExecutionContext(ctx);
  return new Response(body, res);
}
const ranged = (range: string | null, method = "GET", key = KEY) => call("/basemap.pmtiles", { MAP_PMTILES_KEY: key }, { method, headers: range === null ? {} : { Range: range } });
const bytesOf = async (res: Response) => [...new Uint8Array(await res.arrayBuffer())];

const KEY = "maps/test-20260101.pmtiles";
const ARCHIVE = new Uint8Array(4096).map((_, i) => i % 251);
/** Bigger than one capped range (the huge and open ranges), still small for a test. */
const BIG_KEY = "maps/test-big.pmtiles";
const BIG = new Uint8Array(MAP_RANGE_MAX_BYTES * 2 + 1000).map((_, i) => (i * 7) % 253);

function metresBetween(a: [number, number], b: [number, number]) {
  const r = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(r(b[0] - a[0]) / 2) ** 2 + Math.cos(r(a[0])) * Math.cos(r(b[0])) * Math.sin(r(b[1] - a[1]) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

beforeAll(async () => {
  await env.IMAGES.put(KEY, ARCHIVE);
  await env.IMAGES.put(BIG_KEY, BIG);
});

describe("the basemap archive", () => {
  it("answers 404 when no archive is configured", async () => {
    expect((await call("/basemap.pmtiles", {}, { headers: { Range: "bytes=0-16383" } })).status).toBe(404);
  });

  it("answers a small range with 206, its bytes and headers, from R2 then from the edge cache", async () => {
    const first = await ranged("bytes=100-199");
    expect(first.status).toBe(206);
    expect(first.headers.get("X-Edge-Cache")).toBe("miss");
    expect(first.headers.get("Content-Range")).toBe(`bytes 100-199/${ARCHIVE.length}`);
    expect(first.headers.get("Content-Length")).toBe("100");
    expect(first.headers.get("Content-Type")).toBe("application/vnd.pmtiles");
    expect(first.headers.get("Accept-Ranges")).toBe("bytes");
    expect(first.headers.get("Cache-Control")).toContain("public");
    expect(first.headers.get("ETag")).toBeTruthy();
    expect(await bytesOf(first)).toEqual([...ARCHIVE.slice(100, 200)]);
    const again = await ranged("bytes=100-199");
    expect(again.status).toBe(206);
    expect(again.headers.get("X-Edge-Cache")).toBe("hit");
    expect(again.headers.get("Content-Range")).toBe(`bytes 100-199/${ARCHIVE.length}`);
    expect(again.headers.get("Content-Length")).toBe("100");
    expect(again.headers.has("X-Content-Range")).toBe(false);
    expect(await bytesOf(again)).toEqual([...ARCHIVE.slice(100, 200)]);
    // The header a PMTiles reader asks for first: the whole small archive, as a 206.
    const header = await ranged("bytes=0-16383");
    expect(header.status).toBe(206);
    expect(header.headers.get("Content-Range")).toBe(`bytes 0-4095/${ARCHIVE.length}`);
    expect(await bytesOf(header)).toEqual([...ARCHIVE]);
  });

  it("refuses a request without a Range (400 with a detail), so the archive is never read whole", async () => {
    const res = await ranged(null);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ detail: RANGE_TEXTS.required });
    // HEAD without a Range reads no body: the size only.
    const head = await ranged(null, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(ARCHIVE.length));
    expect(head.headers.get("Accept-Ranges")).toBe("bytes");
  });

  it("caps an open range (bytes=0-) and a huge end at MAP_RANGE_MAX_BYTES, saying so in Content-Range", async () => {
    for (const range of ["bytes=0-", `bytes=0-${Number.MAX_SAFE_INTEGER}`, "bytes=0-99999999999"]) {
      const res = await ranged(range, "GET", BIG_KEY);
      expect(res.status, range).toBe(206);
      expect(res.headers.get("Content-Range"), range).toBe(`bytes 0-${MAP_RANGE_MAX_BYTES - 1}/${BIG.length}`);
      expect(res.headers.get("Content-Length"), range).toBe(String(MAP_RANGE_MAX_BYTES));
      const got = new Uint8Array(await res.arrayBuffer());
      expect(got.length, range).toBe(MAP_RANGE_MAX_BYTES);
      expect(got[MAP_RANGE_MAX_BYTES - 1]).toBe(BIG[MAP_RANGE_MAX_BYTES - 1]);
    }
    // The next range goes on from there; a suffix longer than the cap gets the last MAP_RANGE_MAX_BYTES.
    const next = await ranged(`bytes=${MAP_RANGE_MAX_BYTES}-`, "GET", BIG_KEY);
    expect(next.headers.get("Content-Range")).toBe(`bytes ${MAP_RANGE_MAX_BYTES}-${2 * MAP_RANGE_MAX_BYTES - 1}/${BIG.length}`);
    expect(new Uint8Array(await next.arrayBuffer())[0]).toBe(BIG[MAP_RANGE_MAX_BYTES]);
    const tail = await ranged(`bytes=-${BIG.length}`, "GET", BIG_KEY);
    expect(tail.headers.get("Content-Range")).toBe(`bytes ${BIG.length - MAP_RANGE_MAX_BYTES}-${BIG.length - 1}/${BIG.length}`);
    expect((await tail.arrayBuffer()).byteLength).toBe(MAP_RANGE_MAX_BYTES);
    // A HEAD of a huge range says the same without a body.
    const head = await ranged("bytes=0-", "HEAD", BIG_KEY);
    expect(head.status).toBe(206);
    expect(head.headers.get("Content-Range")).toBe(`bytes 0-${MAP_RANGE_MAX_BYTES - 1}/${BIG.length}`);
  });

  it("answers open and suffix ranges within the archive", async () => {
    const tail = await ranged("bytes=4000-");
    expect(tail.status).toBe(206);
    expect(tail.headers.get("Content-Range")).toBe(`bytes 4000-4095/${ARCHIVE.length}`);
    expect(await bytesOf(tail)).toEqual([...ARCHIVE.slice(4000)]);
    const suffix = await ranged("bytes=-10");
    expect(suffix.headers.get("Content-Range")).toBe(`bytes 4086-4095/${ARCHIVE.length}`);
    expect(await bytesOf(suffix)).toEqual([...ARCHIVE.slice(4086)]);
  });

  it("refuses several ranges at once and malformed ones with 400 and a detail", async () => {
    for (const range of ["bytes=0-1,5-9", "bytes=0-1, 5-9"]) {
      const res = await ranged(range);
      expect(res.status, range).toBe(400);
      expect(await json(res)).toEqual({ detail: RANGE_TEXTS.oneRange });
    }
    for (const range of ["bytes=20-10", "bytes=", "bytes=-", "bytes=abc", "items=0-10", "0-10", "bytes=1.5-3", "bytes=-1-3", `bytes=0-${"9".repeat(30)}`]) {
      const res = await ranged(range);
      expect(res.status, range).toBe(400);
      expect(await json(res), range).toEqual({ detail: RANGE_TEXTS.malformed });
    }
  });

  it("answers 416 with the archive's size to a range past its end", async () => {
    for (const range of ["bytes=9000-", "bytes=4096-5000", "bytes=-0"]) {
      const res = await ranged(range);
      expect(res.status, range).toBe(416);
      expect(res.headers.get("Content-Range"), range).toBe(`bytes */${ARCHIVE.length}`);
      expect(await json(res), range).toEqual({ detail: RANGE_TEXTS.pastEnd });
    }
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

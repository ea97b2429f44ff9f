import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BrowseResponse, ListingResponse } from "../../worker/contract/listings";
import type { AppContext } from "../../worker/lib/context";
import { buildOf, edgeCached, edgeCacheKey, setEdgeCacheClock } from "../../worker/services/edge-cache";
import { APP_VERSION } from "../../worker/version";
import { api, authed, json, signUp, type Session } from "./helpers";
import { insertListing } from "./fixtures";

// Edge caching of signed-out reads (services/edge-cache.ts, docs/decisions/016).

let owner: Session;
const status = (res: Response) => res.headers.get("X-Edge-Cache");

beforeAll(async () => {
  owner = await signUp("edge-owner@ufl.edu");
  await insertListing(owner.user.id, "e01", { monthly_rent: 500, unit_type: "studio" });
  await insertListing(owner.user.id, "e02", { monthly_rent: 900 });
  await insertListing(owner.user.id, "e03", { monthly_rent: 700 });
  await insertListing(owner.user.id, "e04", { monthly_rent: 650 });
});

afterEach(() => setEdgeCacheClock(null));

describe("keys", () => {
  it("sort query parameters by name (the first value of each, as the app reads them), drop the trailing slash and carry the build version", () => {
    const a = edgeCacheKey("https://x.test", "/api/v1/subleases/", "?unit_type=studio&max_rent=900&a=1&a=2");
    const b = edgeCacheKey("https://x.test", "/api/v1/subleases", "?a=1&max_rent=900&unit_type=studio&a=3");
    expect(a).toBe(b);
    expect(a).toBe(`https://x.test/_edge/${encodeURIComponent(APP_VERSION)}/api/v1/subleases?a=1&max_rent=900&unit_type=studio`);
    // `?q=studio&q=loft` is the studio page, never the loft one.
    expect(edgeCacheKey("https://x.test", "/", "?q=studio&q=loft")).not.toBe(edgeCacheKey("https://x.test", "/", "?q=loft&q=studio"));
    expect(edgeCacheKey("https://x.test", "/api/v1/subleases", "?unit_type=2x2")).not.toBe(edgeCacheKey("https://x.test", "/api/v1/subleases", "?unit_type=studio"));
  });
});

describe("browse", () => {
  it("serves a second identical signed-out request from the cache, with the same body and the per-request headers", async () => {
    const first = await api("/api/v1/subleases/?sort_by=price&min_rent=600");
    expect(first.status).toBe(200);
    expect(status(first)).toBe("MISS");
    const body = await first.text();
    // Same filter, parameters in another order: same entry.
    const second = await api("/api/v1/subleases?min_rent=600&sort_by=price");
    expect(status(second)).toBe("HIT");
    expect(await second.text()).toBe(body);
    expect(second.headers.get("content-type")).toMatch(/application\/json/);
    expect(second.headers.get("X-Request-Id")).toBeTruthy();
    expect(second.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    expect(second.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(second.headers.get("x-d1-bookmark")).toBeNull();
  });

  it("never gives one filter another filter's page", async () => {
    const studio = await api("/api/v1/subleases/?unit_type=studio");
    expect(status(studio)).toBe("MISS");
    expect((await json<BrowseResponse>(studio)).data.map((l) => l.id)).toEqual(["e01"]);
    const other = await api("/api/v1/subleases/?unit_type=2x2");
    expect(status(other)).toBe("MISS");
    expect((await json<BrowseResponse>(other)).data.map((l) => l.id).sort()).toEqual(["e02", "e03", "e04"]);
    expect(status(await api("/api/v1/subleases/?unit_type=studio"))).toBe("HIT");
  });

  it("bypasses (neither reads nor stores) signed-in requests, cookies, no-cache requests and requests carrying a D1 bookmark", async () => {
    const url = "/api/v1/subleases/?max_rent=800";
    const signedIn = await api(url, authed(owner.access_token));
    expect(signedIn.status).toBe(200);
    expect(status(signedIn)).toBe("BYPASS");
    expect(status(await api(url, { headers: { cookie: "a=b" } }))).toBe("BYPASS");
    expect(status(await api(url, { headers: { "cache-control": "no-cache" } }))).toBe("BYPASS");
    expect(status(await api(url, { headers: { pragma: "no-cache" } }))).toBe("BYPASS");
    const bookmark = (await api("/api/v1/subleases/e03")).headers.get("x-d1-bookmark");
    expect(bookmark).toBeTruthy();
    expect(status(await api(url, { headers: { "x-d1-bookmark": bookmark! } }))).toBe("BYPASS");
    // None of them stored anything: the first signed-out request is a miss.
    expect(status(await api(url))).toBe("MISS");
    expect(status(await api(url))).toBe("HIT");
    // ...and a signed-in one after it still bypasses the stored entry.
    expect(status(await api(url, authed(owner.access_token)))).toBe("BYPASS");
  });

  it("does not store answers other than 200", async () => {
    const bad = await api("/api/v1/subleases/?limit=nope");
    expect(bad.status).toBe(422);
    expect(status(bad)).not.toBe("HIT");
    const again = await api("/api/v1/subleases/?limit=nope");
    expect(again.status).toBe(422);
    expect(status(again)).not.toBe("HIT");
    const missing = await api("/api/v1/subleases/nope404");
    expect(missing.status).toBe(404);
    expect(status(await api("/api/v1/subleases/nope404"))).not.toBe("HIT");
  });

  it("serves an entry older than 30 s as STALE while it refreshes it, and drops it after 90 s", async () => {
    const url = "/api/v1/subleases/?sort_by=price&sort_order=desc";
    const start = Date.now();
    setEdgeCacheClock(() => start);
    const before = await json<BrowseResponse>(await api(url));
    await insertListing(owner.user.id, "e05", { monthly_rent: 2000 });
    setEdgeCacheClock(() => start + 29_000);
    const hit = await api(url);
    expect(status(hit)).toBe("HIT");
    expect((await json<BrowseResponse>(hit)).data).toEqual(before.data);
    setEdgeCacheClock(() => start + 31_000);
    const stale = await api(url);
    expect(status(stale)).toBe("STALE");
    expect((await json<BrowseResponse>(stale)).data).toEqual(before.data);
    // The refresh ran in waitUntil (awaited by the test helper): the entry now has the new listing.
    const refreshed = await api(url);
    expect(status(refreshed)).toBe("HIT");
    expect((await json<BrowseResponse>(refreshed)).data[0]!.id).toBe("e05");
    // Past fresh + stale: a miss.
    setEdgeCacheClock(() => start + 31_000 + 91_000);
    expect(status(await api(url))).toBe("MISS");
  });
});

describe("detail and purge", () => {
  it("purges the listing's entries when its owner edits it", async () => {
    const first = await api("/api/v1/subleases/e02");
    expect(status(first)).toBe("MISS");
    expect(status(await api("/api/v1/subleases/e02"))).toBe("HIT");
    const edit = await api("/api/v1/subleases/e02", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 950 }) }));
    expect(edit.status).toBe(200);
    const after = await api("/api/v1/subleases/e02");
    expect(status(after)).toBe("MISS");
    expect((await json<ListingResponse>(after)).data.monthly_rent).toBe(950);
    expect(status(await api("/api/v1/subleases/e02"))).toBe("HIT");
    // A new title sends it back to review: signed out, it is gone at once (never served from the cache).
    const renamed = await api("/api/v1/subleases/e02", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ title: "New title" }) }));
    expect(renamed.status).toBe(200);
    const hidden = await api("/api/v1/subleases/e02");
    expect(hidden.status).toBe(404);
    // The owner reads the new title (signed in: never cached).
    const own = await api("/api/v1/subleases/e02", authed(owner.access_token));
    expect(status(own)).toBe("BYPASS");
    expect((await json<ListingResponse>(own)).data.title).toBe("New title");
  });

  it("purges on delete", async () => {
    await insertListing(owner.user.id, "e09");
    await api("/api/v1/subleases/e09");
    expect(status(await api("/api/v1/subleases/e09"))).toBe("HIT");
    expect((await api("/api/v1/subleases/e09", authed(owner.access_token, { method: "DELETE" }))).status).toBe(204);
    expect((await api("/api/v1/subleases/e09")).status).toBe(404);
  });

  it("does not cache a detail address with a query string (only the bare address is purgeable)", async () => {
    expect(status(await api("/api/v1/subleases/e03?x=1"))).toBe("BYPASS");
    expect(status(await api("/api/v1/subleases/e03?x=1"))).toBe("BYPASS");
  });
});

describe("pages (the wrapper for a page handler)", () => {
  let renders = 0;
  const app = new Hono<AppContext>();
  app.get("/listing/:id", (c) => edgeCached(c, async () => (renders++, c.html(`<p>${c.req.param("id")}</p>`)), { query: false }));
  app.get("/", (c) => edgeCached(c, async () => (renders++, c.html(`<p>home ${c.req.query("q") ?? ""}</p>`))));
  const page = async (path: string) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`http://pages.test${path}`), env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it("caches the bare /listing/{id} and never one with a query string; / by its sorted query", async () => {
    expect(status(await page("/listing/p1"))).toBe("MISS");
    const hit = await page("/listing/p1");
    expect(status(hit)).toBe("HIT");
    expect(hit.headers.get("content-type")).toMatch(/text\/html/);
    expect(await hit.text()).toBe("<p>p1</p>");
    expect(status(await page("/listing/p1?back=%2F"))).toBe("BYPASS");
    expect(status(await page("/listing/p1?back=%2F"))).toBe("BYPASS");
    expect(status(await page("/?q=a&b=1"))).toBe("MISS");
    expect(status(await page("/?b=1&q=a"))).toBe("HIT");
    expect(status(await page("/?q=b&b=1"))).toBe("MISS");
    expect(renders).toBe(5);
  });

  it("a listing write purges the page's key too", async () => {
    const key = edgeCacheKey("http://localhost", "/listing/e03", "", buildOf(env));
    await caches.default.put(key, new Response("<p>old</p>", { headers: { "cache-control": "public, max-age=90", "X-Edge-Cached-At": String(Date.now()) } }));
    expect(await caches.default.match(key)).toBeDefined();
    const edit = await api("/api/v1/subleases/e03", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 710 }) }));
    expect(edit.status).toBe(200);
    expect(await caches.default.match(key)).toBeUndefined();
  });
});

describe("universities", () => {
  it("is cached and keeps its own Cache-Control for browsers", async () => {
    const first = await api("/api/v1/universities/");
    expect(status(first)).toBe("MISS");
    const second = await api("/api/v1/universities");
    expect(status(second)).toBe("HIT");
    expect(second.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(await second.text()).toBe(await first.text());
  });
});

it("leaves the D1 binding's data alone (sanity: the listing rows are there)", async () => {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM listings WHERE id LIKE 'e0%'").first<{ n: number }>();
  expect(row!.n).toBeGreaterThan(0);
});

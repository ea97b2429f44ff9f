import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BrowseResponse, ListingResponse } from "../../../worker/contract/listings";
import { createDb } from "../../../worker/db/client";
import type { AppContext } from "../../../worker/lib/context";
import { buildOf, edgeCached, edgeCacheKey, setEdgeCacheClock } from "../../../worker/services/edge-cache";
import { APP_VERSION } from "../../../worker/version";
import { adminLogin, api, authed, insertListing, json, type Session, signUp } from "../helpers";

// Edge caching of signed-out reads (services/edge-cache.ts, docs/decisions/016).

let owner: Session;
const status = (res: Response) => res.headers.get("X-Edge-Cache");
/** A bare app for the wrapper: the request's `db` is what middleware/d1-session.ts would set. */
const withDb = (app: Hono<AppContext>) => app.use("*", (c, next) => (c.set("db", createDb(c.env)), next()));

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
    // A new address sends it back to review: signed out, it is gone at once (never served from the cache).
    const moved = await api("/api/v1/subleases/e02", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ address: "9 New St" }) }));
    expect(moved.status).toBe(200);
    const hidden = await api("/api/v1/subleases/e02");
    expect(hidden.status).toBe(404);
    // The owner reads the new address (signed in: never cached).
    const own = await api("/api/v1/subleases/e02", authed(owner.access_token));
    expect(status(own)).toBe("BYPASS");
    expect((await json<ListingResponse>(own)).data.address).toBe("9 New St");
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
  const app = withDb(new Hono<AppContext>());
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

// Every listing write is visible to signed-out readers at once, in every data center
// (the listings generation, decision 016), while a read after no write stays a cache hit.
describe("writes visible at once (the listings generation)", () => {
  let adminToken: string;
  let writer: Session;
  const admin = (path: string, init: RequestInit = {}) => api(path, authed(adminToken, init));
  const BROWSE = "/api/v1/subleases/?limit=100";
  const browseIds = async () => {
    const res = await api(BROWSE);
    return { status: status(res), ids: (await json<BrowseResponse>(res)).data.map((l) => l.id) };
  };
  const browseListing = async (id: string) => (await json<BrowseResponse>(await api(BROWSE))).data.find((l) => l.id === id);
  /**
   * Browse and the listing's detail, each read twice signed out: the second is a hit (the cache is
   * warm) and shows the listing. Fixtures are written straight to D1, past the services, so the
   * generation is moved first, as the write that made them public would have.
   */
  const warm = async (id: string) => {
    await env.DB.prepare("UPDATE cache_generation SET generation = generation + 1 WHERE id = 1").run();
    for (const url of [BROWSE, `/api/v1/subleases/${id}`]) {
      await api(url);
      expect(status(await api(url))).toBe("HIT");
    }
    expect((await browseIds()).ids).toContain(id);
  };
  const generation = async () => (await env.DB.prepare("SELECT generation FROM cache_generation WHERE id = 1").first<{ generation: number }>())!.generation;

  beforeAll(async () => {
    adminToken = await adminLogin();
    writer = await signUp("edge-writer@ufl.edu");
  });

  it("a read after no write is a hit that reads one row (the generation) and renders nothing", async () => {
    let renders = 0;
    const app = withDb(new Hono<AppContext>());
    app.get("/p", (c) => edgeCached(c, async () => (renders++, c.html("<p>p</p>"))));
    const page = async () => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request("http://gen.test/p"), env, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    expect(status(await page())).toBe("MISS");
    expect(status(await page())).toBe("HIT");
    expect(status(await page())).toBe("HIT");
    expect(renders).toBe(1);
    // The price of the check: one primary-key read of one row.
    const read = await env.DB.prepare("SELECT generation FROM cache_generation WHERE id = 1").all();
    expect(read.meta.rows_read).toBe(1);
  });

  it("approval: a pending listing appears on browse and its detail at once", async () => {
    await insertListing(writer.user.id, "w01", { verification_status: "pending" });
    await warm("e01");
    expect((await api("/api/v1/subleases/w01")).status).toBe(404);
    expect((await browseIds()).ids).not.toContain("w01");
    expect((await admin("/api/v1/admin/listings/w01/verify", { method: "PATCH", body: JSON.stringify({ status: "approved" }) })).status).toBe(200);
    const after = await browseIds();
    expect(after.status).toBe("MISS");
    expect(after.ids).toContain("w01");
    expect((await api("/api/v1/subleases/w01")).status).toBe(200);
  });

  it("rejection of an approved listing: gone from browse and detail at once", async () => {
    await insertListing(writer.user.id, "w02");
    await warm("w02");
    expect((await admin("/api/v1/admin/listings/w02/verify", { method: "PATCH", body: JSON.stringify({ status: "rejected", rejection_reason: "Fake" }) })).status).toBe(200);
    expect((await browseIds()).ids).not.toContain("w02");
    expect((await api("/api/v1/subleases/w02")).status).toBe(404);
  });

  it("staff hide: gone at once", async () => {
    await insertListing(writer.user.id, "w03");
    await warm("w03");
    expect((await admin("/api/v1/admin/listings/w03", { method: "PATCH", body: JSON.stringify({ moderation_status: "hidden" }) })).status).toBe(200);
    expect((await browseIds()).ids).not.toContain("w03");
    expect((await api("/api/v1/subleases/w03")).status).toBe(404);
  });

  it("suspension takes every listing of the user off browse, detail and the rendered pages at once; lifting it brings them back at once", async () => {
    const scammer = await signUp("edge-scammer@ufl.edu");
    await insertListing(scammer.user.id, "w04", { title: "Bait studio w04" });
    await insertListing(scammer.user.id, "w05", { title: "Bait loft w05" });
    await warm("w04");
    await api("/");
    const home = await api("/");
    expect(status(home)).toBe("HIT");
    expect(await home.text()).toContain("Bait studio w04");
    await api("/listing/w05");
    expect(status(await api("/listing/w05"))).toBe("HIT");

    const reporter = await signUp("edge-reporter@ufl.edu");
    const report = await json<{ data: { id: string } }>(
      await api("/api/v1/reports", authed(reporter.access_token, { method: "POST", body: JSON.stringify({ kind: "listing", listing_id: "w04", reason: "scam" }) })),
    );
    const resolved = await admin(`/api/v1/admin/reports/${report.data.id}/resolve`, { method: "POST", body: JSON.stringify({ action: "suspend_user" }) });
    expect(resolved.status).toBe(200);
    const ids = (await browseIds()).ids;
    expect(ids).not.toContain("w04");
    expect(ids).not.toContain("w05");
    expect((await api("/api/v1/subleases/w04")).status).toBe(404);
    const homeAfter = await api("/");
    expect(status(homeAfter)).not.toBe("HIT");
    expect(await homeAfter.text()).not.toContain("Bait studio w04");
    expect(await (await api("/listing/w05")).text()).not.toContain("Bait loft w05");

    await warm("e01");
    expect((await admin(`/api/v1/admin/users/${scammer.user.id}/unsuspend`, { method: "POST" })).status).toBe(200);
    expect((await browseIds()).ids).toEqual(expect.arrayContaining(["w04", "w05"]));
  });

  it("deletion by the owner and by staff: gone at once", async () => {
    const own = await signUp("edge-deleter@ufl.edu");
    await insertListing(own.user.id, "w06");
    await insertListing(own.user.id, "w07");
    await warm("w06");
    expect((await api("/api/v1/subleases/w06", authed(own.access_token, { method: "DELETE" }))).status).toBe(204);
    expect((await browseIds()).ids).not.toContain("w06");
    await warm("w07");
    expect((await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "listings", itemId: "w07" }) })).status).toBe(200);
    expect((await browseIds()).ids).not.toContain("w07");
    expect((await api("/api/v1/subleases/w07")).status).toBe(404);
  });

  it("account deletion: the account's listings are gone at once", async () => {
    const leaving = await signUp("edge-leaving@ufl.edu");
    await insertListing(leaving.user.id, "w08");
    await warm("w08");
    expect((await admin("/api/v1/admin/delete-item", { method: "DELETE", body: JSON.stringify({ tableName: "users", itemId: leaving.user.id }) })).status).toBe(200);
    expect((await browseIds()).ids).not.toContain("w08");
  });

  it("an owner's edit that stays live: the new rent shows at once on browse and detail", async () => {
    await insertListing(writer.user.id, "w09", { monthly_rent: 880 });
    await warm("w09");
    const edit = await api("/api/v1/subleases/w09", authed(writer.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 860, parking: true }) }));
    expect((await json<{ data: { verification_status: string } }>(edit)).data.verification_status).toBe("approved");
    expect((await browseListing("w09"))?.monthly_rent).toBe(860);
    expect((await json<ListingResponse>(await api("/api/v1/subleases/w09"))).data.monthly_rent).toBe(860);
  });

  it("promotion start and end by staff, and the bulk clean-up: shown at once", async () => {
    await insertListing(writer.user.id, "w10");
    await warm("w10");
    expect((await admin("/api/v1/admin/listings/w10/promote", { method: "POST" })).status).toBe(200);
    expect((await browseListing("w10"))?.promoted).toBe(true);
    expect((await admin("/api/v1/admin/listings/w10/unpromote", { method: "POST" })).status).toBe(200);
    expect((await browseListing("w10"))?.promoted).toBe(false);

    await insertListing(writer.user.id, "w11", { promotion_start: "2026-01-01T00:00:00.000Z", promotion_end: "2099-01-01T00:00:00.000Z", promotion_source: "admin" });
    await generationBumpedBy(() => admin("/api/v1/admin/listings/w11/unpromote", { method: "POST" }));
    // The clean-up of lapsed staff promotions (none lapsed: no bump; one lapsed: a bump).
    await insertListing(writer.user.id, "w12", { promotion_start: "2026-01-01T00:00:00.000Z", promotion_end: "2026-01-02T00:00:00.000Z", promotion_source: "admin" });
    await generationBumpedBy(() => admin("/api/v1/cleanup-expired-promotions".replace("/api/v1/", "/api/v1/admin/"), { method: "POST" }));
  });

  it("the cron's writes (lapsed promotions, listings paused for freshness) move the generation", async () => {
    const { runHousekeeping } = await import("../../../worker/services/housekeeping");
    await insertListing(writer.user.id, "w13", { promotion_start: "2026-01-01T00:00:00.000Z", promotion_end: "2026-01-02T00:00:00.000Z", promotion_source: "stripe", auto_renew: 0 });
    await generationBumpedBy(() => runHousekeeping(env, Date.parse("2026-02-01T00:00:00.000Z")));
    await insertListing(writer.user.id, "w14", { availability_confirmed_at: "2026-01-01T00:00:00.000Z", availability_asked_at: "2026-01-16T00:00:00.000Z" });
    const before = await generation();
    await runHousekeeping(env, Date.parse("2026-01-23T00:00:00.000Z"));
    expect((await env.DB.prepare("SELECT status FROM listings WHERE id = 'w14'").first<{ status: string }>())!.status).toBe("paused");
    expect(await generation()).toBeGreaterThan(before);
  });

  it("verify-all: every approved listing appears at once", async () => {
    await insertListing(writer.user.id, "w15", { verification_status: "pending" });
    await warm("e01");
    expect((await admin("/api/v1/admin/listings/verify-all", { method: "POST" })).status).toBe(200);
    expect((await browseIds()).ids).toContain("w15");
  });

  it("a stale copy is never served across a write: past 30 s, the first read after a write is a miss with the change", async () => {
    await insertListing(writer.user.id, "w16", { monthly_rent: 990 });
    const start = Date.now();
    setEdgeCacheClock(() => start);
    await api(BROWSE);
    setEdgeCacheClock(() => start + 45_000);
    expect((await admin("/api/v1/admin/listings/w16", { method: "PATCH", body: JSON.stringify({ moderation_status: "hidden" }) })).status).toBe(200);
    const after = await browseIds();
    expect(after.status).toBe("MISS");
    expect(after.ids).not.toContain("w16");
  });

  async function generationBumpedBy(write: () => Promise<unknown>) {
    const before = await generation();
    await write();
    expect(await generation()).toBeGreaterThan(before);
  }
});

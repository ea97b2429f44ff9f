import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListingResponse } from "../../../worker/contract/listings";
import { sessionAsD1 } from "../../../worker/db/client";
import { readBookmark } from "../../../worker/middleware/d1-session";
import { api, authed, insertListing, json, type Session, signUp } from "../helpers";

// One D1 session per request (middleware/d1-session.ts, docs/decisions/016).

let owner: Session;

beforeAll(async () => {
  owner = await signUp("session-owner@ufl.edu");
  await insertListing(owner.user.id, "s01", { monthly_rent: 500 });
});

describe("bookmarks", () => {
  it("a write answers its bookmark; a read carrying it succeeds, sees the write and skips the edge cache", async () => {
    // Signed out, cached before the write.
    await api("/api/v1/subleases/?min_rent=400");
    const edit = await api("/api/v1/subleases/s01", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 610 }) }));
    expect(edit.status).toBe(200);
    const bookmark = edit.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/^[0-9A-Za-z-]+$/);
    const read = await api("/api/v1/subleases/?min_rent=400", { headers: { "x-d1-bookmark": bookmark! } });
    expect(read.status).toBe(200);
    expect(read.headers.get("X-Edge-Cache")).toBe("BYPASS");
    const body = await json<{ data: { id: string; monthly_rent: number }[] }>(read);
    expect(body.data.find((l) => l.id === "s01")!.monthly_rent).toBe(610);
    const detail = await api("/api/v1/subleases/s01", { headers: { "x-d1-bookmark": bookmark! } });
    expect((await json<ListingResponse>(detail)).data.monthly_rent).toBe(610);
    // Reads answer a bookmark too, never older than the one they were given.
    expect(detail.headers.get("x-d1-bookmark")! >= bookmark!).toBe(true);
  });

  it("ignores a header that is not a bookmark", async () => {
    expect(readBookmark("0000001a-00000002-00004f71-abc")).toBe("0000001a-00000002-00004f71-abc");
    expect(readBookmark("has a space")).toBeNull();
    expect(readBookmark("semi;colon")).toBeNull();
    expect(readBookmark("x".repeat(300))).toBeNull();
    expect(readBookmark("")).toBeNull();
    expect(readBookmark(undefined)).toBeNull();
    const res = await api("/api/v1/subleases/s01", { headers: { "x-d1-bookmark": "not a bookmark" } });
    expect(res.status).toBe(200);
    // Local D1 takes any well-formed string as a bookmark; its own are D1's shape (hex groups and dashes).
    expect((await api("/api/v1/subleases/s01", { headers: { "x-d1-bookmark": "abc" } })).status).toBe(200);
    expect((await api("/api/v1/subleases/s01")).headers.get("x-d1-bookmark")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
  });

  it("is allowed and exposed by CORS", async () => {
    const preflight = await api("/api/v1/subleases/s01", {
      method: "OPTIONS",
      headers: { Origin: "https://app.campusnest.test", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-d1-bookmark" },
    });
    expect(preflight.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("x-d1-bookmark");
    const res = await api("/api/v1/subleases/s01", { headers: { Origin: "https://app.campusnest.test" } });
    expect(res.headers.get("Access-Control-Expose-Headers")?.toLowerCase()).toContain("x-d1-bookmark");
  });
});

describe("the session adapter", () => {
  it("runs statements and batches through the session and refuses exec and dump", async () => {
    const session = env.DB.withSession("first-primary");
    const db = sessionAsD1(session, env.DB);
    expect(await db.prepare("SELECT 1 AS one").first<{ one: number }>()).toEqual({ one: 1 });
    const [a, b] = await db.batch([db.prepare("SELECT 2 AS n"), db.prepare("SELECT 3 AS n")]);
    expect([a!.results, b!.results]).toEqual([[{ n: 2 }], [{ n: 3 }]]);
    expect(session.getBookmark()).toBeTruthy();
    await expect(db.exec("SELECT 1")).rejects.toThrow(/not available on a request's D1 session/);
    await expect(db.dump()).rejects.toThrow(/not available/);
  });
});

/** Favourites: an idempotent toggle, bounded pages, and a write budget per user. */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api, authed, dataUrl, insertListing as insertOwnListing, JPEG_1x1, json, PDF, type Session, signUp, withinOneMinute } from "../helpers";

let owner: Session;
let fan: Session;

const insertListing = (id: string, fields: Record<string, string | number> = {}) => insertOwnListing(owner.user.id, id, fields);

beforeAll(async () => {
  owner = await signUp("fav-owner@ufl.edu");
  fan = await signUp("fan@ufl.edu");
  await insertListing("f01");
  await insertListing("f02");
  await insertListing("f03", { verification_status: "pending" });
});

type FavoritesPage = { favorites: { listing_id: string; created_at: string }[]; pagination: { next_token: string | null; has_more: boolean } };

describe("favourites", () => {
  it("toggle idempotently and list newest first; hidden listings cannot be favourited", async () => {
    const add = (id: string) => api("/api/v1/favorites", authed(fan.access_token, { method: "POST", body: JSON.stringify({ listing_id: id }) }));
    expect((await add("f01")).status).toBe(201);
    expect((await add("f01")).status).toBe(200);
    expect((await add("f02")).status).toBe(201);
    expect((await add("f03")).status).toBe(404);
    const list = await json<FavoritesPage>(await api("/api/v1/favorites/", authed(fan.access_token)));
    expect(list.favorites.map((f) => f.listing_id).sort()).toEqual(["f01", "f02"]);
    expect(list.pagination).toEqual({ next_token: null, has_more: false });
    expect((await api("/api/v1/favorites/f01", authed(fan.access_token, { method: "DELETE" }))).status).toBe(200);
    expect((await api("/api/v1/favorites/f01", authed(fan.access_token, { method: "DELETE" }))).status).toBe(200);
    expect((await api("/api/v1/favorites")).status).toBe(401);
    const after = await json<FavoritesPage>(await api("/api/v1/favorites", authed(fan.access_token)));
    expect(after.favorites.map((f) => f.listing_id)).toEqual(["f02"]);
  });

  it("answers bounded keyset pages that walk every favourite once", async () => {
    const collector = await signUp("collector@ufl.edu");
    const base = Date.UTC(2026, 5, 1);
    const statements = [];
    for (let i = 0; i < 250; i++) {
      const id = `g${String(i).padStart(3, "0")}`;
      statements.push(
        env.DB.prepare("INSERT INTO listings (id, user_id, university_id, title, description, unit_type, address, monthly_rent, lease_term, verification_status) VALUES (?, ?, 1, 't', 'd', '2x2', 'a', 700, 'fall', 'approved')").bind(id, owner.user.id),
        // Pairs share a timestamp: the id breaks the tie, so no favourite is skipped or repeated.
        env.DB.prepare("INSERT INTO favorites (user_id, listing_id, created_at) VALUES (?, ?, ?)").bind(collector.user.id, id, new Date(base + Math.floor(i / 2) * 1000).toISOString()),
      );
    }
    await env.DB.batch(statements);
    const first = await json<FavoritesPage>(await api("/api/v1/favorites", authed(collector.access_token)));
    expect(first.favorites).toHaveLength(100);
    const seen: string[] = [];
    let token: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: FavoritesPage = await json<FavoritesPage>(
        await api(`/api/v1/favorites?limit=30${token ? `&last_evaluated_key=${encodeURIComponent(token)}` : ""}`, authed(collector.access_token)),
      );
      seen.push(...res.favorites.map((f) => f.listing_id));
      token = res.pagination.next_token;
      if (!token) break;
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    expect(seen[0]).toBe("g249");
    expect((await api("/api/v1/favorites?limit=101", authed(collector.access_token))).status).toBe(422);
    expect((await api("/api/v1/favorites?last_evaluated_key=zzz", authed(collector.access_token))).status).toBe(400);
  });
});

describe("the write budget", () => {
  it("puts every write route under one per-user limit (60 a minute)", async () => {
    const busy = await signUp("busy@ufl.edu");
    await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(busy.user.id).run();
    await insertListing("w01", { user_id: busy.user.id });
    const toggle = (i: number) =>
      api(i % 2 ? "/api/v1/favorites/f02" : "/api/v1/favorites", authed(busy.access_token, { method: i % 2 ? "DELETE" : "POST", body: i % 2 ? undefined : JSON.stringify({ listing_id: "f02" }) }));
    // One minute of the limiter's clock: a burst across a minute's turn would start afresh halfway.
    await withinOneMinute(async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 70 && !statuses.includes(429); i++) statuses.push((await toggle(i)).status);
      expect(statuses.indexOf(429)).toBeGreaterThanOrEqual(60 - 1);
      // Every other write of this user now waits too: the budget is shared.
      const post = (path: string, body: unknown, method = "POST") => api(path, authed(busy.access_token, { method, body: JSON.stringify(body) }));
      const writes = [
        post("/api/v1/subleases/", {}),
        post("/api/v1/subleases/w01", { title: "x" }, "PATCH"),
        api("/api/v1/subleases/w01", authed(busy.access_token, { method: "DELETE" })),
        post("/api/v1/users/avatar-base64", { image_data: dataUrl(JPEG_1x1) }),
        post("/api/v1/upload/multiple-base64", { images: [{ filename: "a.jpg", image_data: dataUrl(JPEG_1x1) }] }),
        post("/api/v1/verification/upload-document", { filename: "id.pdf", image_data: dataUrl(PDF) }),
        post("/api/v1/verification/submit-url", { document_type: "passport", id_document_url: "private-document:x" }),
        post("/api/v1/users/profile", { first_name: "Busy" }, "PATCH"),
        post("/api/v1/users/preferences", { preferred_term: "fall" }, "PATCH"),
        post("/api/v1/users/notifications", { email_on_message: false }, "PATCH"),
        api("/api/v1/users/profile", authed(busy.access_token, { method: "DELETE" })),
      ];
      const answers = await Promise.all(writes);
      expect(answers.map((r) => r.status)).toEqual(Array(writes.length).fill(429));
      expect((await api("/api/v1/subleases/w01", authed(busy.access_token))).status).toBe(200);
    });
    // Another user is not affected.
    expect((await api("/api/v1/favorites", authed(fan.access_token, { method: "POST", body: JSON.stringify({ listing_id: "f01" }) }))).status).toBe(201);
  });
});

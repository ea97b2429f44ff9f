import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../../worker/contract/limits";
import { api, authed, dataUrl, json, PDF, PNG_1x1, post, signUp } from "../helpers";

const patch = (token: string, path: string, body: unknown) =>
  api(path, authed(token, { method: "PATCH", body: JSON.stringify(body) }));

describe("names are never links", () => {
  const ADDRESSES = ["Claim $500 at evil.example now", "https://evil.example", "www.evil", "bit.ly/win", "me@evil.co", "evil\u3002example", "hxxp://x.y"];

  it("sign-up refuses a name with a URL or a domain (422, a clear detail) and creates no account", async () => {
    for (const [i, name] of ADDRESSES.entries()) {
      const email = `name-link-${i}@ufl.edu`;
      const res = await post("/api/v1/auth/register", { email, password: "secret-pass-1", first_name: "Maya", last_name: name });
      expect(res.status, name).toBe(422);
      expect(await json(res), name).toMatchObject({ detail: "Names can't contain links or web addresses", errors: [{ path: "last_name" }] });
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").bind(email).first("n"), name).toBe(0);
    }
  });

  it("profile edit refuses one too and keeps the old name; ordinary names with dots pass", async () => {
    const s = await signUp("name-edit@ufl.edu");
    for (const name of ADDRESSES) {
      const res = await patch(s.access_token, "/api/v1/users/profile", { first_name: name });
      expect(res.status, name).toBe(422);
      expect((await json<{ detail: string }>(res)).detail).toBe("Names can't contain links or web addresses");
    }
    expect((await json<{ data: { first_name: string } }>(await api("/api/v1/users/profile", authed(s.access_token)))).data.first_name).toBe("Test");
    for (const name of ["J.R.R.", "St. John", "Mary-Ann O'Neil", "Zoë", "李 小龙"]) {
      const res = await patch(s.access_token, "/api/v1/users/profile", { last_name: name });
      expect(res.status, name).toBe(200);
    }
  });
});

describe("profile", () => {
  it("reads and edits the own profile; every users route refuses a visitor with 401", async () => {
    const s = await signUp("prof@ufl.edu");
    const res = await patch(s.access_token, "/api/v1/users/profile", { first_name: " Maya ", last_name: "Lopez", phone: "+1 352 555 0100", university_id: 2 });
    expect(res.status).toBe(200);
    const { data } = await json<{ data: Record<string, unknown> }>(res);
    expect(data).toMatchObject({ first_name: "Maya", last_name: "Lopez", phone: "+1 352 555 0100", university_id: 2 });
    expect((await json<{ data: { first_name: string } }>(await api("/api/v1/users/profile", authed(s.access_token)))).data.first_name).toBe("Maya");

    const bad = await patch(s.access_token, "/api/v1/users/profile", { first_name: "", phone: "call me" });
    expect(bad.status).toBe(422);

    for (const [method, path] of [
      ["GET", "/api/v1/users/profile"],
      ["PATCH", "/api/v1/users/profile"],
      ["DELETE", "/api/v1/users/profile"],
      ["GET", "/api/v1/users/stats"],
      ["GET", "/api/v1/users/preferences"],
      ["PATCH", "/api/v1/users/notifications"],
      ["POST", "/api/v1/users/avatar-base64"],
    ] as const) {
      expect((await api(path, { method, body: method === "GET" ? undefined : "{}" })).status).toBe(401);
    }
  });

  it("shows the public view of a user without email or phone, and 404 for an unknown id", async () => {
    const s = await signUp("pub@ufl.edu", "secret-pass-1", { phone: "555-0100" });
    const res = await api(`/api/v1/users/${s.user.id}`);
    const { data } = await json<{ data: Record<string, unknown> }>(res);
    expect(Object.keys(data).sort()).toEqual(["avatar_url", "created_at", "first_name", "id", "id_verified", "last_name", "renter_review_summary", "response_time", "review_summary", "school_email_domain", "university"]);
    expect(JSON.stringify(data)).not.toContain("pub@ufl.edu");
    expect(JSON.stringify(data)).not.toContain("555-0100");
    expect((await api("/api/v1/users/no-such-user")).status).toBe(404);
  });

  it("no answer about one user carries another user's hash, token or email", async () => {
    const a = await signUp("alpha@ufl.edu");
    const b = await signUp("beta@ufl.edu");
    const bodies = await Promise.all([
      api("/api/v1/users/profile", authed(a.access_token)).then((r) => r.text()),
      api(`/api/v1/users/${b.user.id}`, authed(a.access_token)).then((r) => r.text()),
      api("/api/v1/users/stats", authed(a.access_token)).then((r) => r.text()),
    ]);
    const hashes = await env.DB.prepare("SELECT password_hash FROM users").all<{ password_hash: string }>();
    for (const body of bodies) {
      expect(body).not.toContain("beta@ufl.edu");
      expect(body).not.toContain(b.refresh_token);
      expect(body).not.toContain(b.access_token);
      for (const { password_hash } of hashes.results) expect(body).not.toContain(password_hash.split("$")[5]);
    }
  });

  it("stores preferences and notification toggles", async () => {
    const s = await signUp("prefs@ufl.edu");
    const prefs = await patch(s.access_token, "/api/v1/users/preferences", { preferred_university_id: 5, preferred_term: "spring" });
    expect(await json(prefs)).toEqual({ data: { preferred_university_id: 5, preferred_term: "spring" } });
    expect((await patch(s.access_token, "/api/v1/users/preferences", { preferred_term: "winter" })).status).toBe(422);
    const toggles = await patch(s.access_token, "/api/v1/users/notifications", { email_on_message: false });
    expect(await json(toggles)).toEqual({
      data: {
        email_on_message: false,
        email_on_listing_review: true,
        email_on_verification_review: true,
        email_on_saved_search: true,
        // The older boolean is the `email` of its kind (docs/decisions/027).
        messages: { push: true, email: false },
        deals: { push: true, email: true },
        saved_searches: { push: true, email: true },
        reviews: { push: true, email: true },
        quiet_hours: null,
      },
    });
    const stats = await json(await api("/api/v1/users/stats", authed(s.access_token)));
    expect(stats).toEqual({ data: { listings: 0, favorites: 0, conversations: 0, unread_messages: 0 } });
  });
});

describe("avatar", () => {
  it("stores an image in R2, serves it with its real type, and deletes the old one", async () => {
    const s = await signUp("avatar@ufl.edu");
    const up = (image: string) => api("/api/v1/users/avatar-base64", authed(s.access_token, { method: "POST", body: JSON.stringify({ image_data: image }) }));
    const first = await json<{ avatar_url: string }>(await up(dataUrl(PNG_1x1, "image/jpeg")));
    expect(first.avatar_url).toMatch(/^\/api\/v1\/images\/avatars\/[0-9A-Za-z]+\.png$/);
    const image = await api(first.avatar_url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("cache-control")).toContain("immutable");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");

    const second = await json<{ avatar_url: string }>(await up(dataUrl(PNG_1x1)));
    expect(second.avatar_url).not.toBe(first.avatar_url);
    expect(await env.IMAGES.head(first.avatar_url.replace("/api/v1/images/", ""))).toBeNull();
    expect((await api(first.avatar_url)).status).toBe(404);
    const profile = await json<{ data: { avatar_url: string } }>(await api("/api/v1/users/profile", authed(s.access_token)));
    expect(profile.data.avatar_url).toBe(second.avatar_url);
  });

  it("refuses a PDF, garbage and anything over 10 MB", async () => {
    const s = await signUp("avatar2@ufl.edu");
    const up = (image: string) => api("/api/v1/users/avatar-base64", authed(s.access_token, { method: "POST", body: JSON.stringify({ image_data: image }) }));
    const pdf = await up(dataUrl(PDF, "image/png"));
    expect(pdf.status).toBe(400);
    expect(await json(pdf)).toEqual({ detail: "Please select an image file" });
    expect((await up("not base64 at all!")).status).toBe(400);
    const big = await up(`data:image/png;base64,${"A".repeat(Math.ceil((LIMITS.avatarMaxBytes + 10) / 3) * 4)}`);
    expect(big.status).toBe(413);
    expect(await json(big)).toEqual({ detail: "File size must be less than 10MB" });
  });
});

describe("account deletion", () => {
  it("removes the user, their listings, favourites, sessions and files; their sent messages stay", async () => {
    const s = await signUp("gone@ufl.edu");
    const other = await signUp("stays@ufl.edu");
    const avatar = await json<{ avatar_url: string }>(
      await api("/api/v1/users/avatar-base64", authed(s.access_token, { method: "POST", body: JSON.stringify({ image_data: dataUrl(PNG_1x1) }) })),
    );
    await env.IMAGES.put("listings/photo1.jpg", PNG_1x1);
    await env.DB.batch([
      env.DB.prepare("INSERT INTO listings (id, user_id, university_id, title, description, unit_type, address, monthly_rent, lease_term) VALUES ('l1', ?, 1, 't', 'd', 'studio', 'a', 900, 'fall')").bind(s.user.id),
      env.DB.prepare("INSERT INTO listing_photos (id, listing_id, key, position) VALUES ('p1', 'l1', 'listings/photo1.jpg', 0)"),
      env.DB.prepare("INSERT INTO favorites (user_id, listing_id) VALUES (?, 'l1')").bind(other.user.id),
      env.DB.prepare("INSERT INTO conversations (id, user_a, user_b) VALUES ('c1', ?, ?)").bind(s.user.id, other.user.id),
      env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, text) VALUES ('m1', 'c1', ?, 'hi')").bind(s.user.id),
    ]);

    expect((await api("/api/v1/users/profile", authed(other.access_token, { method: "DELETE" }))).status).toBe(204);
    // ^ the other user deleting themselves must not touch s's data; recreate other's view below.
    expect((await api("/api/v1/users/profile", authed(s.access_token, { method: "DELETE" }))).status).toBe(204);

    const counts = await env.DB.prepare(
      "SELECT (SELECT COUNT(*) FROM users WHERE email = 'gone@ufl.edu') u, (SELECT COUNT(*) FROM listings) l, (SELECT COUNT(*) FROM listing_photos) p, (SELECT COUNT(*) FROM refresh_tokens WHERE user_id = ?) t, (SELECT COUNT(*) FROM messages) m",
    )
      .bind(s.user.id)
      .first<Record<string, number>>();
    expect(counts).toEqual({ u: 0, l: 0, p: 0, t: 0, m: 1 });
    expect(await env.IMAGES.head("listings/photo1.jpg")).toBeNull();
    expect(await env.IMAGES.head(avatar.avatar_url.replace("/api/v1/images/", ""))).toBeNull();
    expect((await api("/api/v1/users/profile", authed(s.access_token))).status).toBe(401);
    expect((await post("/api/v1/auth/refresh-token", { refresh_token: s.refresh_token })).status).toBe(401);
  });
});

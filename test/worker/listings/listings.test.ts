import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { BrowseResponse, CreateListingResponse, OwnerListingResponse, OwnerListingsResponse } from "../../../worker/contract/listings";
import { api, authed, dataUrl, insertListing as insertOwnListing, JPEG_1x1, json, PDF, PNG_1x1, type Session, signUp } from "../helpers";


let owner: Session;
let other: Session;
let verified: Session;

const insertListing = (id: string, fields: Record<string, string | number | null> = {}) => insertOwnListing(owner.user.id, id, fields);

async function browse(query = ""): Promise<BrowseResponse> {
  const res = await api(`/api/v1/subleases/?${query}`);
  expect(res.status).toBe(200);
  return json<BrowseResponse>(res);
}

async function walk(query: string, limit: number, between?: () => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let token: string | null = null;
  for (let i = 0; i < 50; i++) {
    const page: BrowseResponse = await browse(`${query}&limit=${limit}${token ? `&last_evaluated_key=${encodeURIComponent(token)}` : ""}`);
    ids.push(...page.data.map((l) => l.id));
    if (between) await between();
    token = page.pagination.next_token;
    expect(page.pagination.has_more).toBe(token !== null);
    if (!token) break;
  }
  return ids;
}

beforeAll(async () => {
  owner = await signUp("owner@ufl.edu");
  other = await signUp("other@ufl.edu");
  verified = await signUp("verified@ufl.edu");
  await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(verified.user.id).run();
  const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const past = new Date(Date.now() - 86_400_000).toISOString();
  await insertListing("b01", { monthly_rent: 500, university_id: 2, lease_term: "spring", parking: 1 });
  await insertListing("b02", { monthly_rent: 900, unit_type: "studio", allow_pets: 1 });
  await insertListing("b03", { monthly_rent: 700, gender_preference: "female_preferred", title: "Quiet loft with balcony" });
  await insertListing("b04", { monthly_rent: 1200, promotion_start: past, promotion_end: future });
  await insertListing("b05", { monthly_rent: 650, promotion_start: past, promotion_end: past, description: "Near the stadium" });
  await insertListing("b06", { monthly_rent: 1000, verification_status: "pending" });
  await insertListing("b07", { monthly_rent: 1100, verification_status: "rejected" });
  await insertListing("b08", { monthly_rent: 1150, status: "taken" });
  await insertListing("b09", { monthly_rent: 750, address: "42 Gator Lane" });
  await insertListing("b10", { monthly_rent: 800, promotion_start: past, promotion_end: future, university_id: 2 });
});

describe("browse", () => {
  it("lists only approved, available listings, promoted first, newest next, with the spec's fields", async () => {
    const page = await browse();
    const ids = page.data.map((l) => l.id);
    expect(ids).toEqual(["b10", "b04", "b09", "b05", "b03", "b02", "b01"]);
    const first = page.data[0]!;
    expect(first).toMatchObject({ promoted: true, parking: false, allow_pets: false, university_name: expect.any(String), user_first_name: "Test" });
    expect(first.days_remaining).toBeGreaterThan(0);
    expect(page.data.find((l) => l.id === "b05")!.promoted).toBe(false);
  });

  it("filters by every attribute of the contract", async () => {
    const ids = async (q: string) => (await browse(q)).data.map((l) => l.id).sort();
    expect(await ids("university_id=2")).toEqual(["b01", "b10"]);
    expect(await ids("lease_term=spring")).toEqual(["b01"]);
    expect(await ids("unit_type=studio")).toEqual(["b02"]);
    expect(await ids("parking=true")).toEqual(["b01"]);
    expect(await ids("allow_pets=true")).toEqual(["b02"]);
    expect(await ids("gender_preference=female_preferred")).toEqual(["b03"]);
    expect(await ids("min_rent=700&max_rent=900")).toEqual(["b02", "b03", "b09", "b10"]);
    expect(await ids("q=balcony")).toEqual(["b03"]);
    expect(await ids("q=gator")).toEqual(["b09"]);
    // The house number is not searchable: only the street and area are (decision 024).
    expect(await ids("q=42")).toEqual([]);
    expect(await ids("q=stadi")).toEqual(["b05"]);
    expect(await ids("q=%22%3B%20DROP")).toEqual([]);
    expect(await ids("university_id=2&parking=true")).toEqual(["b01"]);
  });

  it("sorts by price both ways, promoted still first", async () => {
    expect((await browse("sort=price_asc")).data.map((l) => l.id)).toEqual(["b10", "b04", "b01", "b05", "b03", "b09", "b02"]);
    expect((await browse("sort=price_desc")).data.map((l) => l.id)).toEqual(["b04", "b10", "b02", "b09", "b03", "b05", "b01"]);
  });

  it("refuses bad parameters with 422 and a malformed page token with 400, never a 500", async () => {
    for (const q of ["sort=cheapest", "limit=0", "limit=101", "parking=yes", "unit_type=castle"]) {
      expect((await api(`/api/v1/subleases/?${q}`)).status).toBe(422);
    }
    const token = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const valid = { phase: "n", v: "2026-01-01T00:00:00.000Z", id: "b01", t: Date.now() };
    for (const bad of [
      "garbage",
      "%%%",
      token({ ...valid, t: 1e300 }),
      token({ ...valid, t: -1 }),
      token({ ...valid, v: { $gt: 1 } }),
      token({ ...valid, v: 1e300 }),
      token({ ...valid, phase: "x" }),
      token({ ...valid, id: 7 }),
      token([1, 2, 3]),
      token(null),
    ]) {
      const res = await api(`/api/v1/subleases/?last_evaluated_key=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(await json(res)).toEqual({ detail: "Invalid page token" });
    }
    expect((await api(`/api/v1/subleases/?last_evaluated_key=${token(valid)}`)).status).toBe(200);
  });

  it("walks every page once per listing, for every sort, even while listings are added", async () => {
    for (const sort of ["newest", "price_asc", "price_desc"]) {
      const ids = await walk(`sort=${sort}`, 2);
      expect(ids.length).toBe(7);
      expect(new Set(ids).size).toBe(7);
    }
    let added = 0;
    const ids = await walk("sort=newest", 2, async () => {
      added++;
      await insertListing(`c${added}`, { created_at: new Date().toISOString() });
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ["b10", "b04", "b09", "b05", "b03", "b02", "b01"]) expect(ids).toContain(id);
    await env.DB.prepare("DELETE FROM listings WHERE id LIKE 'c%'").run();
  });

  it("reads about as many rows as it returns on the newest page", async () => {
    const page = await browse("limit=3");
    expect(page.data.length).toBe(3);
    expect(page.meta.rows_read).toBeLessThanOrEqual(3 * 2 + 12);
  });

  it("a university's page 1 reads its own promotions, not every campus's", async () => {
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const rows = Array.from({ length: 60 }, (_, n) =>
      `('q${String(n).padStart(3, "0")}','${owner.user.id}',5,'Room ${n}','A room','2x2','${n} Main St',700,'fall','approved','available','2025-01-01T00:00:00.000Z','${future}')`,
    );
    await env.DB.prepare(
      `INSERT INTO listings (id,user_id,university_id,title,description,unit_type,address,monthly_rent,lease_term,verification_status,status,created_at,promotion_end) VALUES ${rows.join(",")}`,
    ).run();
    try {
      const page = await browse("university_id=1&limit=3");
      expect(page.data.map((l) => l.id)).toEqual(["b04", "b09", "b05"]);
      expect(page.meta.rows_read).toBeLessThanOrEqual(3 * 2 + 12);
      // Without a university every campus's promotion comes first, read in the sort's order from the
      // promoted listings' own index (docs/decisions/038): about a page, not all 60.
      const all = await browse("limit=4");
      expect(all.data.every((l) => l.promoted)).toBe(true);
      expect(all.meta.rows_read).toBeLessThanOrEqual(4 * 2 + 12);
    } finally {
      await env.DB.prepare("DELETE FROM listings WHERE id LIKE 'q%'").run();
    }
  });

  it("reads about as many rows as it returns on the newest page with a rent range, not every listing in the range", async () => {
    for (let i = 0; i < 300; i++) await insertListing(`r${String(i).padStart(3, "0")}`, { monthly_rent: 500 + i, created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() });
    try {
      const page = await browse("limit=5&min_rent=400&max_rent=5000");
      expect(page.data.length).toBe(5);
      expect(page.meta.rows_read).toBeLessThanOrEqual(5 * 2 + 12);
    } finally {
      await env.DB.prepare("DELETE FROM listings WHERE id LIKE 'r%'").run();
    }
  });

  it("sorted by price with a rent bound on the walk's side, every page reads about what it returns (not the pages before again)", async () => {
    for (let i = 0; i < 300; i += 100) {
      const rows = Array.from({ length: 100 }, (_, k) => i + k).map(
        (n) => `('p${String(n).padStart(3, "0")}','${owner.user.id}',1,'Room ${n}','A room','2x2','${n} Main St',${500 + n},'fall','approved','available','2025-01-01T00:00:00.000Z')`,
      );
      await env.DB.prepare(
        `INSERT INTO listings (id,user_id,university_id,title,description,unit_type,address,monthly_rent,lease_term,verification_status,status,created_at) VALUES ${rows.join(",")}`,
      ).run();
    }
    try {
      for (const query of ["sort=price_asc&min_rent=520", "sort=price_desc&max_rent=780"]) {
        let token: string | null = null;
        for (let n = 0; n < 6; n++) {
          const page: BrowseResponse = await browse(`${query}&limit=10${token ? `&last_evaluated_key=${encodeURIComponent(token)}` : ""}`);
          expect(page.data, `${query}, page ${n + 1}`).toHaveLength(10);
          expect(page.meta.rows_read, `${query}, page ${n + 1}`).toBeLessThanOrEqual(10 * 1.5);
          token = page.pagination.next_token;
        }
      }
    } finally {
      await env.DB.prepare("DELETE FROM listings WHERE id LIKE 'p%'").run();
    }
  });
});

describe("listing detail and visibility", () => {
  it("shows a public listing to everyone and a pending one only to its owner", async () => {
    expect((await api("/api/v1/subleases/b03")).status).toBe(200);
    const hidden = await api("/api/v1/subleases/b06");
    expect(hidden.status).toBe(404);
    expect(await json(hidden)).toEqual({ detail: "Listing not found" });
    expect((await api("/api/v1/subleases/b06", authed(other.access_token))).status).toBe(404);
    expect((await api("/api/v1/subleases/b06", authed(owner.access_token))).status).toBe(200);
    expect((await api("/api/v1/subleases/nope")).status).toBe(404);
  });

  it("lists the owner's listings in every state with include_unavailable", async () => {
    const all = await json<OwnerListingsResponse>(await api("/api/v1/users/listings?include_unavailable=true", authed(owner.access_token)));
    expect(all.data.map((l) => l.id)).toContain("b08");
    expect(all.data.map((l) => l.id)).toContain("b06");
    const available = await json<OwnerListingsResponse>(await api("/api/v1/users/listings", authed(owner.access_token)));
    expect(available.data.map((l) => l.id)).not.toContain("b08");
    expect((await json<OwnerListingsResponse>(await api("/api/v1/users/listings?include_unavailable=true", authed(other.access_token)))).data).toEqual([]);
  });
});

async function uploadPhotos(s: Session, images: { filename: string; bytes: Uint8Array }[]) {
  const res = await api(
    "/api/v1/upload/multiple-base64",
    authed(s.access_token, {
      method: "POST",
      body: JSON.stringify({ images: images.map((i) => ({ filename: i.filename, content_type: "image/jpeg", image_data: dataUrl(i.bytes) })) }),
    }),
  );
  return { status: res.status, body: await json<{ uploaded_files: { url: string }[]; failed_files: { filename: string; error: string }[] }>(res) };
}

const newListing = (pictures: string[]) => ({
  title: "Sunny 2x2 near campus",
  description: "A bright room",
  unit_type: "2x2",
  monthly_rent: 850,
  address: "12 Oak St, Gainesville, FL",
  lease_term: "spring",
  university_id: 3,
  parking: "true",
  allow_pets: "false",
  gender_preference: "no_preference",
  pictures,
});

describe("photos", () => {
  it("uploads images checked from the bytes, answers partial failures, and strips EXIF/GPS", async () => {
    // A JPEG with an APP1 Exif segment carrying a GPS-looking payload.
    const exif = new TextEncoder().encode("Exif\0\0GPSLatitude 29.6516 N");
    const segment = new Uint8Array([0xff, 0xe1, 0, exif.length + 2, ...exif]);
    const withExif = new Uint8Array([...JPEG_1x1.subarray(0, 2), ...segment, ...JPEG_1x1.subarray(2)]);
    const { status, body } = await uploadPhotos(verified, [
      { filename: "room.jpg", bytes: withExif },
      { filename: "doc.jpg", bytes: PDF },
      { filename: "empty.jpg", bytes: new Uint8Array() },
      { filename: "plan.png", bytes: PNG_1x1 },
    ]);
    expect(status).toBe(200);
    expect(body.uploaded_files.map((f) => f.url)).toHaveLength(2);
    expect(body.failed_files.map((f) => f.filename)).toEqual(["doc.jpg", "empty.jpg"]);
    const served = await api(body.uploaded_files[0]!.url);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect(new TextDecoder("latin1").decode(bytes)).not.toContain("GPSLatitude");
    expect(bytes.length).toBe(JPEG_1x1.length);
    expect((await api("/api/v1/upload/multiple-base64", { method: "POST", body: "{}" })).status).toBe(401);
    const tooMany = await uploadPhotos(verified, Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.jpg`, bytes: JPEG_1x1 })));
    expect(tooMany.status).toBe(422);
  });
});

describe("create, edit, delete", () => {
  it("only exactly verified users create; new listings are pending and carry their photos", async () => {
    const photos = await uploadPhotos(other, [{ filename: "a.jpg", bytes: JPEG_1x1 }]);
    const refused = await api("/api/v1/subleases/", authed(other.access_token, { method: "POST", body: JSON.stringify(newListing([photos.body.uploaded_files[0]!.url])) }));
    expect(refused.status).toBe(403);
    expect(await json(refused)).toEqual({ detail: "You must be verified to create a listing" });

    const mine = await uploadPhotos(verified, [{ filename: "a.jpg", bytes: JPEG_1x1 }, { filename: "b.png", bytes: PNG_1x1 }]);
    const urls = mine.body.uploaded_files.map((f) => f.url);
    const created = await api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify(newListing(urls)) }));
    expect(created.status).toBe(201);
    const { id, data } = await json<CreateListingResponse>(created);
    expect(data).toMatchObject({ id, verification_status: "pending", status: "available", parking: true, allow_pets: false, pictures: urls });
    expect((await api(`/api/v1/subleases/${id}`)).status).toBe(404);

    // Someone else's uploaded photo cannot be attached.
    const stolen = await api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify(newListing([photos.body.uploaded_files[0]!.url])) }));
    expect(stolen.status).toBe(422);
    // The API serves both client readings of the product (docs/product-rules.md "Limits"): the modal's 200/2000/300, not only the form's 35/1000.
    const long = await api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify({ ...newListing(urls), title: "x".repeat(201) }) }));
    expect(long.status).toBe(422);
    expect(await json(long)).toMatchObject({ detail: "Title must be at most 200 characters" });
    const longDescription = { ...newListing(urls), description: "d".repeat(2001) };
    expect((await api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify(longDescription) }))).status).toBe(422);
    const longAddress = { ...newListing(urls), address: "a".repeat(301) };
    expect((await api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify(longAddress) }))).status).toBe(422);
    const modal = await api(
      "/api/v1/subleases/",
      authed(verified.access_token, { method: "POST", body: JSON.stringify({ ...newListing(urls), title: "t".repeat(200), description: "d".repeat(2000), address: "a".repeat(300) }) }),
    );
    expect(modal.status).toBe(201);
    const none = await api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify(newListing([])) }));
    expect(await json(none)).toMatchObject({ detail: "Please upload at least one photo" });
  });

  it("edits: owner only (403 for another's public listing, 404 for another's pending one); material changes go back to review", async () => {
    expect((await api("/api/v1/subleases/b03", authed(other.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 1 }) }))).status).toBe(403);
    expect((await api("/api/v1/subleases/b06", authed(other.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 1 }) }))).status).toBe(404);

    const rent = await api("/api/v1/subleases/b09", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ monthly_rent: 760, status: "taken" }) }));
    expect(rent.status).toBe(200);
    expect((await json<OwnerListingResponse>(rent)).data).toMatchObject({ monthly_rent: 760, status: "taken", verification_status: "approved" });

    // Material changes (listing-visibility.test.ts has each rule; docs/decisions/015).
    const title = await api("/api/v1/subleases/b02", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ title: "Renamed studio" }) }));
    expect((await json<OwnerListingResponse>(title)).data.verification_status).toBe("pending");
    await env.DB.prepare("UPDATE listings SET verification_status = 'approved', status = 'available' WHERE id IN ('b02', 'b09')").run();
  });

  it("deletes: another's listing is 403, a missing one 404; the owner's goes with its photos", async () => {
    const photos = await uploadPhotos(verified, [{ filename: "x.jpg", bytes: JPEG_1x1 }]);
    const url = photos.body.uploaded_files[0]!.url;
    const { id } = await json<{ id: string }>(await api("/api/v1/subleases/", authed(verified.access_token, { method: "POST", body: JSON.stringify(newListing([url])) })));
    await env.DB.prepare("UPDATE listings SET verification_status = 'approved' WHERE id = ?").bind(id).run();
    const forbidden = await api(`/api/v1/subleases/${id}`, authed(other.access_token, { method: "DELETE" }));
    expect(forbidden.status).toBe(403);
    expect(await json(forbidden)).toEqual({ detail: "You are not authorized to delete this listing." });
    expect((await api("/api/v1/subleases/none", authed(other.access_token, { method: "DELETE" }))).status).toBe(404);
    expect((await api(`/api/v1/subleases/${id}`, authed(verified.access_token, { method: "DELETE" }))).status).toBe(204);
    expect((await api(`/api/v1/subleases/${id}`)).status).toBe(404);
    expect(await env.IMAGES.head(url.replace("/api/v1/images/", ""))).toBeNull();
  });
});

describe("moderation has its own state", () => {
  it("a listing hidden by staff stays hidden whatever its owner sends", async () => {
    await insertListing("m01", { title: "Moderated loft" });
    await env.DB.prepare("UPDATE listings SET moderation_status = 'hidden' WHERE id = 'm01'").run();
    const ids = async () => (await walk("sort=newest", 100)).filter((id) => id === "m01");
    expect(await ids()).toEqual([]);
    for (const status of ["available", "taken", "hidden", "available"]) {
      const res = await api("/api/v1/subleases/m01", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ status }) }));
      expect(res.status).toBe(200);
      expect((await json<OwnerListingResponse>(res)).data).toMatchObject({ status, moderation_status: "hidden" });
    }
    // The owner can still see it (and is told why); nobody else can, by any route.
    expect((await json<OwnerListingResponse>(await api("/api/v1/subleases/m01", authed(owner.access_token)))).data.moderation_status).toBe("hidden");
    expect((await api("/api/v1/subleases/m01")).status).toBe(404);
    expect((await api("/api/v1/subleases/m01", authed(other.access_token))).status).toBe(404);
    expect(await ids()).toEqual([]);
    const favourite = await api("/api/v1/favorites", authed(other.access_token, { method: "POST", body: JSON.stringify({ listing_id: "m01" }) }));
    expect(favourite.status).toBe(404);
    expect(await (await api("/listing/m01")).text()).not.toContain("og:title");
  });

  it("a listing staff hid before moderation had its own state stays hidden after the migration", async () => {
    await insertListing("old1", { status: "hidden" }); // hidden by staff, later shown again by staff
    await insertListing("old2", { status: "hidden" }); // hidden by staff
    await insertListing("old3", { status: "hidden" }); // hidden by its owner
    const edit = (id: string, status: string, at: string) =>
      env.DB.prepare("INSERT INTO admin_audit (id, actor, action, target_table, target_id, details, created_at) VALUES (?, 'admin', 'listing_edit', 'listings', ?, ?, ?)")
        .bind(`a-${id}-${at}`, id, JSON.stringify({ status }), at)
        .run();
    await edit("old1", "hidden", "2026-01-01T00:00:00.000Z");
    await edit("old1", "available", "2026-01-02T00:00:00.000Z");
    await edit("old2", "hidden", "2026-01-03T00:00:00.000Z");
    await env.DB.prepare("INSERT INTO admin_audit (id, actor, action, target_table, target_id, details) VALUES ('a-title', 'admin', 'listing_edit', 'listings', 'old2', ?)")
      .bind(JSON.stringify({ title: "Renamed" }))
      .run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0005_"))!;
    for (const query of migration.queries) await env.DB.prepare(query).run();
    const { results } = await env.DB.prepare("SELECT id, moderation_status FROM listings WHERE id LIKE 'old%' ORDER BY id").all();
    expect(results).toEqual([
      { id: "old1", moderation_status: "visible" },
      { id: "old2", moderation_status: "hidden" },
      { id: "old3", moderation_status: "visible" },
    ]);
  });

  it("a PATCH changes only what it sends: marking taken keeps parking, pets and preference", async () => {
    await insertListing("p01", { parking: 1, allow_pets: 1, gender_preference: "female_preferred" });
    const res = await api("/api/v1/subleases/p01", authed(owner.access_token, { method: "PATCH", body: JSON.stringify({ status: "taken" }) }));
    expect((await json<OwnerListingResponse>(res)).data).toMatchObject({ status: "taken", parking: true, allow_pets: true, gender_preference: "female_preferred" });
  });

  it("editing a rejected listing sends it back to review; changing its availability alone does not", async () => {
    await insertListing("r01", { verification_status: "rejected" });
    await env.DB.prepare("UPDATE listings SET rejection_reason = 'Blurry photos' WHERE id = 'r01'").run();
    const patch = (body: unknown) => api("/api/v1/subleases/r01", authed(owner.access_token, { method: "PATCH", body: JSON.stringify(body) }));
    const statusOnly = await json<OwnerListingResponse>(await patch({ status: "taken" }));
    expect(statusOnly.data).toMatchObject({ verification_status: "rejected", rejection_reason: "Blurry photos" });
    const priceFix = await json<OwnerListingResponse>(await patch({ monthly_rent: 820 }));
    expect(priceFix.data).toMatchObject({ verification_status: "pending", rejection_reason: null, monthly_rent: 820 });
  });
});

describe("link previews", () => {
  it("serves /listing/{id} with Open Graph and Twitter tags for a public listing, escaped", async () => {
    await env.DB.prepare("UPDATE listings SET title = ? WHERE id = 'b03'").bind('Loft "with" <balcony>').run();
    const res = await api("/listing/b03?back=%2F");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="Loft &quot;with&quot; &lt;balcony&gt; · $700/month">');
    expect(html).toContain('name="twitter:card"');
    expect(html).toContain('<div id="root">');
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const hidden = await (await api("/listing/b06")).text();
    expect(hidden).not.toContain("og:title");
    expect(hidden).toContain('<div id="root">');
  });

  it("inserts a title as typed, even one with replacement patterns like $& and $'", async () => {
    await env.DB.prepare("UPDATE listings SET title = ?, monthly_rent = 750 WHERE id = 'b09'").bind("Deal $& $' $` $$ room").run();
    const html = await (await api("/listing/b09")).text();
    expect(html).toContain("<title>Deal $&amp; $&#39; $` $$ room · $750/month · CampusNest</title>");
    expect(html).toContain('content="Deal $&amp; $&#39; $` $$ room · $750/month"');
    expect(html.match(/<html/g)).toHaveLength(1);
    expect(html.match(/<\/head>/g)).toHaveLength(1);
  });
});

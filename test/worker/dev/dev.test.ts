import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import { createDb } from "../../../worker/db/client";
import { getConfig } from "../../../worker/env";
import { sendEmail } from "../../../worker/services/email";
import { allowsGenderPreference } from "../../../worker/contract/policies";
import { seedDemoData } from "../../../worker/db/seed/seed";
import { LIGHT_SCRYPT_COST, verifyPassword } from "../../../worker/services/passwords";
import { api, json, stepClock } from "../helpers";

afterEach(() => vi.useRealTimers());

// A 1x1 JPEG: enough for the seeder, which only checks the signature and stores the bytes.
const JPEG_BASE64 =
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAA//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AN//Z";

describe("development mailbox", () => {
  it("lists kept emails for one address, newest first", async () => {
    const config = getConfig(env);
    await sendEmail(createDb(env), env, config, { to: "Ana@Example.com", subject: "first", text: "1", html: "<p>1</p>" });
    stepClock();
    await sendEmail(createDb(env), env, config, { to: "ana@example.com", subject: "second", text: "2", html: "<p>2</p>" });
    await sendEmail(createDb(env), env, config, { to: "bob@example.com", subject: "other", text: "3", html: "<p>3</p>" });

    const res = await api("/api/v1/dev/emails?to=ana%40example.com");
    expect(res.status).toBe(200);
    const { data } = await json<{ data: { to: string; subject: string; html: string; created_at: string }[] }>(res);
    expect(data.map((e) => e.subject)).toEqual(["second", "first"]);
    expect(data[0]).toMatchObject({ to: "ana@example.com", html: "<p>2</p>" });
    expect(Date.parse(data[0]!.created_at)).not.toBeNaN();
  });

  it("is 404 outside development", async () => {
    const app = createApp();
    for (const path of ["/api/v1/dev/emails", "/api/v1/dev/seed"]) {
      const res = await app.fetch(new Request(`http://localhost${path}`, { method: path.endsWith("seed") ? "POST" : "GET" }), {
        ...env,
        ENVIRONMENT: "production",
        PUBLIC_BASE_URL: "https://campusnest.example",
        STRIPE_SECRET_KEY: "sk_test_config",
        STRIPE_WEBHOOK_SECRET: "whsec_config_test",
      });
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ detail: "Not found" });
    }
  });
});

describe("demo data", () => {
  it("seeds an empty database once: users, 60+ approved listings over 8+ universities, photos in R2", async () => {
    // One photo per verified demo owner at least: each owner's listings show only their own photos.
    const kinds = ["bedroom", "living", "kitchen", "exterior"];
    const names = Array.from({ length: 10 }, (_, i) => `${String(i + 1).padStart(2, "0")}-${kinds[i % 4]}.jpg`);
    const photos = [...names, "01-bedroom.thumb.jpg"].map((name) => ({ name, data: JPEG_BASE64 }));
    const first = await seedDemoData(env, photos);
    expect(first).toMatchObject({ seeded: true, photos: 10 });
    expect(first.listings).toBeGreaterThanOrEqual(60);

    const stats = await env.DB.prepare(
      `SELECT COUNT(*) AS n, COUNT(DISTINCT university_id) AS unis, COUNT(DISTINCT unit_type) AS units,
              COUNT(DISTINCT lease_term) AS terms, COUNT(DISTINCT gender_preference) AS genders,
              SUM(parking) AS with_parking, SUM(allow_pets) AS with_pets, MIN(monthly_rent) AS min_rent,
              MAX(monthly_rent) AS max_rent
       FROM listings WHERE verification_status = 'approved' AND status = 'available'`,
    ).first<Record<string, number>>();
    expect(stats!.n).toBeGreaterThanOrEqual(60);
    expect(stats!.unis).toBeGreaterThanOrEqual(8);
    expect(stats!.units).toBeGreaterThanOrEqual(5);
    expect(stats!.terms).toBe(3);
    expect(stats!.genders).toBe(3);
    expect(stats!.with_parking).toBeGreaterThan(0);
    expect(stats!.with_pets).toBeGreaterThan(0);
    expect(stats!.max_rent).toBeGreaterThan(stats!.min_rent!);
    // Fair preferences (decision 018): no whole unit carries a gender preference.
    const { results: units } = await env.DB.prepare("SELECT DISTINCT unit_type FROM listings WHERE gender_preference != 'no_preference'").all<{ unit_type: string }>();
    expect(units.filter((u) => !allowsGenderPreference(u.unit_type))).toEqual([]);

    // Every demo listing has exact dates; all but a few have coordinates near their campus
    // (0.2 to 4 miles), and the distance stored is the one to their own university.
    const places = await env.DB.prepare(
      `SELECT COUNT(*) AS n, COUNT(available_from) AS dated, COUNT(latitude) AS placed, COUNT(distance_miles) AS measured,
              MIN(distance_miles) AS nearest, MAX(distance_miles) AS farthest,
              SUM(available_from < available_to) AS ordered, SUM(distance_miles <= 1) AS within_one
       FROM listings`,
    ).first<{ n: number; dated: number; placed: number; measured: number; nearest: number; farthest: number; ordered: number; within_one: number }>();
    expect(places!.dated).toBe(places!.n);
    expect(places!.ordered).toBe(places!.n);
    expect(places!.placed).toBe(places!.measured);
    expect(places!.n - places!.placed).toBeGreaterThanOrEqual(2);
    expect(places!.n - places!.placed).toBeLessThanOrEqual(3);
    expect(places!.nearest).toBeGreaterThanOrEqual(0.1);
    expect(places!.farthest).toBeLessThanOrEqual(4.1);
    expect(places!.within_one).toBeGreaterThan(0);
    const { results: measured } = await env.DB.prepare(
      `SELECT l.latitude AS lat, l.longitude AS lng, l.distance_miles AS miles, u.latitude AS ulat, u.longitude AS ulng
       FROM listings l JOIN universities u ON u.id = l.university_id WHERE l.latitude IS NOT NULL`,
    ).all<{ lat: number; lng: number; miles: number; ulat: number; ulng: number }>();
    const rad = (d: number) => (d * Math.PI) / 180;
    for (const m of measured) {
      const h = Math.sin(rad(m.ulat - m.lat) / 2) ** 2 + Math.cos(rad(m.lat)) * Math.cos(rad(m.ulat)) * Math.sin(rad(m.ulng - m.lng) / 2) ** 2;
      expect(Math.abs(2 * 3958.8 * Math.asin(Math.sqrt(h)) - m.miles)).toBeLessThanOrEqual(0.051);
    }

    // Every listing has photos, and every photo is really in the bucket.
    const orphan = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM listings l WHERE NOT EXISTS (SELECT 1 FROM listing_photos p WHERE p.listing_id = l.id)",
    ).first<{ n: number }>();
    expect(orphan!.n).toBe(0);
    const { results: keys } = await env.DB.prepare("SELECT DISTINCT key, thumb_key FROM listing_photos").all<{ key: string; thumb_key: string | null }>();
    for (const { key, thumb_key } of keys) {
      expect(await env.IMAGES.head(key)).not.toBeNull();
      if (thumb_key) expect(await env.IMAGES.head(thumb_key)).not.toBeNull();
    }
    expect(keys.filter((k) => k.thumb_key).length).toBe(1);

    // Demo logins: hashed with scrypt (at the suite's light cost here, set by test/worker/setup.ts; `npm
    // start` seeds in `wrangler dev`, where nothing lowers the defaults), the README's passwords work.
    const lister = await env.DB.prepare("SELECT password_hash, id_verification_status FROM users WHERE email = ?")
      .bind("lister@campusnest.dev")
      .first<{ password_hash: string; id_verification_status: string }>();
    expect(lister!.id_verification_status).toBe("verified");
    expect(lister!.password_hash).toMatch(new RegExp(`^scrypt\\$${LIGHT_SCRYPT_COST.N}\\$${LIGHT_SCRYPT_COST.r}\\$${LIGHT_SCRYPT_COST.p}\\$`));
    expect(await verifyPassword("lister-demo-123", lister!.password_hash)).toBe(true);
    const student = await env.DB.prepare("SELECT id_verification_status FROM users WHERE email = ?")
      .bind("student@campusnest.dev")
      .first<{ id_verification_status: string }>();
    expect(student!.id_verification_status).toBe("unverified");

    // Every demo listing stores its public address (decision 024): the street and area, no house number.
    const addresses = await env.DB.prepare("SELECT address, address_public FROM listings").all<{ address: string; address_public: string | null }>();
    for (const row of addresses.results) {
      expect(row.address).toMatch(/^\d+ /);
      expect(row.address_public).toBe(row.address.replace(/^\d+ /, ""));
    }

    // Running it again keeps the data as it is, and fills a public address an older database lacks.
    const old = addresses.results[0]!;
    await env.DB.prepare("UPDATE listings SET address_public = NULL WHERE address = ?").bind(old.address).run();
    const second = await seedDemoData(env, photos);
    expect(second.seeded).toBe(false);
    expect(second.publicAddresses).toBeGreaterThanOrEqual(1);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM listings WHERE address_public IS NULL").first<{ n: number }>()).toEqual({ n: 0 });
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM listings").first<{ n: number }>();
    expect(after!.n).toBe(stats!.n);
  });

  it("refuses a photo that is not a JPEG and writes no rows", async () => {
    await env.DB.exec("DELETE FROM listing_photos; DELETE FROM listings; DELETE FROM users;");
    const res = await api("/api/v1/dev/seed", {
      method: "POST",
      body: JSON.stringify({ photos: [{ name: "x.jpg", data: btoa("<html>not an image</html>") }] }),
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ detail: "Seed photo x.jpg is not a JPEG" });
    const users = await env.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>();
    expect(users!.n).toBe(0);
  });

  it("lists every demo listing under its owner's university, by verified owners only", async () => {
    await env.DB.exec("DELETE FROM listing_photos; DELETE FROM listings; DELETE FROM users;");
    const result = await seedDemoData(env, [{ name: "01-bedroom.jpg", data: JPEG_BASE64 }]);
    expect(result.seeded).toBe(true);
    const { results } = await env.DB.prepare(
      `SELECT l.id, l.university_id AS listing_university, u.university_id AS owner_university, u.id_verification_status AS owner_status
       FROM listings l JOIN users u ON u.id = l.user_id`,
    ).all<{ id: string; listing_university: number; owner_university: number; owner_status: string }>();
    expect(results).toHaveLength(result.listings);
    expect(results.filter((r) => r.listing_university !== r.owner_university)).toEqual([]);
    expect(new Set(results.map((r) => r.owner_status))).toEqual(new Set(["verified"]));
  });
});

describe("demo data and the edge cache", () => {
  const browse = async () => {
    const res = await api("/api/v1/subleases");
    expect(res.status).toBe(200);
    return { status: res.headers.get("X-Edge-Cache"), ids: (await json<{ data: { id: string }[] }>(res)).data.map((l) => l.id) };
  };
  const home = async () => {
    const res = await api("/");
    expect(res.status).toBe(200);
    return { status: res.headers.get("X-Edge-Cache"), html: await res.text() };
  };

  it("never serves the empty first page cached before or while seeding once the seed is in", async () => {
    await env.DB.exec("DELETE FROM listing_photos; DELETE FROM listings; DELETE FROM users;");
    // The newcomer's first view, before the data is in: empty, and stored at the edge.
    expect(await browse()).toEqual({ status: "MISS", ids: [] });
    expect((await home()).html).toContain("No listings match your search");
    expect((await browse()).status).toBe("HIT");
    expect((await home()).status).toBe("HIT");

    // Requests while the seed runs (answered from the old entries or not: either way not afterwards).
    const seeding = seedDemoData(env, [{ name: "01-bedroom.jpg", data: JPEG_BASE64 }]);
    const during = await Promise.all([browse(), home()]);
    expect(during.map((r) => r.status).every((s) => s === "HIT" || s === "MISS" || s === "STALE")).toBe(true);
    expect((await seeding).seeded).toBe(true);

    const after = await browse();
    expect(after.status).toBe("MISS");
    expect(after.ids.length).toBeGreaterThan(0);
    const page = await home();
    expect(page.status).toBe("MISS");
    expect(page.html).not.toContain("No listings match your search");
    expect(page.html).toContain(`/listing/${after.ids[0]}`);
  });
});

/**
 * Geocoding for every provider (docs/decisions/024): Google Places Autocomplete and Place
 * Details and Nominatim against fakes at the HTTP boundary (the request each sends is asserted), the
 * development geocoder end to end through the API, forged tokens refused, and production never using
 * the development geocoder.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import type { AddressSuggestion, CreateListingResponse, ResolvedPlace } from "../../../worker/contract/listings";
import { GEOCODING } from "../../../worker/contract/constants";
import { createDb } from "../../../worker/db/client";
import { sha256Hex } from "../../../worker/lib/encoding";
import { LOCATION_TOKEN_REFUSED, signLocationToken, signPlaceId } from "../../../worker/services/geo-token";
import { GEOCODING_GLOBAL_CAP_REACHED, GEOCODING_UNIVERSITY_CAP_REACHED, GEOCODING_USER_CAP_REACHED, geoProvider, spendGeocodingCall, suggestAddresses } from "../../../worker/services/geo";
import { api, authed, dataUrl, JPEG_1x1, json, type Session, signUp } from "../helpers";

afterEach(() => vi.restoreAllMocks());

/** University of Florida (id 49): IPEDS HD2022 campus (migration 0012). */
const UF = { id: 49, latitude: 29.64629, longitude: -82.347911 };
const SESSION = "7f0c2a9e-4b1d-4c3e-9a51-2f6d8e0b1c77";
const GOOGLE = { GEO_PROVIDER: "google", GOOGLE_PLACES_API_KEY: "test-key", GOOGLE_PLACES_URL: "https://places.test/v1/places:autocomplete", GOOGLE_PLACES_DETAILS_URL: "https://places.test/v1/places" };
/** The production bindings of test/worker/hardening.test.ts. */
const PRODUCTION = { ENVIRONMENT: "production", STRIPE_SECRET_KEY: "sk_test_config", STRIPE_WEBHOOK_SECRET: "whsec_config_test", PUBLIC_BASE_URL: "https://campusnest.example" };

/** A request to the app with these bindings over the test's (the development geocoder needs an empty GEO_PROVIDER), as `who` (the lister by default). */
const call = (path: string, vars: Record<string, string>, who: Session | null = lister) =>
  createApp().fetch(new Request(`http://localhost/api/v1/geo/${path}`, who ? authed(who.access_token) : {}), { ...env, ...vars } as Env);
/** A place id as the server hands it out with a suggestion, to `who` in `session` (services/geo-token). */
const handedOut = async (placeId: string, session: string | null = SESSION, who: Session = lister, now = Date.now()) =>
  (await signPlaceId(env.JWT_SECRET, placeId, { userId: who.user.id, session }, now + GEOCODING.placeIdTtlMs))!;

function haversineMiles(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const r = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(r(b.latitude - a.latitude) / 2) ** 2 + Math.cos(r(a.latitude)) * Math.cos(r(b.latitude)) * Math.sin(r(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.sqrt(h));
}

let lister: Session;
let photo: string;

beforeAll(async () => {
  lister = await signUp("geo-lister@ufl.edu");
  await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(lister.user.id).run();
  const res = await api(
    "/api/v1/upload/multiple-base64",
    authed(lister.access_token, { method: "POST", body: JSON.stringify({ images: [{ filename: "room.jpg", content_type: "image/jpeg", image_data: dataUrl(JPEG_1x1) }] }) }),
  );
  photo = (await json<{ uploaded_files: { url: string }[] }>(res)).uploaded_files[0]!.url;
});

const listingAt = (place: { address: string; latitude?: number | null; longitude?: number | null; location_token?: string | null }) => ({
  title: "Room near campus",
  description: "A bright room",
  unit_type: "2x2",
  monthly_rent: 850,
  lease_term: "fall",
  university_id: UF.id,
  pictures: [photo],
  ...place,
});
const create = (body: unknown) => api("/api/v1/subleases/", authed(lister.access_token, { method: "POST", body: JSON.stringify(body) }));

describe("Google Places (New)", () => {
  it("sends autocomplete the key, the session token and the campus bias, and answers place ids without coordinates", async () => {
    const seen: Request[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      seen.push(new Request(input as RequestInfo, init));
      return Response.json({
        suggestions: [
          { placePrediction: { placeId: "ChIJ_one", text: { text: "1 Main St, Gainesville, FL, USA" } } },
          { queryPrediction: { text: { text: "main street" } } },
          { placePrediction: { placeId: "ChIJ_two", text: { text: "1 Main St, Alachua, FL, USA" } } },
          // An id of another shape is never handed out (nor ever sent to Place Details).
          { placePrediction: { placeId: "../../places:x", text: { text: "1 Main Rd, Ocala, FL, USA" } } },
        ],
      });
    });
    const res = await call(`autocomplete?q=1%20Main&university_id=${UF.id}&session=${SESSION}`, GOOGLE);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      data: [
        { description: "1 Main St, Gainesville, FL, USA", lat: null, lng: null, place_id: await handedOut("ChIJ_one") },
        { description: "1 Main St, Alachua, FL, USA", lat: null, lng: null, place_id: await handedOut("ChIJ_two") },
        { description: "1 Main Rd, Ocala, FL, USA", lat: null, lng: null },
      ],
    });
    expect(seen).toHaveLength(1);
    const [req] = seen as [Request];
    expect(req.method).toBe("POST");
    expect(req.url).toBe("https://places.test/v1/places:autocomplete");
    expect(req.headers.get("X-Goog-Api-Key")).toBe("test-key");
    expect(req.headers.get("Content-Type")).toBe("application/json");
    expect(await req.json()).toEqual({
      input: "1 Main",
      includedRegionCodes: ["us"],
      locationBias: { circle: { center: { latitude: UF.latitude, longitude: UF.longitude }, radius: 50000 } },
      sessionToken: SESSION,
    });
  });

  it("resolves a place id with Place Details (field mask, session token) into coordinates a listing accepts", async () => {
    const seen: Request[] = [];
    const spot = { latitude: 29.6521, longitude: -82.3302 };
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      seen.push(new Request(input as RequestInfo, init));
      return Response.json({ formattedAddress: "1 Main St, Gainesville, FL 32601, USA", location: spot });
    });
    const res = await call(`place?place_id=${await handedOut("ChIJ_one")}&session=${SESSION}`, GOOGLE);
    expect(res.status).toBe(200);
    const { data } = await json<{ data: ResolvedPlace }>(res);
    expect(data).toEqual({
      description: "1 Main St, Gainesville, FL 32601, USA",
      lat: spot.latitude,
      lng: spot.longitude,
      location_token: await signLocationToken(env.JWT_SECRET, "1 Main St, Gainesville, FL 32601, USA", spot),
    });
    const [req] = seen as [Request];
    expect(seen).toHaveLength(1);
    expect(req.method).toBe("GET");
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe("https://places.test/v1/places/ChIJ_one");
    expect(url.searchParams.get("sessionToken")).toBe(SESSION);
    expect(req.headers.get("X-Goog-Api-Key")).toBe("test-key");
    expect(req.headers.get("X-Goog-FieldMask")).toBe("location,formattedAddress");
    vi.restoreAllMocks();

    const created = await create(listingAt({ address: data.description, latitude: data.lat, longitude: data.lng, location_token: data.location_token }));
    expect(created.status).toBe(201);
    const listing = (await json<CreateListingResponse>(created)).data;
    expect(listing.distance_miles).toBe(Math.round(haversineMiles(spot, UF) * 10) / 10);
  });

  it("answers 404 with a readable detail for an unknown place, 502 when Google fails, 404 with another provider", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(Response.json({ error: { code: 404, status: "NOT_FOUND" } }, { status: 404 }));
    const unknown = await call(`place?place_id=${await handedOut("ChIJ_gone")}&session=${SESSION}`, GOOGLE);
    expect(unknown.status).toBe(404);
    expect((await json<{ detail: string }>(unknown)).detail).toBe("This address could not be found on the map. Pick another suggestion, or keep the address as typed.");
    // A place without a location is as good as unknown.
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(Response.json({ formattedAddress: "Somewhere" }));
    expect((await call(`place?place_id=${await handedOut("ChIJ_nowhere", null)}`, GOOGLE)).status).toBe(404);
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(new Response("down", { status: 503 }));
    const down = await call(`place?place_id=${await handedOut("ChIJ_down", null)}`, GOOGLE);
    expect(down.status).toBe(502);
    expect((await json<{ detail: string }>(down)).detail).toBe("The map service did not answer. Try picking the address again in a moment.");

    vi.restoreAllMocks();
    const spy = vi.spyOn(globalThis, "fetch");
    expect((await call(`place?place_id=${await handedOut("ChIJ_one", null)}`, { GEO_PROVIDER: "nominatim" })).status).toBe(404);
    expect((await call(`place?place_id=${await handedOut("ChIJ_one", null)}`, { GEO_PROVIDER: "" })).status).toBe(404);
    expect((await call("place?place_id=", GOOGLE)).status).toBe(422);
    expect(spy).not.toHaveBeenCalled();
  });
});

describe("geocoding that cannot be abused", () => {
  // Fixed days (Date only; timers stay real): the caps are UTC days, the cache 30 of them.
  const DAY = Date.parse("2031-05-05T12:00:00.000Z");
  afterEach(() => vi.useRealTimers());
  /** A verified user signed in at the faked moment (an access token lives 15 minutes of that clock). */
  const verifiedUser = async (email: string) => {
    const user = await signUp(email);
    await env.DB.prepare("UPDATE users SET id_verification_status = 'verified' WHERE id = ?").bind(user.user.id).run();
    return user;
  };

  it("answers only signed-in, ID-verified users: 401 signed out, 403 unverified, and Google is never asked", async () => {
    const student = await signUp("geo-unverified@ufl.edu");
    const spy = vi.spyOn(globalThis, "fetch");
    const place = await handedOut("ChIJ_one");
    for (const path of [`autocomplete?q=1%20Main&session=${SESSION}`, `place?place_id=${place}&session=${SESSION}`]) {
      const anonymous = await call(path, GOOGLE, null);
      expect(anonymous.status, path).toBe(401);
      expect(await json(anonymous)).toEqual({ detail: "Not authenticated" });
      const unverified = await call(path, GOOGLE, student);
      expect(unverified.status, path).toBe(403);
      expect((await json<{ detail: string }>(unverified)).detail).toMatch(/ID-verified/);
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it("resolves only a place id it handed out to this user in this session, still live, and never calls Google for another", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(DAY);
    const me = await verifiedUser("geo-guarded-lister@ufl.edu");
    const other = await verifiedUser("geo-other-lister@ufl.edu");
    const spy = vi.spyOn(globalThis, "fetch");
    const good = await handedOut("ChIJ_guarded", SESSION, me);
    const [id, expiry, mac] = good.split(".") as [string, string, string];
    const refusals: [string, number][] = [
      ["ChIJ_guarded", 422], // Google's bare id: not one this server handed out
      [`..%2F..%2Fplaces:autocomplete.${expiry}.${mac}`, 422], // not a place id's shape
      [`ChIJ_elsewhere.${expiry}.${mac}`, 404], // the signature of another id
      [`${id}.${Number(expiry) + 3600}.${mac}`, 404], // a longer life than it was given
      [await handedOut("ChIJ_guarded", SESSION, other), 404], // handed to someone else
      [await handedOut("ChIJ_guarded", "another-session-1", me), 404], // in another session
      [await handedOut("ChIJ_guarded", SESSION, me, DAY - GEOCODING.placeIdTtlMs - 1), 404], // expired
    ];
    for (const [placeId, status] of refusals) {
      const res = await call(`place?place_id=${placeId}&session=${SESSION}`, GOOGLE, me);
      expect(res.status, placeId).toBe(status);
      expect((await json<{ detail: string }>(res)).detail).toEqual(expect.any(String));
    }
    expect(spy).not.toHaveBeenCalled();
    // The id as handed out resolves.
    spy.mockResolvedValue(Response.json({ formattedAddress: "9 Guarded Way, Gainesville, FL", location: { latitude: 29.64, longitude: -82.33 } }));
    expect((await call(`place?place_id=${good}&session=${SESSION}`, GOOGLE, me)).status).toBe(200);
    expect(spy).toHaveBeenCalledOnce();
  });

  it("caps calls per user and for everyone each UTC day: 429 {detail, retry_after} until the next day", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(DAY + 86_400_000);
    const db = createDb(env);
    const heavy = await verifiedUser("geo-heavy@ufl.edu");
    const light = await verifiedUser("geo-light@ufl.edu");
    for (let i = 0; i < GEOCODING.callsPerUserPerDay; i++) await spendGeocodingCall(db, { id: heavy.user.id, universityId: null });
    const spy = vi.spyOn(globalThis, "fetch");
    const capped = await call("autocomplete?q=1%20Main", GOOGLE, heavy);
    expect(capped.status).toBe(429);
    expect(await json(capped)).toEqual({ detail: GEOCODING_USER_CAP_REACHED, retry_after: 12 * 3600 });
    expect((await call(`place?place_id=${await handedOut("ChIJ_one", null, heavy)}`, GOOGLE, heavy)).status).toBe(429);
    expect(spy).not.toHaveBeenCalled();
    // Someone else today is not affected by that user's cap...
    spy.mockResolvedValue(Response.json({ suggestions: [] }));
    expect((await call("autocomplete?q=1%20Main", GOOGLE, light)).status).toBe(200);
    // ...but everyone meets the global one.
    const dayStart = DAY + 86_400_000 - ((DAY + 86_400_000) % 86_400_000);
    await env.DB.prepare("UPDATE auth_throttle SET failures = ? WHERE key = ? AND window_start = ?")
      .bind(GEOCODING.callsPerDay, await sha256Hex("geo-day:all"), dayStart)
      .run();
    spy.mockClear();
    const everyone = await call("autocomplete?q=1%20Main", GOOGLE, light);
    expect(everyone.status).toBe(429);
    expect(await json(everyone)).toEqual({ detail: GEOCODING_GLOBAL_CAP_REACHED, retry_after: 12 * 3600 });
    expect(spy).not.toHaveBeenCalled();
    // The next UTC day starts afresh.
    vi.setSystemTime(DAY + 2 * 86_400_000);
    const tomorrow = await verifiedUser("geo-heavy-tomorrow@ufl.edu");
    await spendGeocodingCall(db, { id: tomorrow.user.id, universityId: null }); // the global count of the new day starts afresh
    expect((await call("autocomplete?q=1%20Main", GOOGLE, tomorrow)).status).toBe(200);
    await expect(spendGeocodingCall(db, { id: heavy.user.id, universityId: null })).resolves.toBeUndefined();
  });

  it("caps each university's accounts together too: one campus cannot spend another's, and refused calls spend nobody's count", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(DAY + 5 * 86_400_000);
    const dayStart = DAY + 5 * 86_400_000 - ((DAY + 5 * 86_400_000) % 86_400_000);
    const count = async (name: string) =>
      (await env.DB.prepare("SELECT failures FROM auth_throttle WHERE key = ? AND window_start = ?").bind(await sha256Hex(name), dayStart).first<{ failures: number }>())?.failures ?? 0;
    const campusA = await verifiedUser("geo-campus-a@ufl.edu");
    const campusAOther = await verifiedUser("geo-campus-a2@ufl.edu");
    const campusB = await verifiedUser("geo-campus-b@ufl.edu");
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET university_id = 1 WHERE id IN (?, ?)").bind(campusA.user.id, campusAOther.user.id),
      env.DB.prepare("UPDATE users SET university_id = 2 WHERE id = ?").bind(campusB.user.id),
    ]);
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ suggestions: [] }));
    expect((await call("autocomplete?q=1%20Main", GOOGLE, campusA)).status).toBe(200);
    expect([await count("geo-day:university:1"), await count("geo-day:all")]).toEqual([1, 1]);
    // Campus 1's accounts have used its share (many accounts, each within its own cap).
    await env.DB.prepare("UPDATE auth_throttle SET failures = ? WHERE key = ? AND window_start = ?").bind(GEOCODING.callsPerUniversityPerDay, await sha256Hex("geo-day:university:1"), dayStart).run();
    spy.mockClear();
    const capped = await call("autocomplete?q=1%20Main", GOOGLE, campusAOther);
    expect(capped.status).toBe(429);
    expect(await json(capped)).toEqual({ detail: GEOCODING_UNIVERSITY_CAP_REACHED, retry_after: 12 * 3600 });
    expect(spy).not.toHaveBeenCalled();
    // Refused: the user's count was taken back, and everyone's did not move.
    expect([await count(`geo-day:${campusAOther.user.id}`), await count("geo-day:all")]).toEqual([0, 1]);
    // Another campus still has its own.
    expect((await call("autocomplete?q=1%20Main", GOOGLE, campusB)).status).toBe(200);
    expect(await count("geo-day:all")).toBe(2);

    // A user at their own cap who keeps calling spends nothing of their campus's or everyone's count.
    const db = createDb(env);
    const b = { id: campusB.user.id, universityId: 2 };
    for (let i = 1; i < GEOCODING.callsPerUserPerDay; i++) await spendGeocodingCall(db, b);
    const [campusBefore, allBefore] = [await count("geo-day:university:2"), await count("geo-day:all")];
    for (let i = 0; i < 5; i++) await expect(spendGeocodingCall(db, b)).rejects.toThrow();
    expect([await count("geo-day:university:2"), await count("geo-day:all")]).toEqual([campusBefore, allBefore]);
  });

  it("caches a place's coordinates for at most 30 days (Google's terms)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = DAY + 10 * 86_400_000;
    vi.setSystemTime(start);
    const spy = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation(async () => Response.json({ formattedAddress: "5 Cached Ct, Gainesville, FL", location: { latitude: 29.61, longitude: -82.31 } }));
    const resolve = async () => {
      const who = await verifiedUser(`geo-cache-${Date.now()}@ufl.edu`);
      const res = await call(`place?place_id=${await handedOut("ChIJ_cached", null, who)}`, GOOGLE, who);
      expect(res.status).toBe(200);
      return (await json<{ data: ResolvedPlace }>(res)).data;
    };
    const first = await resolve();
    expect(spy).toHaveBeenCalledTimes(1);
    // Another pick of the same place within 30 days: from the cache, the same answer and token.
    vi.setSystemTime(start + GEOCODING.placeCacheMs - 1);
    expect(await resolve()).toEqual(first);
    expect(spy).toHaveBeenCalledTimes(1);
    // After 30 days Google is asked again.
    vi.setSystemTime(start + GEOCODING.placeCacheMs + 1);
    expect(await resolve()).toEqual(first);
    expect(spy).toHaveBeenCalledTimes(2);
    // And the cron deletes coordinates older than 30 days.
    const { deleteStalePlaces } = await import("../../../worker/services/geo");
    await deleteStalePlaces(createDb(env), start + 2 * GEOCODING.placeCacheMs + 2);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM place_cache WHERE place_id = 'ChIJ_cached'").first<{ n: number }>()).toEqual({ n: 0 });
  });
});

describe("Nominatim", () => {
  it("asks for US addresses in a box around the chosen campus, as JSON, 5 at most", async () => {
    const seen: Request[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      seen.push(new Request(input as RequestInfo, init));
      return Response.json([{ display_name: "13 SW 13th St, Gainesville, FL", lat: "29.6488", lon: "-82.3433" }]);
    });
    const res = await call(`autocomplete?q=13th%20St&university_id=${UF.id}&session=${SESSION}`, { GEO_PROVIDER: "nominatim", NOMINATIM_URL: "https://nominatim.test/search" });
    const { data } = await json<{ data: AddressSuggestion[] }>(res);
    expect(data).toEqual([
      {
        description: "13 SW 13th St, Gainesville, FL",
        lat: 29.6488,
        lng: -82.3433,
        location_token: await signLocationToken(env.JWT_SECRET, "13 SW 13th St, Gainesville, FL", { latitude: 29.6488, longitude: -82.3433 }),
      },
    ]);
    const [req] = seen as [Request];
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe("https://nominatim.test/search");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "13th St",
      format: "jsonv2",
      countrycodes: "us",
      limit: "5",
      viewbox: `${UF.longitude - 1},${UF.latitude + 1},${UF.longitude + 1},${UF.latitude - 1}`,
    });
    expect(req.headers.get("User-Agent")).toMatch(/^CampusNest\//);
  });
});

describe("the development geocoder", () => {
  it("answers 3 marked, deterministic addresses 0.3 to 3 miles from the campus, and a listing created with one gets its distance", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    const ask = () => call(`autocomplete?q=42%20Oak%20Lane&university_id=${UF.id}`, { GEO_PROVIDER: "" });
    const res = await ask();
    expect(res.status).toBe(200);
    const { data } = await json<{ data: AddressSuggestion[] }>(res);
    expect(spy).not.toHaveBeenCalled();
    expect(data).toHaveLength(3);
    expect(new Set(data.map((s) => s.description)).size).toBe(3);
    for (const s of data) {
      expect(s.description).toMatch(/^42 Oak Lane, .*University of Florida \(development address\)$/);
      const miles = haversineMiles({ latitude: s.lat!, longitude: s.lng! }, UF);
      expect(miles).toBeGreaterThanOrEqual(0.29);
      expect(miles).toBeLessThanOrEqual(3.01);
      expect(s.location_token).toMatch(/^v1\./);
    }
    // Deterministic: the same query answers the same places.
    expect((await json<{ data: AddressSuggestion[] }>(await ask())).data).toEqual(data);
    // Without a university: near Gainesville's bias point, said so.
    const plain = (await json<{ data: AddressSuggestion[] }>(await call("autocomplete?q=42%20Oak%20Lane", { GEO_PROVIDER: "" }))).data;
    expect(plain[0]!.description).toBe("42 Oak Lane, Gainesville, FL (development address)");

    // Through the public API, as a client would: the picked suggestion's fields go into the create.
    const pick = data[1]!;
    const created = await create(listingAt({ address: pick.description, latitude: pick.lat, longitude: pick.lng, location_token: pick.location_token }));
    expect(created.status).toBe(201);
    const listing = (await json<CreateListingResponse>(created)).data;
    expect(listing.distance_miles).toBe(Math.round(haversineMiles({ latitude: pick.lat!, longitude: pick.lng! }, UF) * 10) / 10);
    expect(listing.distance_miles).toBeGreaterThanOrEqual(0.3);
    expect(listing.distance_miles).toBeLessThanOrEqual(3);
  });

  it("refuses forged tokens: coordinates moved, another address, or a made-up token", async () => {
    const [pick, other] = (await json<{ data: AddressSuggestion[] }>(await call("autocomplete?q=7%20Elm%20Street&university_id=49", { GEO_PROVIDER: "" }))).data as [
      AddressSuggestion,
      AddressSuggestion,
    ];
    for (const forged of [
      { address: pick.description, latitude: UF.latitude, longitude: UF.longitude, location_token: pick.location_token },
      { address: other.description, latitude: pick.lat, longitude: pick.lng, location_token: pick.location_token },
      { address: pick.description, latitude: pick.lat, longitude: pick.lng, location_token: "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
      { address: pick.description, latitude: pick.lat, longitude: pick.lng },
    ]) {
      const res = await create(listingAt(forged));
      expect(res.status).toBe(422);
      expect(await json(res)).toMatchObject({ errors: [{ path: "address", message: LOCATION_TOKEN_REFUSED }] });
    }
  });

  it("is never used outside development: production and test configuration answer no suggestions", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    for (const environment of ["production", "test"]) {
      for (const provider of ["", "development"]) {
        const res = await call("autocomplete?q=42%20Oak%20Lane&university_id=49", { ...PRODUCTION, ENVIRONMENT: environment, GEO_PROVIDER: provider });
        expect(res.status, `${environment} ${provider}`).toBe(200);
        expect(await json(res), `${environment} ${provider}`).toEqual({ data: [] });
      }
    }
    expect(spy).not.toHaveBeenCalled();
    const bindings = (vars: Record<string, string>) => ({ ...env, ...vars }) as Env;
    expect(geoProvider(bindings({ GEO_PROVIDER: "" }), { isDevelopment: false })).toBeNull();
    expect(geoProvider(bindings({ GEO_PROVIDER: "development" }), { isDevelopment: false })).toBeNull();
    expect(geoProvider(bindings({ GEO_PROVIDER: "" }), { isDevelopment: true })).toBe("development");
    // "none" turns it off in development too; google without a key is none.
    expect(geoProvider(bindings({ GEO_PROVIDER: "none" }), { isDevelopment: true })).toBeNull();
    expect(geoProvider(bindings({ GEO_PROVIDER: "google", GOOGLE_PLACES_API_KEY: "" }), { isDevelopment: true })).toBeNull();
    expect(await suggestAddresses(bindings({ GEO_PROVIDER: "" }), "42 Oak Lane", { config: { isDevelopment: false } })).toEqual([]);
  });
});

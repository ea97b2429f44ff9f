/**
 * Geocoding for every provider (issue 27, items 1, 2 and 6): Google Places Autocomplete and Place
 * Details and Nominatim against fakes at the HTTP boundary (the request each sends is asserted), the
 * development geocoder end to end through the API, forged tokens refused, and production never using
 * the development geocoder.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../../worker/app";
import type { AddressSuggestion, CreateListingResponse, ResolvedPlace } from "../../../worker/contract/listings";
import { LOCATION_TOKEN_REFUSED, signLocationToken } from "../../../worker/services/geo-token";
import { geoProvider, suggestAddresses } from "../../../worker/services/geo";
import { api, authed, dataUrl, JPEG_1x1, json, type Session, signUp } from "../helpers";

afterEach(() => vi.restoreAllMocks());

/** University of Florida (id 49): IPEDS HD2022 campus (migration 0012). */
const UF = { id: 49, latitude: 29.64629, longitude: -82.347911 };
const SESSION = "7f0c2a9e-4b1d-4c3e-9a51-2f6d8e0b1c77";
const GOOGLE = { GEO_PROVIDER: "google", GOOGLE_PLACES_API_KEY: "test-key", GOOGLE_PLACES_URL: "https://places.test/v1/places:autocomplete", GOOGLE_PLACES_DETAILS_URL: "https://places.test/v1/places" };
/** The production bindings of test/worker/hardening.test.ts. */
const PRODUCTION = { ENVIRONMENT: "production", STRIPE_SECRET_KEY: "sk_test_config", STRIPE_WEBHOOK_SECRET: "whsec_config_test", PUBLIC_BASE_URL: "https://campusnest.example" };

/** A request to the app with these bindings over the test's (the development geocoder needs an empty GEO_PROVIDER). */
const call = (path: string, vars: Record<string, string>) => createApp().fetch(new Request(`http://localhost/api/v1/geo/${path}`), { ...env, ...vars } as Env);

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
        ],
      });
    });
    const res = await call(`autocomplete?q=1%20Main&university_id=${UF.id}&session=${SESSION}`, GOOGLE);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      data: [
        { description: "1 Main St, Gainesville, FL, USA", lat: null, lng: null, place_id: "ChIJ_one" },
        { description: "1 Main St, Alachua, FL, USA", lat: null, lng: null, place_id: "ChIJ_two" },
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
    const res = await call(`place?place_id=ChIJ_one&session=${SESSION}`, GOOGLE);
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
    const unknown = await call(`place?place_id=ChIJ_gone&session=${SESSION}`, GOOGLE);
    expect(unknown.status).toBe(404);
    expect((await json<{ detail: string }>(unknown)).detail).toBe("This address could not be found on the map. Pick another suggestion, or keep the address as typed.");
    // A place without a location is as good as unknown.
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(Response.json({ formattedAddress: "Somewhere" }));
    expect((await call("place?place_id=ChIJ_nowhere", GOOGLE)).status).toBe(404);
    vi.spyOn(globalThis, "fetch").mockResolvedValueOnce(new Response("down", { status: 503 }));
    const down = await call("place?place_id=ChIJ_one", GOOGLE);
    expect(down.status).toBe(502);
    expect((await json<{ detail: string }>(down)).detail).toBe("The map service did not answer. Try picking the address again in a moment.");

    vi.restoreAllMocks();
    const spy = vi.spyOn(globalThis, "fetch");
    expect((await call("place?place_id=ChIJ_one", { GEO_PROVIDER: "nominatim" })).status).toBe(404);
    expect((await call("place?place_id=ChIJ_one", { GEO_PROVIDER: "" })).status).toBe(404);
    expect((await call("place?place_id=", GOOGLE)).status).toBe(422);
    expect(spy).not.toHaveBeenCalled();
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

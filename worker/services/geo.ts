/**
 * Address suggestions and their coordinates from a geocoder chosen by GEO_PROVIDER (decision 019):
 *  - "nominatim": OpenStreetMap's Nominatim (no key; respect its usage policy: set NOMINATIM_URL to
 *    your own instance or a commercial host for real traffic). Its suggestions carry coordinates.
 *  - "google": Google Places Autocomplete (New) with GOOGLE_PLACES_API_KEY. Its suggestions carry a
 *    `place_id` and no coordinates; `resolvePlace` asks Place Details (New) for them, billed with the
 *    client's session token (one per address-typing session, sent with every call of the session).
 *  - empty: in development (ENVIRONMENT=development) the development geocoder below; elsewhere none
 *    (the address field stays free text and new listings have no distance).
 *  - "none": no geocoder, in development too.
 * Restricted to the US, biased toward the chosen campus (else Gainesville, Florida: spec). Failures
 * answer no suggestions. A suggestion with coordinates carries a `location_token` (services/geo-token):
 * the only way a listing gets coordinates.
 *
 * Geocoding spends a paid API, so only ID-verified users reach it (the route), within daily caps per
 * user and for everyone (`spendGeocodingCall`, GEOCODING in the contract's constants). A Google
 * suggestion's place id is handed out signed for the user and session (services/geo-token) and only
 * such an id is resolved; a resolved place's coordinates are cached at most 30 days (Google's terms).
 *
 * The development geocoder is a provider here, not a fake server: the same route, the same tokens and
 * the same create path as the real ones, only the answer is made up. It is deterministic (the same
 * query and campus give the same places), places each suggestion 0.3 to 3 miles from the campus and
 * says "(development address)" in every description. Never used in production or test configuration:
 * `geoProvider` answers it only when ENVIRONMENT is development.
 */
import { GEOCODING } from "../contract/constants";
import type { AddressSuggestion, ResolvedPlace } from "../contract/listings";
import type { Db } from "../db/client";
import { cachePlace, deleteCachedPlacesBefore, findCachedPlace } from "../db/queries/geo";
import type { Config } from "../env";
import { pointOf, type LatLng } from "../lib/geo-distance";
import { log } from "../lib/log";
import { spendWithinCaps } from "./fair-use";
import { signLocationToken, signPlaceId } from "./geo-token";

export type Suggestion = AddressSuggestion;

const MAX = 5;
/** Gainesville, Florida: the bias without a chosen campus (spec). */
export const GAINESVILLE = { latitude: 29.6516, longitude: -82.3248 };

export type GeoProvider = "nominatim" | "google" | "development" | null;

/** What the caller knows: the environment, and the chosen university's campus when the form sent one. */
export interface GeoContext {
  config: Pick<Config, "isDevelopment">;
  /** The campus to bias toward (and to place development addresses near). */
  campus?: LatLng | null;
  /** The campus's university name, for development addresses. */
  universityName?: string | null;
  /** The client's session token (Google bills autocomplete + details per session). */
  session?: string | null;
}

type RawEnv = Record<string, string | undefined>;

/** The geocoder in use: the development one only in development with no provider configured. */
export function geoProvider(env: Env, config: Pick<Config, "isDevelopment">): GeoProvider {
  const raw = env as unknown as RawEnv;
  const name = (raw.GEO_PROVIDER ?? "").trim().toLowerCase();
  if (name === "nominatim") return "nominatim";
  if (name === "google") return raw.GOOGLE_PLACES_API_KEY ? "google" : null;
  if ((name === "" || name === "development") && config.isDevelopment) return "development";
  return null;
}

export async function suggestAddresses(env: Env, q: string, ctx: GeoContext): Promise<Suggestion[]> {
  const raw = env as unknown as RawEnv;
  const provider = geoProvider(env, ctx.config);
  const bias = ctx.campus ?? GAINESVILLE;
  try {
    if (provider === "development") return developmentSuggestions(q, ctx);
    if (provider === "nominatim") {
      const url = new URL(raw.NOMINATIM_URL || "https://nominatim.openstreetmap.org/search");
      url.search = new URLSearchParams({
        q,
        format: "jsonv2",
        countrycodes: "us",
        limit: String(MAX),
        viewbox: `${bias.longitude - 1},${bias.latitude + 1},${bias.longitude + 1},${bias.latitude - 1}`,
      }).toString();
      const res = await fetch(url, { headers: { "User-Agent": "CampusNest/1.0 (address suggestions)", Accept: "application/json" } });
      if (!res.ok) throw new Error(`nominatim ${res.status}`);
      const rows = (await res.json()) as { display_name: string; lat: string; lon: string }[];
      return rows.slice(0, MAX).map((r) => {
        const place = pointOf(Number(r.lat), Number(r.lon));
        return { description: r.display_name, lat: place?.latitude ?? null, lng: place?.longitude ?? null };
      });
    }
    if (provider === "google") {
      const res = await fetch(raw.GOOGLE_PLACES_URL || "https://places.googleapis.com/v1/places:autocomplete", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Goog-Api-Key": raw.GOOGLE_PLACES_API_KEY! },
        body: JSON.stringify({
          input: q,
          includedRegionCodes: ["us"],
          locationBias: { circle: { center: { latitude: bias.latitude, longitude: bias.longitude }, radius: 50000 } },
          ...(ctx.session ? { sessionToken: ctx.session } : {}),
        }),
      });
      if (!res.ok) throw new Error(`google places ${res.status}`);
      const body = (await res.json()) as { suggestions?: { placePrediction?: { placeId?: string; text?: { text?: string } } }[] };
      return (body.suggestions ?? [])
        .map((s) => s.placePrediction)
        .filter((p): p is { placeId?: string; text: { text: string } } => !!p?.text?.text)
        .slice(0, MAX)
        .map((p) => ({ description: p.text.text, lat: null, lng: null, ...(p.placeId ? { place_id: p.placeId } : {}) }));
    }
  } catch (err) {
    log.warn("geo_provider_failed", { provider, message: String(err) });
  }
  return [];
}

/** Why a place could not be resolved: unknown (404 to the client) or the geocoder failed (502). */
export class PlaceNotResolved extends Error {
  constructor(readonly reason: "unknown" | "unavailable") {
    super(reason);
  }
}

const DAY_MS = 86_400_000;

export const GEOCODING_USER_CAP_REACHED = "You have used today's address suggestions. Type the full address; the listing saves without a distance to campus.";
export const GEOCODING_UNIVERSITY_CAP_REACHED =
  "Address suggestions for your university are used up for today. Type the full address; the listing saves without a distance to campus.";
export const GEOCODING_GLOBAL_CAP_REACHED = "Address suggestions are paused for today. Type the full address; the listing saves without a distance to campus.";

/**
 * Counts one geocoder call for the user, for their university (the account's; none is a share of its
 * own) and for everyone this UTC day, or 429 {detail, retry_after} until the next UTC day when a cap is
 * reached (GEOCODING): one campus's accounts cannot spend another campus's suggestions. Counted before
 * the provider is asked, whichever provider it is: the caps also keep us within Nominatim's usage policy.
 */
export async function spendGeocodingCall(db: Db, user: { id: string; universityId: number | null }, now = Date.now()): Promise<void> {
  await spendWithinCaps(
    db,
    [
      { name: `geo-day:${user.id}`, limit: GEOCODING.callsPerUserPerDay, windowMs: DAY_MS, refusal: GEOCODING_USER_CAP_REACHED },
      { name: `geo-day:university:${user.universityId ?? "none"}`, limit: GEOCODING.callsPerUniversityPerDay, windowMs: DAY_MS, refusal: GEOCODING_UNIVERSITY_CAP_REACHED },
      { name: "geo-day:all", limit: GEOCODING.callsPerDay, windowMs: DAY_MS, refusal: GEOCODING_GLOBAL_CAP_REACHED },
    ],
    now,
    (cap) => {
      if (cap.refusal === GEOCODING_GLOBAL_CAP_REACHED) log.warn("geocoding_daily_cap_reached", { cap: GEOCODING.callsPerDay });
      if (cap.refusal === GEOCODING_UNIVERSITY_CAP_REACHED) log.warn("geocoding_university_cap_reached", { university: user.universityId, cap: GEOCODING.callsPerUniversityPerDay });
    },
  );
}

/** Each suggestion's Google place id signed for this user and session (one it cannot be resolved from is left out). */
export function withSignedPlaceIds(secret: string, suggestions: Suggestion[], grant: { userId: string; session: string | null }, now = Date.now()): Promise<Suggestion[]> {
  return Promise.all(
    suggestions.map(async ({ place_id, ...s }) => {
      const signed = place_id ? await signPlaceId(secret, place_id, grant, now + GEOCODING.placeIdTtlMs) : null;
      return signed ? { ...s, place_id: signed } : s;
    }),
  );
}

/**
 * A Google place's coordinates: from the cache while they are under 30 days old (Google's terms allow
 * no longer), else Place Details (New) (field mask location + formattedAddress, billed in the client's
 * autocomplete session), then cached. The description is Google's formatted address: the address the
 * listing keeps, and the one its location token is made for. `placeId` is Google's own id, opened
 * from a handed-out one (services/geo-token openPlaceId).
 */
export async function resolvePlace(env: Env, db: Db, placeId: string, ctx: GeoContext, now = Date.now()): Promise<Omit<ResolvedPlace, "location_token">> {
  if (geoProvider(env, ctx.config) !== "google") throw new PlaceNotResolved("unknown");
  const cached = await findCachedPlace(db, placeId, now - GEOCODING.placeCacheMs);
  if (cached) return { description: cached.description, lat: cached.latitude, lng: cached.longitude };
  const place = await placeDetails(env, placeId, ctx);
  await cachePlace(db, { placeId, description: place.description, latitude: place.lat, longitude: place.lng, fetchedAt: now });
  return place;
}

/** For the cron: coordinates of places fetched over 30 days ago are deleted (Google's terms). */
export const deleteStalePlaces = (db: Db, now: number) => deleteCachedPlacesBefore(db, now - GEOCODING.placeCacheMs);

async function placeDetails(env: Env, placeId: string, ctx: GeoContext): Promise<{ description: string; lat: number; lng: number }> {
  const raw = env as unknown as RawEnv;
  const base = (raw.GOOGLE_PLACES_DETAILS_URL || "https://places.googleapis.com/v1/places").replace(/\/+$/, "");
  const url = new URL(`${base}/${encodeURIComponent(placeId)}`);
  if (ctx.session) url.searchParams.set("sessionToken", ctx.session);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { "X-Goog-Api-Key": raw.GOOGLE_PLACES_API_KEY!, "X-Goog-FieldMask": "location,formattedAddress", Accept: "application/json" },
    });
  } catch (err) {
    log.warn("geo_provider_failed", { provider: "google", message: String(err) });
    throw new PlaceNotResolved("unavailable");
  }
  // Google answers 400 (INVALID_ARGUMENT) for a malformed id and 404 for an unknown one.
  if (res.status === 400 || res.status === 404) throw new PlaceNotResolved("unknown");
  if (!res.ok) {
    log.warn("geo_provider_failed", { provider: "google", message: `google place details ${res.status}` });
    throw new PlaceNotResolved("unavailable");
  }
  const body = (await res.json().catch(() => ({}))) as { formattedAddress?: string; location?: { latitude?: number; longitude?: number } };
  const place = pointOf(body.location?.latitude, body.location?.longitude);
  const description = body.formattedAddress?.trim();
  if (!place || !description) throw new PlaceNotResolved("unknown");
  return { description, lat: place.latitude, lng: place.longitude };
}

/** A 32-bit FNV-1a hash: the development geocoder's only source of "randomness". */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const DEV_UNITS = ["", "Apt 2, ", "Unit B, "];
const MILES_PER_DEGREE_LAT = 69.0;

/** The point `miles` from `from` toward `bearing` (radians), on a flat Earth: fine within 3 miles. */
function offset(from: LatLng, miles: number, bearing: number): LatLng {
  const lat = from.latitude + (miles * Math.cos(bearing)) / MILES_PER_DEGREE_LAT;
  const lng = from.longitude + (miles * Math.sin(bearing)) / (MILES_PER_DEGREE_LAT * Math.cos((from.latitude * Math.PI) / 180));
  return { latitude: Math.round(lat * 1e6) / 1e6, longitude: Math.round(lng * 1e6) / 1e6 };
}

/**
 * Three made-up addresses for a query, 0.3 to 3 miles from the campus (Gainesville without one), each
 * marked "(development address)". The same query and campus always give the same three.
 */
export function developmentSuggestions(q: string, ctx: Pick<GeoContext, "campus" | "universityName">): Suggestion[] {
  const campus = ctx.campus ?? GAINESVILLE;
  const where = ctx.campus && ctx.universityName ? `near ${ctx.universityName}` : "Gainesville, FL";
  // Within the address's 300 characters with the longest unit and the marker.
  const text = q.trim().replace(/\s+/g, " ").slice(0, Math.max(20, 300 - where.length - 40));
  return DEV_UNITS.map((unit, i) => {
    const h = hash(`${text.toLowerCase()}|${i}|${campus.latitude},${campus.longitude}`);
    const miles = 0.3 + ((h & 0xffff) / 0xffff) * 2.7;
    const bearing = ((h >>> 16) / 0xffff) * 2 * Math.PI;
    const place = offset(campus, miles, bearing);
    return { description: `${text}, ${unit}${where} (development address)`, lat: place.latitude, lng: place.longitude };
  });
}

/** Each suggestion with coordinates signed for the listing form to send back with them. */
export function withLocationTokens(secret: string, suggestions: Suggestion[]): Promise<Suggestion[]> {
  return Promise.all(
    suggestions.map(async (s) => {
      const place = pointOf(s.lat, s.lng);
      return place ? { ...s, location_token: await signLocationToken(secret, s.description, place) } : s;
    }),
  );
}

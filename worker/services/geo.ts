/**
 * Address suggestions from a geocoder chosen by GEO_PROVIDER:
 *  - "nominatim": OpenStreetMap's Nominatim (no key; respect its usage policy: set NOMINATIM_URL to
 *    your own instance or a commercial host for real traffic),
 *  - "google": Google Places Autocomplete (New) with GOOGLE_PLACES_API_KEY,
 *  - empty: none (the address field stays free text).
 * Restricted to the US, biased toward Gainesville, Florida (spec). Failures answer no suggestions.
 * A suggestion with coordinates carries a `location_token` (services/geo-token): the only way a
 * listing gets coordinates (docs/decisions/019).
 */
import type { AddressSuggestion } from "../contract/listings";
import { pointOf } from "../lib/geo-distance";
import { log } from "../lib/log";
import { signLocationToken } from "./geo-token";

export type Suggestion = AddressSuggestion;

const MAX = 5;
const BIAS = { lat: 29.6516, lng: -82.3248 };

export async function suggestAddresses(env: Env, q: string): Promise<Suggestion[]> {
  const raw = env as unknown as Record<string, string | undefined>;
  const provider = (raw.GEO_PROVIDER ?? "").trim();
  try {
    if (provider === "nominatim") {
      const url = new URL(raw.NOMINATIM_URL || "https://nominatim.openstreetmap.org/search");
      url.search = new URLSearchParams({
        q,
        format: "jsonv2",
        countrycodes: "us",
        limit: String(MAX),
        viewbox: `${BIAS.lng - 1},${BIAS.lat + 1},${BIAS.lng + 1},${BIAS.lat - 1}`,
      }).toString();
      const res = await fetch(url, { headers: { "User-Agent": "CampusNest/1.0 (address suggestions)", Accept: "application/json" } });
      if (!res.ok) throw new Error(`nominatim ${res.status}`);
      const rows = (await res.json()) as { display_name: string; lat: string; lon: string }[];
      return rows.slice(0, MAX).map((r) => {
        const place = pointOf(Number(r.lat), Number(r.lon));
        return { description: r.display_name, lat: place?.latitude ?? null, lng: place?.longitude ?? null };
      });
    }
    if (provider === "google" && raw.GOOGLE_PLACES_API_KEY) {
      const res = await fetch(raw.GOOGLE_PLACES_URL || "https://places.googleapis.com/v1/places:autocomplete", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Goog-Api-Key": raw.GOOGLE_PLACES_API_KEY },
        body: JSON.stringify({
          input: q,
          includedRegionCodes: ["us"],
          locationBias: { circle: { center: { latitude: BIAS.lat, longitude: BIAS.lng }, radius: 50000 } },
        }),
      });
      if (!res.ok) throw new Error(`google places ${res.status}`);
      const body = (await res.json()) as { suggestions?: { placePrediction?: { text?: { text?: string } } }[] };
      return (body.suggestions ?? [])
        .map((s) => s.placePrediction?.text?.text)
        .filter((t): t is string => !!t)
        .slice(0, MAX)
        .map((description) => ({ description, lat: null, lng: null }));
    }
  } catch (err) {
    log.warn("geo_provider_failed", { provider, message: String(err) });
  }
  return [];
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

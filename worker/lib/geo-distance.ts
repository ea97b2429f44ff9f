/**
 * Distance to campus (docs/decisions/019): the one place the formula lives. Computed when a listing is written
 * and stored in `listings.distance_miles` (D1 has no trigonometry, and a stored number is sortable
 * by index: docs/decisions/019).
 */

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius in miles (IUGG). */
const EARTH_RADIUS_MILES = 3958.8;

const radians = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in miles (haversine). */
export function milesBetween(a: LatLng, b: LatLng): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A point, or null unless both coordinates are numbers. */
export function pointOf(latitude: number | null | undefined, longitude: number | null | undefined): LatLng | null {
  return typeof latitude === "number" && typeof longitude === "number" && Number.isFinite(latitude) && Number.isFinite(longitude) ? { latitude, longitude } : null;
}

/**
 * The stored distance: miles from the place to the campus, rounded to 0.1 mile; null when either
 * is unknown (nothing is guessed).
 */
export function distanceToCampus(place: LatLng | null, campus: LatLng | null): number | null {
  if (!place || !campus) return null;
  return Math.round(milesBetween(place, campus) * 10) / 10;
}

/**
 * The approximate point a listing shows the public on a map (docs/decisions/024): never the
 * place's own coordinates (decision 019), but a point within APPROX_RADIUS_M of them, the same on
 * every read. The place is snapped to the centre of its cell of a grid of about 200 m (so listings in
 * one block share a cell and nothing finer than the cell leaks), then moved by a fixed 15-45 m in a
 * direction that depends on the listing's id (so two listings in one building are not one pin, and the
 * point is never the exact one even when the place sits at a cell's centre). The centre is at most
 * ~150 m from the place (half the cell's diagonal), so a circle of APPROX_RADIUS_M round the point
 * always holds the place. Rounded to 5 decimals (about 1 m): it adds nothing finer.
 */

/** The radius of the circle drawn round an approximate point (metres). The SPA's map draws the same. */
export { APPROX_RADIUS_M } from "../contract/maps";

/** The grid's cell: 0.002 degrees of latitude (about 222 m); longitude cells are widened to about the same width. */
const CELL_DEG = 0.002;
const METRES_PER_DEG_LAT = 111_320;

/** FNV-1a over the id: a stable, well-spread 32-bit number (no secret: the grid, not the jitter, is what hides the place). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;

/** `[lat, lng]` near the place, or null when the listing has no coordinates. */
export function approximatePoint(id: string, latitude: number | null | undefined, longitude: number | null | undefined): [number, number] | null {
  if (latitude == null || longitude == null || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  const cos = Math.max(0.2, Math.cos((latitude * Math.PI) / 180));
  const cellLng = CELL_DEG / cos;
  const centreLat = (Math.floor(latitude / CELL_DEG) + 0.5) * CELL_DEG;
  const centreLng = (Math.floor(longitude / cellLng) + 0.5) * cellLng;
  const h = hash32(id);
  const angle = ((h & 0xffff) / 0x10000) * 2 * Math.PI;
  const metres = 15 + ((h >>> 16) / 0x10000) * 30;
  const lat = centreLat + (metres * Math.sin(angle)) / METRES_PER_DEG_LAT;
  const lng = centreLng + (metres * Math.cos(angle)) / (METRES_PER_DEG_LAT * cos);
  return [round5(Math.min(90, Math.max(-90, lat))), round5(Math.min(180, Math.max(-180, lng)))];
}

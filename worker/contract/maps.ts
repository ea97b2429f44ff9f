/** Maps (docs/decisions/024): what GET maps/config answers. */

/** `[lat, lng]` in degrees. */
export type MapPoint = [number, number];

export interface MapConfig {
  /**
   * What the map draws on: a Protomaps archive served by this worker (`url` is its path), a MapLibre
   * style from a tile host (`url`), or nothing configured: the SPA's plain fallback (campus and pins).
   */
  basemap: { kind: "pmtiles"; url: string } | { kind: "style"; url: string } | { kind: "none" };
  /** The campus of the university asked for (IPEDS point, decision 019), or null. */
  campus: { name: string; abbreviation: string; point: MapPoint } | null;
}

/** The radius of the circle round a listing's approximate point for the public (metres; worker/lib/approximate-point.ts). */
export const APPROX_RADIUS_M = 200;

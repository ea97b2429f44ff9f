/** Plain map geometry (docs/decisions/024): an equirectangular projection fitted to the points, a round scale. */
import type { MapPoint } from "@contract/maps";

export const METRES_PER_MILE = 1609.344;
const METRES_PER_DEG_LAT = 111_320;

export interface Projection {
  /** [x, y] in the view's units (0..width, 0..height). */
  project: (point: MapPoint) => [number, number];
  /** Screen units per metre (the same on both axes). */
  unitsPerMetre: number;
  width: number;
  height: number;
}

/**
 * Fits `points` (and each point's `padMetres` round it) into width x height, keeping distances true
 * (longitude scaled by the cosine of the middle latitude), with a margin. A single point gets a view
 * about 1.2 km across.
 */
export function fitProjection(points: MapPoint[], width: number, height: number, padMetres = 0, margin = 36): Projection {
  const lats = points.map((p) => p[0]);
  const midLat = points.length ? (Math.min(...lats) + Math.max(...lats)) / 2 : 0;
  const cos = Math.max(0.2, Math.cos((midLat * Math.PI) / 180));
  const xOf = (p: MapPoint) => p[1] * cos * METRES_PER_DEG_LAT;
  const yOf = (p: MapPoint) => -p[0] * METRES_PER_DEG_LAT;
  const xs = points.map(xOf);
  const ys = points.map(yOf);
  const minSpan = 1200;
  let [x0, x1, y0, y1] = points.length ? [Math.min(...xs) - padMetres, Math.max(...xs) + padMetres, Math.min(...ys) - padMetres, Math.max(...ys) + padMetres] : [0, 0, 0, 0];
  if (x1 - x0 < minSpan) [x0, x1] = [(x0 + x1) / 2 - minSpan / 2, (x0 + x1) / 2 + minSpan / 2];
  if (y1 - y0 < minSpan) [y0, y1] = [(y0 + y1) / 2 - minSpan / 2, (y0 + y1) / 2 + minSpan / 2];
  const scale = Math.min((width - 2 * margin) / (x1 - x0), (height - 2 * margin) / (y1 - y0));
  const offX = (width - (x1 - x0) * scale) / 2;
  const offY = (height - (y1 - y0) * scale) / 2;
  return {
    project: (p) => [offX + (xOf(p) - x0) * scale, offY + (yOf(p) - y0) * scale],
    unitsPerMetre: scale,
    width,
    height,
  };
}

/** A round distance for the scale bar that is at most `maxUnits` long: "500 ft", "0.5 mi", "2 mi"... */
export function scaleBar(unitsPerMetre: number, maxUnits: number): { label: string; units: number } {
  const steps: [number, string][] = [
    [250 * 0.3048, "250 ft"],
    [500 * 0.3048, "500 ft"],
    [0.25 * METRES_PER_MILE, "0.25 mi"],
    [0.5 * METRES_PER_MILE, "0.5 mi"],
    [METRES_PER_MILE, "1 mi"],
    [2 * METRES_PER_MILE, "2 mi"],
    [5 * METRES_PER_MILE, "5 mi"],
    [10 * METRES_PER_MILE, "10 mi"],
    [25 * METRES_PER_MILE, "25 mi"],
    [50 * METRES_PER_MILE, "50 mi"],
    [100 * METRES_PER_MILE, "100 mi"],
    [250 * METRES_PER_MILE, "250 mi"],
    [500 * METRES_PER_MILE, "500 mi"],
  ];
  let best = steps[0]!;
  for (const step of steps) if (step[0] * unitsPerMetre <= maxUnits) best = step;
  return { label: best[1], units: best[0] * unitsPerMetre };
}

/** A circle of `metres` round `centre` as a GeoJSON ring (for MapLibre). */
export function circleRing(centre: MapPoint, metres: number, steps = 48): [number, number][] {
  const cos = Math.max(0.2, Math.cos((centre[0] * Math.PI) / 180));
  const ring: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const a = (i / steps) * 2 * Math.PI;
    ring.push([centre[1] + (metres * Math.cos(a)) / (METRES_PER_DEG_LAT * cos), centre[0] + (metres * Math.sin(a)) / METRES_PER_DEG_LAT]);
  }
  return ring;
}

/**
 * Where the map's markers go (both renderers). Pins that would cover each other by more than a little
 * become one cluster marker at their mean position, showing how many they are ("12"); pins that only
 * touch are nudged apart, never by more than one pin width. So every marker is a whole target of at
 * least 24 x 24 px that overlaps no other (WCAG 2.5.8), and no pin is drawn far from its place (a ring
 * of pins pushed outwards would put a campus's listings hundreds of miles away at a national extent).
 */
import type { MapPoint } from "@contract/maps";
import type { MapPin } from "./types";

export interface MapMarker {
  /** The pin's id, or "cluster:<first id>:<count>" for a cluster. */
  key: string;
  pins: MapPin[];
  /** Where it is drawn, in the view's units. */
  at: [number, number];
}

/** "12 listings near UF" (the campus they share), else "12 listings". */
export function clusterName(pins: Pick<MapPin, "area">[]): string {
  const areas = new Set(pins.map((p) => p.area));
  const area = areas.size === 1 ? [...areas][0] : undefined;
  return `${pins.length} listings${area ? ` near ${area}` : ""}`;
}

export const clusterKey = (pins: Pick<MapPin, "id">[]) => (pins.length === 1 ? pins[0]!.id : `cluster:${pins[0]!.id}:${pins.length}`);

interface Group {
  pins: MapPin[];
  /** The true (mean projected) position. */
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Lays out `pins` (exact-point dots are not clustered: draw them where they are). Markers are kept
 * inside `view` ([width, height]) when given (a pannable map gives none). `pxPerUnit` is the fewest
 * screen pixels a view unit is drawn at (the marker sizes below are in pixels).
 */
export function layoutPins(
  pins: MapPin[],
  project: (p: MapPoint) => [number, number],
  view: [number, number] | null,
  pxPerUnit = 1,
  /** Labels drawn at fixed places (the campus, "★ UF"): a marker is nudged off them when it can be. */
  keepClear: { point: MapPoint; label: string }[] = [],
): MapMarker[] {
  const pinH = 34 / pxPerUnit;
  const sizeOf = (members: MapPin[]): [number, number] => {
    if (members.length > 1) return [Math.max(34, String(members.length).length * 9 + 22) / pxPerUnit, pinH];
    const pin = members[0]!;
    return [(pin.label.length * 8 + (pin.featured ? 34 : 22)) / pxPerUnit, pinH];
  };
  const group = (members: MapPin[], x: number, y: number): Group => {
    const [w, h] = sizeOf(members);
    return { pins: members, x, y, w, h };
  };
  const merge = (a: Group, b: Group): Group => {
    const n = a.pins.length + b.pins.length;
    return group([...a.pins, ...b.pins], (a.x * a.pins.length + b.x * b.pins.length) / n, (a.y * a.pins.length + b.y * b.pins.length) / n);
  };
  /** How far `a` at (ax, ay) and `b` at (bx, by) would have to move apart to stop overlapping (0: they do not). */
  const overlap = (a: Group, ax: number, ay: number, b: Group, bx: number, by: number) =>
    Math.max(0, Math.min((a.w + b.w) / 2 - Math.abs(ax - bx), (a.h + b.h) / 2 - Math.abs(ay - by)));
  // "A little": up to a third of a pin's height can be settled by nudging.
  const little = pinH / 3;
  // The fixed labels as boxes the size of a pin with their text (they are drawn like one).
  const clear = keepClear.map(({ point, label }) => {
    const [x, y] = project(point);
    return { g: { pins: [], x, y, w: (label.length * 8 + 22) / pxPerUnit, h: pinH } as Group, at: [x, y] as [number, number] };
  });

  // A first pass in one sweep: each pin joins the nearest group it overlaps by more than a little.
  let groups: Group[] = [];
  for (const pin of pins) {
    const [x, y] = project(pin.point);
    const alone = group([pin], x, y);
    let near = -1;
    let nearDistance = Infinity;
    groups.forEach((g, k) => {
      const distance = (g.x - x) ** 2 + (g.y - y) ** 2;
      if (distance < nearDistance && overlap(g, g.x, g.y, alone, x, y) > little) [near, nearDistance] = [k, distance];
    });
    if (near < 0) groups.push(alone);
    else groups[near] = merge(groups[near]!, alone);
  }

  for (;;) {
    // 1. Merge the closest pair that (now) overlaps by more than a little, until none does.
    for (;;) {
      let best: [number, number] | null = null;
      let bestDistance = Infinity;
      for (let i = 0; i < groups.length; i++) {
        for (let j = i + 1; j < groups.length; j++) {
          const a = groups[i]!;
          const b = groups[j]!;
          if (overlap(a, a.x, a.y, b, b.x, b.y) <= little) continue;
          // Squared (Math.hypot is slow, and this runs for every pair).
          const distance = (a.x - b.x) ** 2 + (a.y - b.y) ** 2;
          if (distance < bestDistance) {
            best = [i, j];
            bestDistance = distance;
          }
        }
      }
      if (!best) break;
      const [i, j] = best;
      const merged = merge(groups[i]!, groups[j]!);
      groups = [...groups.filter((_, k) => k !== i && k !== j), merged];
    }

    // 2. Place each marker at its place or nudged by at most its own width; one that cannot be
    //    placed joins the marker in its way, and the layout starts again.
    const placed: { g: Group; at: [number, number] }[] = [];
    let clash: [Group, Group] | null = null;
    for (const g of groups) {
      const clampX = (v: number) => (view ? Math.min(view[0] - g.w / 2, Math.max(g.w / 2, v)) : v);
      const clampY = (v: number) => (view ? Math.min(view[1] - g.h / 2, Math.max(g.h / 2, v)) : v);
      const steps: [number, number][] = [[0, 0]];
      for (const fy of [0, 0.5, 1, -0.5, -1]) for (const fx of [0, 0.5, -0.5, 1, -1]) if (fx || fy) steps.push([fx * g.w, fy * g.h]);
      steps.sort((a, b) => Math.hypot(...a) - Math.hypot(...b));
      let at: [number, number] | null = null;
      // Off the other markers and the fixed labels; failing that, off the other markers only.
      for (const others of [[...placed, ...clear], placed]) {
        for (const [dx, dy] of steps) {
          const spot: [number, number] = [clampX(g.x + dx), clampY(g.y + dy)];
          if (Math.hypot(spot[0] - g.x, spot[1] - g.y) > g.w + 0.5) continue;
          if (others.every((p) => overlap(g, spot[0], spot[1], p.g, p.at[0], p.at[1]) === 0)) {
            at = spot;
            break;
          }
        }
        if (at) break;
      }
      if (!at) {
        const here: [number, number] = [clampX(g.x), clampY(g.y)];
        const inWay = placed.reduce((a, b) => (overlap(g, here[0], here[1], b.g, b.at[0], b.at[1]) > overlap(g, here[0], here[1], a.g, a.at[0], a.at[1]) ? b : a));
        clash = [g, inWay.g];
        break;
      }
      placed.push({ g, at });
    }
    if (!clash) return placed.map(({ g, at }) => ({ key: clusterKey(g.pins), pins: g.pins, at }));
    const [a, b] = clash;
    groups = [...groups.filter((g) => g !== a && g !== b), merge(a, b)];
  }
}

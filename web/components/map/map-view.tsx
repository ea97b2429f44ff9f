/**
 * MapView (docs/decisions/024): one map component, two renderers. With a basemap
 * configured (GET maps/config) MapLibre GL draws it (its own lazy chunk, loaded only then); without
 * one (development, tests, any install without tiles) or where WebGL fails, a plain SVG map: the
 * campus, the pins and the approximate circle, placed by an equirectangular projection fitted to
 * them, with a scale. Pins are buttons named by their listing ("$1,030/month, Renovated 3x2"); pins
 * that would cover each other are one cluster button ("12 listings near UF", see cluster.ts); the
 * lists they come from stay on the page, so the map is never the only way.
 */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { MapConfig, MapPoint } from "@contract/maps";
import { apiRequest } from "../../lib/api-client";
import { useMediaQuery } from "../../lib/use-media-query";
import { deferred } from "../ui/deferred";
import { clusterName, layoutPins } from "./cluster";
import { fitProjection, scaleBar } from "./geometry";
import type { MapViewProps, RendererProps } from "./types";

export type { MapPin, MapViewProps, RendererProps } from "./types";

const NO_BASEMAP: MapConfig = { basemap: { kind: "none" }, campus: null };

/** The map's config for a campus (cached for the session: it changes only with a deploy). */
export function useMapConfig(universityId: number | null) {
  return useQuery({
    queryKey: ["maps", "config", universityId ?? 0],
    queryFn: () => apiRequest<MapConfig>(`maps/config${universityId ? `?university=${universityId}` : ""}`),
    staleTime: Infinity,
    retry: false,
  });
}

const GlMap = deferred(() => import("./maplibre-map").then((m) => m.MapLibreMap));

export function MapView({ label, universityId, children, ...rest }: MapViewProps) {
  const config = useMapConfig(universityId);
  const [glFailed, setGlFailed] = useState(false);
  const fail = useCallback(() => setGlFailed(true), []);
  // A failed config read draws the plain map without a campus rather than nothing.
  const settled = config.data ?? (config.isError ? NO_BASEMAP : null);
  const campus = settled?.campus ?? null;
  const gl = settled && settled.basemap.kind !== "none" && !glFailed ? settled.basemap : null;
  return (
    <section className="map-view" aria-label={label} aria-busy={!settled}>
      {!settled ? (
        <div className="map-canvas map-loading" />
      ) : gl ? (
        <GlMap load basemap={gl} campus={campus} {...rest} onFail={fail} fallback={<div className="map-canvas map-loading" />} />
      ) : (
        <PlainMap campus={campus} {...rest} />
      )}
      {children}
    </section>
  );
}

/** The plain map's drawing size: wide on a desktop, taller on a phone (the box keeps this shape). */
const WIDE: [number, number] = [800, 450];
const NARROW: [number, number] = [400, 460];

/** The plain renderer: no network, no tiles. Looks like a map sketch on purpose and says why. */
export function PlainMap({ pins, campus, circle, onSelect, selectedKey }: RendererProps) {
  const [W, H] = useMediaQuery("(max-width: 640px)", false) ? NARROW : WIDE;
  const points: MapPoint[] = [...pins.map((p) => p.point), ...(campus ? [campus.point] : []), ...(circle ? [circle.point] : [])];
  // Room at the edges for a price label centred on its point.
  const projection = fitProjection(points, W, H, circle ? circle.metres : 0, 56);
  const scale = scaleBar(projection.unitsPerMetre, 160);
  const pos = ([x, y]: [number, number]) => ({ left: `${(x / W) * 100}%`, top: `${(y / H) * 100}%` });
  const at = (point: MapPoint) => pos(projection.project(point));
  const centre = circle ? projection.project(circle.point) : null;
  // Sized for the smallest box the map is drawn in (a 360 px phone, a 641 px window): 0.75 px a unit.
  const markers = layoutPins(
    pins.filter((p) => !p.exact),
    projection.project,
    [W, H],
    0.75,
    campus ? [{ point: campus.point, label: `★ ${campus.abbreviation}` }] : [],
  );
  return (
    <div className="map-canvas map-plain" style={{ aspectRatio: `${W} / ${H}` }}>
      <svg className="map-plain-sketch" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false">
        <defs>
          <pattern id="map-grid" width="40" height="40" patternUnits="userSpaceOnUse">
            <path d="M 40 0 L 0 0 0 40" className="map-grid-line" />
          </pattern>
        </defs>
        <rect width={W} height={H} className="map-ground" />
        <rect width={W} height={H} fill="url(#map-grid)" />
        {centre && <circle cx={centre[0]} cy={centre[1]} r={circle!.metres * projection.unitsPerMetre} className="map-area" data-testid="map-area" />}
        <g className="map-scale" transform={`translate(16 ${H - 20})`}>
          <line x1="0" y1="0" x2={scale.units} y2="0" />
          <line x1="0" y1="-5" x2="0" y2="5" />
          <line x1={scale.units} y1="-5" x2={scale.units} y2="5" />
          <text x={scale.units + 8} y="5">
            {scale.label}
          </text>
        </g>
      </svg>
      {campus && (
        <span className="map-campus" style={at(campus.point)} role="img" aria-label={`${campus.abbreviation} campus`}>
          <span aria-hidden="true">★ {campus.abbreviation}</span>
        </span>
      )}
      {pins
        .filter((pin) => pin.exact)
        .map((pin) => (
          <span key={pin.id} className="map-dot" style={at(pin.point)} role="img" aria-label={pin.name} data-exact="true" />
        ))}
      {markers.map(({ key, pins: members, at: spot }) => {
        const pin = members[0]!;
        const cluster = members.length > 1;
        const name = cluster ? clusterName(members) : pin.name;
        const className = cluster ? "map-pin map-cluster" : `map-pin${pin.featured ? " map-pin-featured" : ""}`;
        const content = cluster ? (
          <span aria-hidden="true">{members.length}</span>
        ) : (
          <>
            {pin.featured && <span aria-hidden="true">★ </span>}
            {pin.label}
          </>
        );
        return onSelect ? (
          <button
            key={key}
            type="button"
            className={className}
            style={pos(spot)}
            aria-label={name}
            aria-pressed={selectedKey === key}
            data-pin={key}
            onClick={() => onSelect(members.map((m) => m.id), key)}
          >
            {content}
          </button>
        ) : (
          <span key={key} className={className} style={pos(spot)} role="img" aria-label={name}>
            {content}
          </span>
        );
      })}
      <p className="map-note">Map preview: no basemap configured</p>
    </div>
  );
}

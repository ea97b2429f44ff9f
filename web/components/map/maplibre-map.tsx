/**
 * The basemap renderer (docs/decisions/024): MapLibre GL over a Protomaps archive served by
 * our worker (pmtiles:// by HTTP range) or a style URL from a tile host. Its own lazy chunk, loaded
 * only when a basemap is configured. Pins are HTML buttons (MapLibre markers), so they are focusable
 * and named like the plain map's. Labels and icons of the Protomaps style are left out: they need
 * glyph and sprite files that we do not host (decision 024).
 */
import * as maplibregl from "maplibre-gl";
import type { LngLatLike, StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
// MapLibre's worker as a file of our own origin (a module worker: the CSP's 'self' covers it, no blob:).
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";
import { Protocol } from "pmtiles";
import { layers, namedFlavor } from "@protomaps/basemaps";
import { useEffect, useRef } from "react";
import type { MapConfig, MapPoint } from "@contract/maps";
import { clusterName, layoutPins } from "./cluster";
import { circleRing } from "./geometry";
import type { RendererProps } from "./types";

let protocolAdded = false;
maplibregl.setWorkerUrl(workerUrl);

const lngLat = (p: MapPoint): LngLatLike => [p[1], p[0]];

function styleFor(basemap: Exclude<MapConfig["basemap"], { kind: "none" }>): StyleSpecification | string {
  if (basemap.kind === "style") return basemap.url;
  if (!protocolAdded) {
    maplibregl.addProtocol("pmtiles", new Protocol().tile);
    protocolAdded = true;
  }
  const dark = document.documentElement.classList.contains("dark");
  return {
    version: 8,
    sources: {
      protomaps: { type: "vector", url: `pmtiles://${new URL(basemap.url, location.origin).href}`, attribution: "© OpenStreetMap contributors, Protomaps" },
    },
    layers: layers("protomaps", namedFlavor(dark ? "dark" : "light")).filter((layer) => layer.type !== "symbol"),
  };
}

export function MapLibreMap({ basemap, pins, campus, circle, onSelect, selectedKey, onFail }: RendererProps & { basemap: Exclude<MapConfig["basemap"], { kind: "none" }>; onFail: () => void }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<maplibregl.Map | null>(null);
  const fitted = useRef<string | null>(null);
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    let map: maplibregl.Map;
    try {
      map = new maplibregl.Map({ container: container.current!, style: styleFor(basemap), attributionControl: { compact: true }, cooperativeGestures: true });
    } catch (error) {
      // No WebGL (old phone, locked-down browser): the plain map instead.
      console.error("The map could not start", error);
      onFail();
      return;
    }
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), "top-right");
    map.addControl(new maplibregl.ScaleControl({ unit: "imperial" }), "bottom-left");
    mapRef.current = map;
    fitted.current = null;
    return () => {
      map.remove();
      mapRef.current = null;
    };
  }, [basemap, onFail]);

  // Markers, the campus and the circle follow the props.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const markers: maplibregl.Marker[] = [];
    const bounds = new maplibregl.LngLatBounds();
    for (const pin of pins) bounds.extend(lngLat(pin.point));
    // The pins' markers: laid out again (clusters, see cluster.ts) after each zoom, in screen pixels.
    let pinMarkers: maplibregl.Marker[] = [];
    const drawPins = () => {
      pinMarkers.forEach((m) => m.remove());
      pinMarkers = [];
      const project = (p: MapPoint): [number, number] => {
        const { x, y } = map.project(lngLat(p));
        return [x, y];
      };
      const exact = pins.filter((p) => p.exact);
      const laid = layoutPins(pins.filter((p) => !p.exact), project, null, 1, campus ? [{ point: campus.point, label: `★ ${campus.abbreviation}` }] : []);
      for (const pin of exact) {
        const el = document.createElement("span");
        el.className = "map-dot";
        el.setAttribute("role", "img");
        el.setAttribute("aria-label", pin.name);
        pinMarkers.push(new maplibregl.Marker({ element: el }).setLngLat(lngLat(pin.point)).addTo(map));
      }
      for (const { key, pins: members, at } of laid) {
        const pin = members[0]!;
        const cluster = members.length > 1;
        const el = document.createElement(onSelectRef.current ? "button" : "span");
        el.className = cluster ? "map-pin map-cluster" : `map-pin${pin.featured ? " map-pin-featured" : ""}`;
        el.setAttribute("aria-label", cluster ? clusterName(members) : pin.name);
        if (el instanceof HTMLButtonElement) {
          el.type = "button";
          el.dataset.pin = key;
          el.setAttribute("aria-pressed", String(selectedKey === key));
          el.addEventListener("click", () =>
            onSelectRef.current?.(
              members.map((m) => m.id),
              key,
            ),
          );
        } else el.setAttribute("role", "img");
        el.textContent = cluster ? String(members.length) : `${pin.featured ? "★ " : ""}${pin.label}`;
        pinMarkers.push(new maplibregl.Marker({ element: el }).setLngLat(map.unproject(at)).addTo(map));
      }
    };
    if (campus) {
      const el = document.createElement("span");
      el.className = "map-campus";
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", `${campus.abbreviation} campus`);
      el.textContent = `★ ${campus.abbreviation}`;
      markers.push(new maplibregl.Marker({ element: el }).setLngLat(lngLat(campus.point)).addTo(map));
      bounds.extend(lngLat(campus.point));
    }
    const drawCircle = () => {
      if (map.getLayer("area")) map.removeLayer("area");
      if (map.getSource("area")) map.removeSource("area");
      if (!circle) return;
      map.addSource("area", { type: "geojson", data: { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [circleRing(circle.point, circle.metres)] } } });
      map.addLayer({ id: "area", type: "fill", source: "area", paint: { "fill-color": "#1860d0", "fill-opacity": 0.18, "fill-outline-color": "#1860d0" } });
    };
    if (circle) for (const corner of circleRing(circle.point, circle.metres, 4)) bounds.extend(corner);
    if (map.isStyleLoaded()) drawCircle();
    else map.once("load", drawCircle);
    // Fitted again only when the pins change (not when one is selected, nor when the page re-renders),
    // so a reader's own pan and zoom stay.
    const signature = JSON.stringify([pins.map((p) => p.point), campus?.point, circle?.point]);
    if (!bounds.isEmpty() && fitted.current !== signature) {
      fitted.current = signature;
      map.fitBounds(bounds, { padding: 48, maxZoom: 15, animate: false });
    }
    drawPins();
    map.on("zoomend", drawPins);
    map.on("resize", drawPins);
    return () => {
      map.off("zoomend", drawPins);
      map.off("resize", drawPins);
      pinMarkers.forEach((m) => m.remove());
      markers.forEach((m) => m.remove());
    };
  }, [pins, campus, circle, selectedKey]);

  return <div ref={container} className="map-canvas map-gl" />;
}

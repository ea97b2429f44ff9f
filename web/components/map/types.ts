/** The map's shared types (docs/decisions/024): MapView's props and what its two renderers draw. */
import type { ReactNode } from "react";
import type { MapConfig, MapPoint } from "@contract/maps";

export interface MapPin {
  id: string;
  point: MapPoint;
  /** What the pin shows: the rent ("$1,030"), or a short word. */
  label: string;
  /** Its accessible name: "$1,030/month, Renovated 3x2". */
  name: string;
  featured?: boolean;
  /** The exact point (owner and staff): drawn as a dot, not a price. */
  exact?: boolean;
  /** The campus the listing belongs to ("UF"): names a cluster of pins ("12 listings near UF"). */
  area?: string;
}

export interface MapViewProps {
  /** The map region's accessible name. */
  label: string;
  pins: MapPin[];
  /** Marks this university's campus (its point comes with the map's config). */
  universityId: number | null;
  /** The public's approximate area round a listing. */
  circle?: { point: MapPoint; metres: number } | null;
  /**
   * Markers are buttons when given: pressing one selects its listings (one pin's, or a cluster's),
   * `key` being the marker's (its `data-pin`, to give focus back to it).
   */
  onSelect?: (ids: string[], key: string) => void;
  /** The selected marker's key (drawn pressed). */
  selectedKey?: string | null;
  /** Something to show over the map (the selected listing's card). */
  children?: ReactNode;
}

/** What the renderers draw: MapViewProps with the campus resolved. */
export interface RendererProps extends Omit<MapViewProps, "universityId" | "children" | "label"> {
  campus: MapConfig["campus"];
}


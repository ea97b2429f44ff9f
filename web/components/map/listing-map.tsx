/**
 * The listing page's Location map (docs/decisions/024): the campus, and the place as the viewer may see it: an
 * area of about 200 m for the public (the approximate point), the exact point for the owner and staff.
 */
import { useMemo } from "react";
import { APPROX_RADIUS_M, type MapPoint } from "@contract/maps";
import { MapView, type MapPin } from "./map-view";

export interface ListingMapProps {
  title: string;
  universityId: number;
  /** The exact point (owner and staff) or null for the public. */
  exact: MapPoint | null;
  /** The public's approximate point. */
  approx: MapPoint | null;
}

export function ListingMap({ title, universityId, exact, approx }: ListingMapProps) {
  const pins = useMemo<MapPin[]>(() => (exact ? [{ id: "exact", point: exact, label: "", name: `${title}: exact location`, exact: true }] : []), [exact, title]);
  const circle = useMemo(() => (!exact && approx ? { point: approx, metres: APPROX_RADIUS_M } : null), [exact, approx]);
  return <MapView label={`Map: ${title} and campus`} pins={pins} circle={circle} universityId={universityId} />;
}

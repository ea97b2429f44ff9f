/**
 * The listing page's "Location" section (docs/decisions/024), below the details: the distance, and a map that
 * loads when the section comes near the screen (never on the first screen). A listing without
 * coordinates says so and shows no map.
 */
import { useEffect, useRef, useState } from "react";
import type { OwnerListing, PublicListing } from "@contract/listings";
import { formatDistance } from "@contract/constants";
import { deferred } from "../ui/deferred";

/** The map itself: its own chunk, loaded once the section nears the screen. */
const LazyListingMap = deferred(() => import("./listing-map").then((m) => m.ListingMap));

export function LocationSection({ listing: l, exactAllowed }: { listing: PublicListing | OwnerListing; exactAllowed: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const exact = exactAllowed && "latitude" in l && l.latitude !== null && l.longitude !== null ? ([l.latitude, l.longitude] as [number, number]) : null;
  const onMap = !!(exact ?? l.approx_point);
  useEffect(() => {
    if (!onMap || near) return;
    const el = ref.current;
    if (!el || typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: "200px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [onMap, near]);
  const distance = formatDistance(l.distance_miles, l.university_abbreviation);
  return (
    <section className="panel listing-location" aria-labelledby="location-heading">
      <h2 id="location-heading">Location</h2>
      {distance && <p className="listing-location-distance">{distance}</p>}
      {!onMap ? (
        <p className="muted">Location not on the map</p>
      ) : (
        <>
          <div ref={ref} className="listing-location-map">
            <LazyListingMap load={near} title={l.title} universityId={l.university_id} exact={exact} approx={l.approx_point} fallback={<div className="map-canvas map-loading" />} />
          </div>
          <p className="muted map-caption">
            {exact ? "On the map, only you and our team see the exact point; everyone else sees an area of about 200 m and the street without the house number." : "The shaded circle shows an area of about 200 m around the place."}
          </p>
        </>
      )}
    </section>
  );
}

/**
 * Browse's map view (`view=map`; docs/decisions/024): a pin for each listing shown (the Featured row's and the
 * results' loaded cards), the rent on the pin, featured ones starred, the campus when a university is
 * chosen. Pins that would cover each other are one cluster ("12 listings near UF"). Pressing a pin
 * opens that listing's card in a panel over the map (a cluster: its listings' cards); Escape or Close
 * shuts it and gives focus back to the marker. The cards stay listed below the map for everyone.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ListingCard, type CardListing } from "../listing-card";
import { formatRent } from "../../lib/listings-api";
import { clusterName } from "./cluster";
import { MapView, type MapPin } from "./map-view";

export interface BrowseMapProps {
  listings: CardListing[];
  /** The chosen university's id as the URL has it (its campus is marked), if any. */
  university: string | null | undefined;
  back: string;
  /** More listings exist than those given (Load More adds them): the caption says only these are plotted. */
  more?: boolean;
}

/** "$1,030/month, Renovated 3x2": what a pin is called (its card's price and title). */
export const pinName = (l: Pick<CardListing, "monthly_rent" | "title">) => `${formatRent(l.monthly_rent)}/month, ${l.title}`;

export function BrowseMap({ listings, university, back, more = false }: BrowseMapProps) {
  const universityId = Number(university) || null;
  /** The pressed marker: its key (`data-pin`) and its listings. */
  const [selected, setSelected] = useState<{ key: string; ids: string[] } | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const pins = useMemo<MapPin[]>(
    () =>
      listings.flatMap((l) =>
        l.approx_point
          ? [{ id: l.id, point: l.approx_point, label: formatRent(l.monthly_rent), name: pinName(l), featured: l.promoted, area: l.university_abbreviation || undefined }]
          : [],
      ),
    [listings],
  );
  const missing = listings.length - pins.length;
  const cards = selected ? listings.filter((l) => selected.ids.includes(l.id)) : [];
  const clusterLabel = clusterName(pins.filter((p) => selected?.ids.includes(p.id)));

  const close = useCallback(() => {
    setSelected((s) => {
      // Back to the marker that opened it (keyboard users keep their place).
      if (s) requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-pin="${CSS.escape(s.key)}"]`)?.focus());
      return null;
    });
  }, []);

  useEffect(() => {
    if (!selected) return;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [selected, close]);

  const caption =
    listings.length === 0
      ? null
      : pins.length === 0
        ? "None of these listings is on the map yet. They are all listed below."
        : `Each pin is within about 200 m of the place.${more ? ` Showing the ${listings.length} ${listings.length === 1 ? "listing" : "listings"} loaded so far; Load More below adds more.` : ""}${missing > 0 ? ` ${missing === 1 ? "1 listing has" : `${missing} listings have`} no location and ${missing === 1 ? "is" : "are"} only in the list below.` : ""}`;
  return (
    <div className="browse-map">
      <MapView
        label="Map of these listings"
        pins={pins}
        universityId={universityId}
        onSelect={(ids, key) => setSelected((s) => (s?.key === key ? null : { key, ids }))}
        selectedKey={selected?.key ?? null}
      >
        {cards.length === 1 && (
          <div className="map-panel" ref={panel} tabIndex={-1} role="group" aria-label={`Selected listing: ${pinName(cards[0]!)}`}>
            <button type="button" className="button button-ghost map-panel-close" onClick={close}>
              Close
            </button>
            <ListingCard listing={cards[0]!} back={back} />
          </div>
        )}
        {cards.length > 1 && (
          <div className="map-panel" ref={panel} tabIndex={-1} role="group" aria-label={`Selected: ${clusterLabel}`}>
            <button type="button" className="button button-ghost map-panel-close" onClick={close}>
              Close
            </button>
            <p className="map-panel-title">{clusterLabel}</p>
            <ul className="map-panel-list">
              {cards.map((l) => (
                <li key={l.id}>
                  <ListingCard listing={l} back={back} />
                </li>
              ))}
            </ul>
          </div>
        )}
      </MapView>
      {/* No listings at all: the empty state below says so; the map shows the campus alone. */}
      {caption && <p className="map-caption muted">{caption}</p>}
    </div>
  );
}

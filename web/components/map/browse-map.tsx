/**
 * Browse's map view (issue 27, `view=map`): a pin for each listing shown (the Featured row's and the
 * results' loaded cards), the rent on the pin, featured ones starred, the campus when a university is
 * chosen. Pressing a pin opens that listing's card in a panel over the map; Escape or Close shuts it
 * and gives focus back to the pin. The cards stay listed below the map for everyone.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ListingCard, type CardListing } from "../listing-card";
import { formatRent } from "../../lib/listings-api";
import { MapView, type MapPin } from "./map-view";

export interface BrowseMapProps {
  listings: CardListing[];
  /** The chosen university's id as the URL has it (its campus is marked), if any. */
  university: string | null | undefined;
  back: string;
}

/** "$1,030/month, Renovated 3x2": what a pin is called (its card's price and title). */
export const pinName = (l: Pick<CardListing, "monthly_rent" | "title">) => `${formatRent(l.monthly_rent)}/month, ${l.title}`;

export function BrowseMap({ listings, university, back }: BrowseMapProps) {
  const universityId = Number(university) || null;
  const [selected, setSelected] = useState<string | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const pins = useMemo<MapPin[]>(
    () =>
      listings.flatMap((l) =>
        l.approx_point ? [{ id: l.id, point: l.approx_point, label: formatRent(l.monthly_rent), name: pinName(l), featured: l.promoted }] : [],
      ),
    [listings],
  );
  const missing = listings.length - pins.length;
  const card = selected ? listings.find((l) => l.id === selected) : undefined;

  const close = useCallback(() => {
    setSelected((id) => {
      // Back to the pin that opened it (keyboard users keep their place).
      if (id) requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-pin="${CSS.escape(id)}"]`)?.focus());
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

  return (
    <div className="browse-map">
      <MapView label="Map of these listings" pins={pins} universityId={universityId} onSelect={(id) => setSelected((s) => (s === id ? null : id))} selectedId={selected}>
        {card && (
          <div className="map-panel" ref={panel} tabIndex={-1} role="group" aria-label={`Selected listing: ${pinName(card)}`}>
            <button type="button" className="button button-ghost map-panel-close" onClick={close}>
              Close
            </button>
            <ListingCard listing={card} back={back} />
          </div>
        )}
      </MapView>
      <p className="map-caption muted">
        {pins.length === 0
          ? "None of these listings is on the map yet. They are all listed below."
          : `Pins show areas of about 200 m, not exact addresses.${missing > 0 ? ` ${missing === 1 ? "1 listing has" : `${missing} listings have`} no location and ${missing === 1 ? "is" : "are"} only in the list below.` : ""}`}
      </p>
    </div>
  );
}

import { useEffect, useId, useRef, useState } from "react";
import type { AddressSuggestion as Suggestion } from "@contract/listings";
import { FieldCounter, limitState } from "../../../components/ui/field";
import { apiRequest } from "../../../lib/api-client";

/**
 * Where a picked suggestion is (issue 15): the listing keeps it to show its distance to campus. The
 * server takes the coordinates only with the suggestion's token, made for that address and place.
 */
export interface AddressPoint {
  latitude: number;
  longitude: number;
  location_token: string;
}

const MIN_CHARS = 3;
const DEBOUNCE_MS = 300;
const MAX_RESULTS = 5;

/**
 * The address field with suggestions (WAI-ARIA combobox): from 3 characters, 300 ms after the
 * last keystroke, up to 5; ArrowUp/ArrowDown move, Enter picks, Escape closes. With no geocoder
 * configured the server answers no suggestions and this is a plain text field. A picked suggestion's
 * coordinates and their token come with the address (when the geocoder gave them); typing afterwards
 * drops all three, so an address never carries another address's coordinates.
 */
export function AddressInput({
  value,
  onChange,
  error,
  limit,
}: {
  value: string;
  onChange: (value: string, point: AddressPoint | null) => void;
  error?: string;
  /** No hard maxLength: a longer paste stays and is flagged (issue 25, item 4). */
  limit: number;
}) {
  const id = useId();
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const picked = useRef<string | null>(null);

  useEffect(() => {
    const q = value.trim();
    if (q.length < MIN_CHARS || q === picked.current) return;
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      try {
        const { data } = await apiRequest<{ data: Suggestion[] }>("geo/autocomplete", { query: { q }, signal: controller.signal, auth: false });
        setSuggestions(data.slice(0, MAX_RESULTS));
        setActive(-1);
        setOpen(data.length > 0);
      } catch {
        setOpen(false);
      }
    }, DEBOUNCE_MS);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [value]);

  function pick(s: Suggestion) {
    picked.current = s.description;
    onChange(
      s.description,
      typeof s.lat === "number" && typeof s.lng === "number" && s.location_token ? { latitude: s.lat, longitude: s.lng, location_token: s.location_token } : null,
    );
    setOpen(false);
  }

  const { counted, message: tooLong } = limitState("Address", value.length, limit);
  const shownError = tooLong ?? error;
  const listId = `${id}-list`;
  const showList = open && value.trim().length >= MIN_CHARS && suggestions.length > 0;
  return (
    <div className="field combobox">
      <label className="field-label" htmlFor={id}>
        Address
      </label>
      <input
        id={id}
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={!!shownError || undefined}
        aria-describedby={[counted ? `${id}-counter` : "", shownError ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}
        autoComplete="street-address"
        value={value}
        onChange={(e) => {
          picked.current = null;
          onChange(e.target.value, null);
        }}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (!showList) return;
          if (e.key === "ArrowDown") setActive((i) => Math.min(suggestions.length - 1, i + 1));
          else if (e.key === "ArrowUp") setActive((i) => Math.max(0, i - 1));
          else if (e.key === "Enter" && active >= 0) pick(suggestions[active]!);
          else if (e.key === "Escape") setOpen(false);
          else return;
          e.preventDefault();
        }}
      />
      {showList && (
        <ul id={listId} role="listbox" className="combobox-list">
          {suggestions.map((s, i) => (
            <li
              key={s.description + i}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? "active" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(s);
              }}
            >
              {s.description}
            </li>
          ))}
        </ul>
      )}
      <FieldCounter id={`${id}-counter`} length={value.length} limit={limit} />
      {shownError && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {shownError}
        </p>
      )}
    </div>
  );
}

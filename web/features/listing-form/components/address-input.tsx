import { useEffect, useId, useRef, useState } from "react";
import type { ResolvedPlace, AddressSuggestion as Suggestion } from "@contract/listings";
import { OWNER_ADDRESS_NOTE, publicAddress } from "@contract/address";
import { FieldCounter, limitState } from "../../../components/ui/field";
import { ApiError, apiRequest, errorMessage } from "../../../lib/api-client";

/**
 * Where a picked suggestion is (docs/decisions/019): the listing keeps it to show its distance to campus. The
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

/** Said under the address whenever it has no coordinates (docs/decisions/024): the owner knows before saving. */
export const NOT_PLACED_MESSAGE = "We could not place this address on the map; students searching by distance will not see it.";
/** Said instead when suggestions were offered and none was picked: typed text alone gets no location. */
export const PICK_SUGGESTION_MESSAGE = "Pick one of the suggestions to place this address on the map; typed alone, students searching by distance will not see it.";

/** A random UUID (v4) for one address-typing session: Google bills its autocomplete and resolve together. */
function newSessionToken(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Geocoding is for signed-in, ID-verified users within daily caps (decision 019): a refusal (401, 403,
 * 429) pauses suggestions for this form, says why, and leaves a plain text field.
 */
const PAUSING_STATUSES = [401, 403, 429];

const pointOf = (s: { lat: number | null; lng: number | null; location_token?: string }): AddressPoint | null =>
  typeof s.lat === "number" && typeof s.lng === "number" && s.location_token ? { latitude: s.lat, longitude: s.lng, location_token: s.location_token } : null;

/**
 * The address field with suggestions (WAI-ARIA combobox): from 3 characters, 300 ms after the
 * last keystroke, up to 5; ArrowUp/ArrowDown move, Enter picks, Escape closes. With no geocoder
 * configured the server answers no suggestions and this is a plain text field. A picked suggestion's
 * coordinates and their token come with the address (when the geocoder gave them); typing afterwards
 * drops all three, so an address never carries another address's coordinates.
 *
 * A suggestion with a `place_id` but no coordinates (Google) is resolved with geo/place
 * before the form takes it ("Locating…"); every call of one typing session carries the same session
 * token. An address without coordinates (typed, or the resolve failed) is said to be off the map,
 * once the owner leaves the field: not blocking, the listing saves without a distance.
 */
export function AddressInput({
  value,
  onChange,
  error,
  limit,
  placed,
  universityId,
}: {
  value: string;
  onChange: (value: string, point: AddressPoint | null) => void;
  error?: string;
  /** No hard maxLength: a longer paste stays and is flagged. */
  limit: number;
  /** Whether the address has coordinates (picked now, or stored and left alone). */
  placed: boolean;
  /** The chosen university: suggestions are biased toward its campus. */
  universityId?: string;
}) {
  const id = useId();
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(false);
  const [locating, setLocating] = useState(false);
  const [resolveError, setResolveError] = useState<string | null>(null);
  const [paused, setPaused] = useState<string | null>(null);
  const picked = useRef<string | null>(null);
  const session = useRef<string | null>(null);
  const resolving = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // Read when a query is sent: choosing a university biases the next query, it does not send one.
  const university = useRef(universityId);
  useEffect(() => {
    university.current = universityId;
  }, [universityId]);

  // The list closes a moment after blur (so a click on a suggestion lands first); cleared on unmount.
  const closing = useRef<number | undefined>(undefined);
  useEffect(
    () => () => {
      resolving.current?.abort();
      window.clearTimeout(closing.current);
    },
    [],
  );

  useEffect(() => {
    const q = value.trim();
    if (q.length < MIN_CHARS || q === picked.current || paused) return;
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      try {
        session.current ??= newSessionToken();
        const query = { q, session: session.current, university_id: university.current || undefined };
        const { data } = await apiRequest<{ data: Suggestion[] }>("geo/autocomplete", { query, signal: controller.signal });
        setSuggestions(data.slice(0, MAX_RESULTS));
        setActive(-1);
        // Only under a field still being typed in: never over the fields the owner moved on to.
        setOpen(data.length > 0 && document.activeElement === input.current);
      } catch (err) {
        setOpen(false);
        if (err instanceof ApiError && PAUSING_STATUSES.includes(err.status)) setPaused(err.message);
      }
    }, DEBOUNCE_MS);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [value, paused]);

  async function pick(s: Suggestion) {
    picked.current = s.description;
    setOpen(false);
    setResolveError(null);
    resolving.current?.abort();
    const point = pointOf(s);
    const sessionToken = session.current;
    // The session ends with the pick (and its resolve): the next typing starts another.
    session.current = null;
    if (point || !s.place_id) {
      onChange(s.description, point);
      return;
    }
    onChange(s.description, null);
    const controller = new AbortController();
    resolving.current = controller;
    setLocating(true);
    try {
      const { data } = await apiRequest<{ data: ResolvedPlace }>("geo/place", {
        query: { place_id: s.place_id, session: sessionToken ?? undefined },
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      picked.current = data.description;
      onChange(data.description, pointOf(data));
    } catch (err) {
      if (controller.signal.aborted) return;
      setResolveError(errorMessage(err, "The map service did not answer."));
    } finally {
      if (resolving.current === controller) {
        resolving.current = null;
        setLocating(false);
      }
    }
  }

  const { counted, message: tooLong } = limitState("Address", value.length, limit);
  const shownError = tooLong ?? error;
  const listId = `${id}-list`;
  const showList = open && value.trim().length >= MIN_CHARS && suggestions.length > 0;
  // Off the map: said once the owner has left the field (or at once when locating failed), never while typing.
  const notPlaced = !locating && !placed && value.trim().length > 0 && (!focused || !!resolveError);
  const noteId = `${id}-place`;
  const publicId = `${id}-public`;
  const shownPublicly = publicAddress(value);
  return (
    <div className="field combobox">
      <label className="field-label" htmlFor={id}>
        Address
      </label>
      <input
        ref={input}
        id={id}
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={!!shownError || undefined}
        aria-describedby={[counted ? `${id}-counter` : "", shownError ? `${id}-error` : "", notPlaced ? noteId : "", publicId].filter(Boolean).join(" ") || undefined}
        aria-busy={locating || undefined}
        autoComplete="street-address"
        value={value}
        onChange={(e) => {
          picked.current = null;
          resolving.current?.abort();
          resolving.current = null;
          setLocating(false);
          setResolveError(null);
          onChange(e.target.value, null);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          window.clearTimeout(closing.current);
          closing.current = window.setTimeout(() => setOpen(false), 150);
        }}
        onKeyDown={(e) => {
          if (!showList) return;
          if (e.key === "ArrowDown") setActive((i) => Math.min(suggestions.length - 1, i + 1));
          else if (e.key === "ArrowUp") setActive((i) => Math.max(0, i - 1));
          else if (e.key === "Enter" && active >= 0) void pick(suggestions[active]!);
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
                void pick(s);
              }}
            >
              {s.description}
            </li>
          ))}
        </ul>
      )}
      <FieldCounter id={`${id}-counter`} length={value.length} limit={limit} />
      {/* Before publishing (decision 024): who sees what, and the public form of what is typed. */}
      <p id={publicId} className="field-hint address-public-note">
        {OWNER_ADDRESS_NOTE}
        {shownPublicly && (
          <>
            {" "}
            Shown publicly as: <strong>{shownPublicly}</strong>
          </>
        )}
      </p>
      <div role="status" className="address-place-status">
        {locating && <p className="field-hint">Locating this address on the map…</p>}
        {paused && <p className="field-hint address-suggestions-paused">{paused}</p>}
        {notPlaced && (
          <p id={noteId} className="field-hint address-not-placed">
            {resolveError ? `${resolveError} ` : ""}
            {!resolveError && suggestions.length > 0 ? PICK_SUGGESTION_MESSAGE : NOT_PLACED_MESSAGE}
          </p>
        )}
      </div>
      {shownError && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {shownError}
        </p>
      )}
    </div>
  );
}

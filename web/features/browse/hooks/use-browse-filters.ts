import { useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { isIsoDate } from "@contract/constants";
import type { BrowseParams } from "../../../lib/listings-api";

/**
 * The spec's query-string names (university, term, sort, unitType, parking, pets, gender) plus q, min,
 * max, and from/to: the stay needed (issue 15), `YYYY-MM-DD`, sent only as a pair.
 */
export const FILTER_KEYS = ["university", "term", "sort", "unitType", "parking", "pets", "gender", "q", "min", "max", "from", "to"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The stay in the URL when it is a whole one (two dates, in order); otherwise none. */
export function stayOf(params: URLSearchParams): { from: string; to: string } | null {
  const from = params.get("from");
  const to = params.get("to");
  return from && to && isIsoDate(from) && isIsoDate(to) && from < to ? { from, to } : null;
}

export function toBrowseParams(params: URLSearchParams): BrowseParams {
  const stay = stayOf(params);
  return {
    university_id: params.get("university"),
    lease_term: params.get("term"),
    unit_type: params.get("unitType"),
    parking: params.get("parking") === "true",
    allow_pets: params.get("pets") === "true",
    gender_preference: params.get("gender"),
    min_rent: params.get("min"),
    max_rent: params.get("max"),
    q: params.get("q"),
    // Half a stay (one date typed so far) or one out of order filters nothing yet.
    available_from: stay?.from ?? null,
    available_to: stay?.to ?? null,
    sort: params.get("sort"),
  };
}

/** Filters live in the URL, so a filtered page can be shared and Back returns to it. */
export function useBrowseFilters() {
  const [params, setParams] = useSearchParams();
  const browse = useMemo(() => toBrowseParams(params), [params]);
  // The newest filters, also between a change and its re-render: two quick changes both stick.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  /** Several filters in one URL change (the stay's two dates go together). */
  const update = (changes: Partial<Record<FilterKey, string | null>>) => {
    const next = new URLSearchParams(latest.current);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    latest.current = next;
    setParams(next, { replace: true });
  };
  const set = (key: FilterKey, value: string | null) => update({ [key]: value });
  const clear = () => {
    latest.current = new URLSearchParams();
    setParams(latest.current, { replace: true });
  };
  const active = FILTER_KEYS.some((k) => params.has(k) && k !== "sort");
  return { params, browse, set, update, clear, active };
}

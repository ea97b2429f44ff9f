import { useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import type { BrowseParams } from "../../../lib/listings-api";

/** The spec's query-string names (university, term, sort, unitType, parking, pets, gender) plus q, min, max. */
export const FILTER_KEYS = ["university", "term", "sort", "unitType", "parking", "pets", "gender", "q", "min", "max"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export function toBrowseParams(params: URLSearchParams): BrowseParams {
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
  const set = (key: FilterKey, value: string | null) => {
    const next = new URLSearchParams(latest.current);
    if (value) next.set(key, value);
    else next.delete(key);
    latest.current = next;
    setParams(next, { replace: true });
  };
  const clear = () => {
    latest.current = new URLSearchParams();
    setParams(latest.current, { replace: true });
  };
  const active = FILTER_KEYS.some((k) => params.has(k) && k !== "sort");
  return { params, browse, set, clear, active };
}

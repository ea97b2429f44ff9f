import { useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { FILTER_KEYS, toBrowseParams, type FilterKey } from "@contract/browse-url";

export { FILTER_KEYS, stayOf, toBrowseParams, type FilterKey } from "@contract/browse-url";

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

import { useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router-dom";
import { FILTER_KEYS, readBrowseUrl, type FilterKey } from "@contract/browse-url";
import { useUniversityShortName } from "../../../lib/universities";

export { FILTER_KEYS, readBrowseUrl, stayOf, toBrowseParams, type FilterKey } from "@contract/browse-url";

/** Filters live in the URL, so a filtered page can be shared and Back returns to it. */
export function useBrowseFilters() {
  const [params, setParams] = useSearchParams();
  // A university id that names none (null once the list is known) is ignored like any unknown value.
  const university = useUniversityShortName(params.get("university"));
  const unknownUniversity = university.data === null;
  const { browse, ignored, valid } = useMemo(() => readBrowseUrl(params, { unknownUniversity }), [params, unknownUniversity]);
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
  /** Every filter goes; the List / Map choice stays (it is a view, not a filter). */
  const clear = () => {
    const view = latest.current.get("view");
    latest.current = new URLSearchParams(view ? { view } : {});
    setParams(latest.current, { replace: true });
  };
  const active = FILTER_KEYS.some((k) => params.has(k) && k !== "sort");
  return { params, browse, ignored, valid, set, update, clear, active };
}

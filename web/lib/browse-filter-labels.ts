/**
 * The active browse filters in words, one per filter (a whole stay is one; sort is an order, not a
 * filter): the browse page's removable chips and a saved search's summary say the same thing.
 */
import type { University } from "@contract/api";
import { stayOf, type FilterKey } from "@contract/browse-url";
import { withinMilesOf } from "@contract/constants";
import { formatStay } from "@contract/dates";
import { formatRent, GENDER_LABELS, termLabel, unitLabel } from "./listings-api";

export interface FilterLabel {
  key: string;
  label: string;
  /** The URL change that removes this filter. */
  remove: Partial<Record<FilterKey, null>>;
}

export function browseFilterLabels(params: URLSearchParams, universities: Pick<University, "id" | "abbreviation">[] | undefined): FilterLabel[] {
  const byValue: Partial<Record<FilterKey, (value: string) => string>> = {
    university: (id) => universities?.find((u) => String(u.id) === id)?.abbreviation ?? "University",
    term: termLabel,
    unitType: unitLabel,
    gender: (g) => GENDER_LABELS[g] ?? g,
    parking: () => "Parking",
    pets: () => "Pets allowed",
    q: (q) => `“${q}”`,
    min: (min) => `From ${formatRent(Number(min))}`,
    max: (max) => `Up to ${formatRent(Number(max))}`,
  };
  const labels: FilterLabel[] = (Object.keys(byValue) as FilterKey[]).flatMap((key) => {
    const value = params.get(key);
    return value ? [{ key, label: byValue[key]!(value), remove: { [key]: null } }] : [];
  });
  // The stay needed: one label for both dates ("May 20 - Aug 10"), once it is a whole stay.
  const stay = stayOf(params);
  if (stay) labels.push({ key: "stay", label: formatStay(stay.from, stay.to)!, remove: { from: null, to: null } });
  // Distance to campus (docs/decisions/019), once it is a distance the API takes.
  const within = withinMilesOf(params.get("within"));
  if (within) labels.push({ key: "within", label: `Within ${within} mi of campus`, remove: { within: null } });
  return labels;
}

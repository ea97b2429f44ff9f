import { formatStay, withinMilesOf } from "@contract/constants";
import { formatRent, GENDER_LABELS, termLabel, unitLabel } from "../../../lib/listings-api";
import { useUniversities } from "../../../lib/universities";
import { stayOf, useBrowseFilters, type FilterKey } from "../hooks/use-browse-filters";

/** What a filter's chip says, by its query-string value (sort is an order, not a filter: no chip). */
function useChipLabels(): Partial<Record<FilterKey, (value: string) => string>> {
  const universities = useUniversities();
  return {
    university: (id) => universities.data?.find((u) => String(u.id) === id)?.abbreviation ?? "University",
    term: termLabel,
    unitType: unitLabel,
    gender: (g) => GENDER_LABELS[g] ?? g,
    parking: () => "Parking",
    pets: () => "Pets allowed",
    q: (q) => `“${q}”`,
    min: (min) => `From ${formatRent(Number(min))}`,
    max: (max) => `Up to ${formatRent(Number(max))}`,
  };
}

/** The active filters as removable chips above the results, so they show even with the filters folded away. */
export function ActiveFilters() {
  const { params, update } = useBrowseFilters();
  const labels = useChipLabels();
  const chips: { key: string; label: string; remove: Partial<Record<FilterKey, null>> }[] = (Object.keys(labels) as FilterKey[]).flatMap((key) => {
    const value = params.get(key);
    return value ? [{ key, label: labels[key]!(value), remove: { [key]: null } }] : [];
  });
  // The stay needed: one chip for both dates ("May 20 - Aug 10"), once it is a whole stay.
  const stay = stayOf(params);
  if (stay) chips.push({ key: "stay", label: formatStay(stay.from, stay.to)!, remove: { from: null, to: null } });
  // Distance to campus (issue 15), once it is a distance the API takes.
  const within = withinMilesOf(params.get("within"));
  if (within) chips.push({ key: "within", label: `Within ${within} mi of campus`, remove: { within: null } });
  if (!chips.length) return null;
  return (
    <ul className="filter-chips" aria-label="Active filters">
      {chips.map(({ key, label, remove }) => (
        <li key={key}>
          <button type="button" className="filter-chip" aria-label={`Remove filter: ${label}`} onClick={() => update(remove)}>
            {label} <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

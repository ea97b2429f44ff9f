import { formatRent, GENDER_LABELS, termLabel, unitLabel } from "../../../lib/listings-api";
import { useUniversities } from "../../../lib/universities";
import { useBrowseFilters, type FilterKey } from "../hooks/use-browse-filters";

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
  const { params, set } = useBrowseFilters();
  const labels = useChipLabels();
  const chips = (Object.keys(labels) as FilterKey[]).flatMap((key) => {
    const value = params.get(key);
    return value ? [{ key, label: labels[key]!(value) }] : [];
  });
  if (!chips.length) return null;
  return (
    <ul className="filter-chips" aria-label="Active filters">
      {chips.map(({ key, label }) => (
        <li key={key}>
          <button type="button" className="filter-chip" aria-label={`Remove filter: ${label}`} onClick={() => set(key, null)}>
            {label} <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

import { browseFilterLabels } from "../../../lib/browse-filter-labels";
import { useUniversityShortName } from "../../../lib/universities";
import { useBrowseFilters } from "../hooks/use-browse-filters";

/** The active filters as removable chips above the results, so they show even with the filters folded away. */
export function ActiveFilters() {
  // Only the filters the page uses: an unknown value in the URL shows no chip.
  const { valid: params, update } = useBrowseFilters();
  const university = useUniversityShortName(params.get("university"));
  const chips = browseFilterLabels(params, university.data ? [university.data] : undefined);
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

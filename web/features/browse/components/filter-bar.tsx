import { useState } from "react";
import { DISTANCE, GENDER_PREFERENCES, LEASE_TERMS, UNIT_TYPES, withinMilesOf } from "@contract/constants";
import { CAMPUS_PARAM, SEARCH_MAX } from "@contract/browse-url";
import { paths } from "../../../config/paths";
import { GENDER_LABELS, termLabel, unitLabel } from "../../../lib/listings-api";
import { stayOf, useBrowseFilters } from "../hooks/use-browse-filters";
import { UniversityCombobox } from "../../../components/university-combobox";

/** The search box's counter shows from here on (80 % of the limit). */
const SEARCH_WARN = Math.ceil(SEARCH_MAX * 0.8);

/**
 * Every filter of the browse page; each change rewrites the query string at once. It is also a plain
 * GET form with named fields (docs/decisions/023): before the app has hydrated, or without JavaScript, Search
 * submits every filter and the server renders the results (a typed university: worker/routes/pages.ts).
 */
export function FilterBar() {
  // The fields show the URL's filters the page uses (an unknown value is ignored), except
  // the search box: a search too long for the API stays in it, flagged by its counter, to be shortened.
  const { params: url, valid: params, set, clear, active } = useBrowseFilters();
  const [q, setQ] = useState(url.get("q") ?? "");
  const qLength = q.trim().length;
  // On phones the filters fold away behind a button so listings stay on the first screen.
  const [expanded, setExpanded] = useState(false);
  const within = withinMilesOf(params.get("within"));
  const activeCount =
    ["university", "term", "unitType", "gender", "parking", "pets"].filter((k) => params.has(k)).length + (stayOf(params) ? 1 : 0) + (within ? 1 : 0);
  // The choices, plus a distance from a shared link that is not one of them (within=3).
  const withinOptions: number[] = [...DISTANCE.withinOptions];
  if (within && !withinOptions.includes(within)) withinOptions.push(within);
  // A search is ordered by relevance unless another sort is chosen (the API's default, docs/decisions/006).
  const searching = !!params.get("q")?.trim();
  const defaultSort = searching ? "relevance" : "newest";
  const chosenSort = params.get("sort");
  const sort = chosenSort && (searching || chosenSort !== "relevance") ? chosenSort : defaultSort;
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  // The stay filters once both dates are there and in order; until then the inputs say what is missing.
  const stayError = from && to && !stayOf(params) ? "“To” must be after “From”" : null;
  return (
    <form
      className="filter-bar"
      role="search"
      aria-label="Search and filters"
      method="get"
      action={paths.home}
      onSubmit={(e) => {
        e.preventDefault();
        set("q", q.trim() || null);
      }}
    >
      <div className="search-row">
        <label className="visually-hidden" htmlFor="browse-q">
          Search listings
        </label>
        <input
          id="browse-q"
          name="q"
          type="search"
          placeholder="Search listings"
          maxLength={SEARCH_MAX}
          value={q}
          aria-invalid={qLength > SEARCH_MAX || undefined}
          aria-describedby={qLength >= SEARCH_WARN ? "browse-q-count" : undefined}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit" className="button button-primary">
          Search
        </button>
      </div>
      {/* From 80 % of the API's limit on; a longer search from a link says it is too long. */}
      <span id="browse-q-count" className={`search-count${qLength > SEARCH_MAX ? " search-count-over" : ""}`} aria-live="polite">
        {qLength >= SEARCH_WARN ? (qLength > SEARCH_MAX ? `${qLength}/${SEARCH_MAX}: too long, shorten it to search` : `${qLength}/${SEARCH_MAX}`) : ""}
      </span>
      <button
        type="button"
        className="button button-ghost filters-toggle"
        aria-expanded={expanded}
        aria-controls="browse-filters"
        onClick={() => setExpanded((e) => !e)}
      >
        Filters{activeCount ? ` (${activeCount})` : ""}
      </button>
      <div id="browse-filters" className={`filters${expanded ? " filters-open" : ""}`}>
        <UniversityCombobox
          className="field field-wide combobox"
          name={CAMPUS_PARAM}
          placeholder="All universities"
          emptyOption="All universities"
          loadOnFocus
          value={params.get("university")}
          onChange={(id) => set("university", id)}
        />
        <label className="field">
          <span className="field-label">Term</span>
          <select name="term" value={params.get("term") ?? ""} onChange={(e) => set("term", e.target.value || null)}>
            <option value="">Any term</option>
            {LEASE_TERMS.map((t) => (
              <option key={t} value={t}>
                {termLabel(t)}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="field stay-field">
          <legend className="field-label">I need it</legend>
          <div className="stay-inputs">
            {/* From and To are the inputs' names, not a second line of labels: the dates line up with the other fields. */}
            <label className="stay-input">
              <span className="visually-hidden">From</span>
              <input
                type="date"
                name="from"
                value={from}
                aria-invalid={stayError ? true : undefined}
                aria-describedby={stayError ? "browse-stay-error" : undefined}
                onChange={(e) => set("from", e.target.value || null)}
              />
            </label>
            <span className="stay-dash" aria-hidden="true">
              –
            </span>
            <label className="stay-input">
              <span className="visually-hidden">To</span>
              <input
                type="date"
                name="to"
                value={to}
                min={from || undefined}
                aria-invalid={stayError ? true : undefined}
                aria-describedby={stayError ? "browse-stay-error" : undefined}
                onChange={(e) => set("to", e.target.value || null)}
              />
            </label>
          </div>
          {stayError && (
            <span className="field-error" id="browse-stay-error" role="alert">
              {stayError}
            </span>
          )}
        </fieldset>
        <label className="field">
          <span className="field-label">Distance to campus</span>
          <select name="within" value={within ?? ""} onChange={(e) => set("within", e.target.value || null)}>
            <option value="">Any distance</option>
            {withinOptions.map((miles) => (
              <option key={miles} value={miles}>
                Within {miles} mi
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Unit type</span>
          <select name="unitType" value={params.get("unitType") ?? ""} onChange={(e) => set("unitType", e.target.value || null)}>
            <option value="">Any unit</option>
            {UNIT_TYPES.map((t) => (
              <option key={t} value={t}>
                {unitLabel(t)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Gender preference</span>
          <select name="gender" value={params.get("gender") ?? ""} onChange={(e) => set("gender", e.target.value || null)}>
            <option value="">Any</option>
            {GENDER_PREFERENCES.map((g) => (
              <option key={g} value={g}>
                {GENDER_LABELS[g]}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-wide">
          <span className="field-label">Sort</span>
          <select name="sort" value={sort} onChange={(e) => set("sort", e.target.value === defaultSort ? null : e.target.value)}>
            {searching && <option value="relevance">Best match</option>}
            <option value="newest">Newest</option>
            <option value="price_asc">Price: low to high</option>
            <option value="price_desc">Price: high to low</option>
            <option value="distance">Closest to campus</option>
          </select>
        </label>
        <div className="filter-checks">
          <label className="switch">
            <input type="checkbox" name="parking" value="true" checked={params.get("parking") === "true"} onChange={(e) => set("parking", e.target.checked ? "true" : null)} />
            Parking
          </label>
          <label className="switch">
            <input type="checkbox" name="pets" value="true" checked={params.get("pets") === "true"} onChange={(e) => set("pets", e.target.checked ? "true" : null)} />
            Pets allowed
          </label>
          {active && (
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setQ("");
                clear();
              }}
            >
              Clear filters
            </button>
          )}
        </div>
      </div>
    </form>
  );
}

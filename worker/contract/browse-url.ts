/**
 * Browse filters as they live in the page's URL, and the API query they become: one home for the
 * mapping, used by the SPA (browse, the server render) and by saved searches (docs/decisions/020), which store
 * the URL's query string and match it on the server through the same API query. No zod here: the
 * home page imports this.
 */
import { GENDER_PREFERENCES, isIsoDate, LEASE_TERMS, UNIT_TYPES, withinMilesOf } from "./constants";

/**
 * The product's query-string names (university, term, sort, unitType, parking, pets, gender) plus q, min,
 * max, from/to: the stay needed (docs/decisions/021), `YYYY-MM-DD`, sent only as a pair, and within: at most that
 * many miles from campus (docs/decisions/019).
 */
export const FILTER_KEYS = ["university", "term", "sort", "unitType", "parking", "pets", "gender", "q", "min", "max", "from", "to", "within"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The browse API's filters (GET subleases/), as the SPA holds them. */
export interface BrowseParams {
  university_id?: string | null;
  lease_term?: string | null;
  unit_type?: string | null;
  parking?: boolean;
  allow_pets?: boolean;
  gender_preference?: string | null;
  min_rent?: string | null;
  max_rent?: string | null;
  q?: string | null;
  /** The stay needed (docs/decisions/021), `YYYY-MM-DD`: both or neither. */
  available_from?: string | null;
  available_to?: string | null;
  /** At most this many miles from the listing's campus (docs/decisions/019). */
  within_miles?: string | null;
  sort?: string | null;
}

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
    // A distance out of range or not a number filters nothing (as a half stay does).
    within_miles: withinMilesOf(params.get("within"))?.toString() ?? null,
    sort: params.get("sort"),
  };
}

/**
 * The browse API's sorts and the longest search it takes: its schema (worker/contract/listings.ts)
 * is built from these, and the browse page ignores other values in its URL (readBrowseUrl).
 * relevance: best match first (docs/decisions/006), the order of a search when no sort is chosen.
 */
export const BROWSE_SORTS = ["newest", "price_asc", "price_desc", "distance", "relevance"] as const;
export const SEARCH_MAX = 100;

/** Promoted listings (docs/decisions/006): first (the API's default), only them (the Featured row), or in the sort's order with the rest. */
export const PROMOTED_MODES = ["first", "only", "in_order"] as const;
export type PromotedMode = (typeof PROMOTED_MODES)[number];

const oneOf = (values: readonly string[], value: string) => values.includes(value);
const WHOLE_NUMBER = /^\d{1,9}$/;
const UNIVERSITY_ID = /^[1-9]\d{0,8}$/;

/** Whether the URL's value of a filter is one the API takes (absent or empty: nothing to judge). */
const VALID: Partial<Record<FilterKey, (value: string) => boolean>> = {
  university: (v) => UNIVERSITY_ID.test(v),
  term: (v) => oneOf(LEASE_TERMS, v),
  sort: (v) => oneOf(BROWSE_SORTS, v),
  unitType: (v) => oneOf(UNIT_TYPES, v),
  gender: (v) => oneOf(GENDER_PREFERENCES, v),
  parking: (v) => v === "true" || v === "false",
  pets: (v) => v === "true" || v === "false",
  q: (v) => v.trim().length <= SEARCH_MAX,
  min: (v) => WHOLE_NUMBER.test(v),
  max: (v) => WHOLE_NUMBER.test(v),
  within: (v) => withinMilesOf(v) !== null,
  // A date that is not one (2027-13-45, "yesterday") is ignored like any unknown value; two real dates
  // out of order are kept: a range being typed, which the page flags.
  from: (v) => isIsoDate(v),
  to: (v) => isIsoDate(v),
};

/** The browse URL as the page reads it: the API query, and the filters it ignores. */
export interface BrowseUrl {
  browse: BrowseParams;
  /** Filters in the URL with a value the API does not take (an unknown term, a university that does not exist, ...). */
  ignored: FilterKey[];
  /** The URL without them (what a saved search keeps). */
  valid: URLSearchParams;
}

/**
 * The browse page's reading of its URL: a hand-edited or old link with an unknown value
 * (`?sort=banana&term=castle`, a search over SEARCH_MAX characters) still shows results: each such
 * value is ignored and named in `ignored`, never sent (the API answers 422 to it, for API clients).
 * `unknownUniversity`: the university id names no university (known once the list has loaded).
 * Half a stay is not ignored: it is a filter being typed (toBrowseParams leaves it out).
 */
export function readBrowseUrl(params: URLSearchParams, options: { unknownUniversity?: boolean } = {}): BrowseUrl {
  const ignored: FilterKey[] = [];
  const valid = new URLSearchParams(params);
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (!value) continue;
    const ok = VALID[key]?.(value) ?? true;
    if (!ok || (key === "university" && options.unknownUniversity)) {
      ignored.push(key);
      valid.delete(key);
    }
  }
  return { browse: toBrowseParams(valid), ignored, valid };
}

/** The query string values GET subleases/ receives for these filters (absent ones left out). */
export function browseApiQuery(params: BrowseParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === "string" && value !== "") query[key] = value;
    else if (value === true) query[key] = "true";
  }
  return query;
}

/**
 * The browse form's university as typed text (`?campus=UF`): what the filter form sends when the page
 * runs without JavaScript (its searchable university field, docs/decisions/023). The worker answers such a URL
 * with a redirect to the same filters with `university={id}` (worker/routes/pages.ts).
 */
export const CAMPUS_PARAM = "campus";

/**
 * The university typed text names: its short name, its name, or the one university whose short or
 * full name contains every word typed (case and spacing ignored); null when none or several match.
 */
export function universityNamed<U extends { name: string; abbreviation: string }>(universities: readonly U[], text: string): U | null {
  // "UF · University of Florida" (the picker's own label) names UF too.
  const typed = text.replace(/·/g, " ").trim().toLowerCase().replace(/\s+/g, " ");
  if (!typed) return null;
  const exact = universities.find((u) => u.abbreviation.toLowerCase() === typed || u.name.toLowerCase() === typed);
  if (exact) return exact;
  const words = typed.split(" ");
  const matches = universities.filter((u) => words.every((w) => `${u.abbreviation} ${u.name}`.toLowerCase().includes(w)));
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * The browse URL a no-JavaScript submit of the filter form stands for: `campus` becomes
 * `university={id}` (emptied: every university; not one university: the filter is dropped), and the
 * fields left empty (`term=`, `sort=newest`) are left out, so the address reads as one made by the page.
 */
export function browseUrlFromForm<U extends { id: number; name: string; abbreviation: string }>(
  params: URLSearchParams,
  universities: readonly U[],
): URLSearchParams {
  const next = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value && !(key === "sort" && value === "newest")) next.set(key, value);
  }
  const campus = params.get(CAMPUS_PARAM);
  if (campus !== null) {
    next.delete("university");
    const university = universityNamed(universities, campus);
    if (university) next.set("university", String(university.id));
  }
  return next;
}

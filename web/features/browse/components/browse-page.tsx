import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { startTransition, Suspense, useEffect, useMemo, useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { SEARCH_MAX, type BrowseParams, type FilterKey } from "@contract/browse-url";
import { MOBILE_BREAKPOINT_PX, PAGE_SIZES } from "@contract/constants";
import { PageFrame } from "../../../components/layout/page-frame";
import { ListingCard, ListingGridSkeleton, type CardListing } from "../../../components/listing-card";
import { deferred, whenIdle } from "../../../components/ui/deferred";
import { ShieldIcon } from "../../../components/ui/icons";
import { errorMessage } from "../../../lib/api-client";
import { browseQuery, FEATURED_COUNT, featuredQuery } from "../../../lib/listings-api";
import { useMediaQuery } from "../../../lib/use-media-query";
import { useBrowseFilters } from "../hooks/use-browse-filters";
import { ActiveFilters } from "./active-filters";
import { FilterBar } from "./filter-bar";
import { SaveSearchButton } from "./save-search";

/** The product's batch (docs/product-rules.md "Timings and sizes"): 8 cards on a phone, 12 wider. The server renders a phone's (less HTML; a desktop adds its 4 after hydration, below the fold). */
function useBatchSize() {
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`, true);
  return mobile ? PAGE_SIZES.browseDisplayMobile : PAGE_SIZES.browseDisplay;
}

/** The cards of the first screen's row on a desktop (a phone shows one or two): hydrated first. */
const FIRST_ROW = 4;

/**
 * The API pages without a total: while more pages exist the count is a round floor ("50+ listings"
 * for 53 loaded: "53+" read as a glitch), to the ten (under ten, as loaded).
 */
export function resultsCount(loaded: number, more: boolean): string {
  if (more) return `${loaded >= 10 ? Math.floor(loaded / 10) * 10 : loaded}+ listings`;
  return loaded === 1 ? "1 listing" : `${loaded} listings`;
}

/** What to try when nothing matches: the distance and the dates are named when they are what filters. */
export function emptyHint(browse: BrowseParams): string {
  const wider = [browse.within_miles && "a wider distance", browse.available_from && "other dates"].filter(Boolean);
  if (wider.length === 0) return "Try another university or term, or remove a filter.";
  return `Try ${wider.join(", ")}, or another university or term.`;
}

/** Browse's map view (docs/decisions/024): its own chunk, loaded only with `view=map`. */
const BrowseMap = deferred(() => import("../../../components/map/browse-map").then((m) => m.BrowseMap));

const NONE: CardListing[] = [];
/** The Featured row: promoted listings only, one row at most. */
const featuredOf = (listings: CardListing[]) => listings.filter((l) => l.promoted).slice(0, FEATURED_COUNT);

/** The quiet line under the filters when the URL has values the page ignores; null when none. */
export function ignoredNote(ignored: readonly FilterKey[]): string | null {
  const search = ignored.includes("q") ? `The search in this link is longer than ${SEARCH_MAX} characters and is ignored.` : null;
  const others = ignored.some((k) => k !== "q") ? "Some filters in this link were not recognised and are ignored." : null;
  const text = [others, search].filter(Boolean).join(" ");
  return text || null;
}

export function BrowsePage() {
  const { browse, params, valid, ignored, clear, active } = useBrowseFilters();
  const location = useLocation();
  const batch = useBatchSize();
  const key = params.toString();
  // Cards shown beyond the first batch (Load More), for these filters. The first batch itself follows
  // the screen: a server-rendered page starts with the phone's batch and a desktop's follows hydration.
  const [shown, setShown] = useState<{ key: string; count: number } | null>(null);
  // A new filter starts again from the first batch.
  const visible = shown?.key === key ? shown.count : batch;

  const results = useInfiniteQuery(browseQuery(browse));
  // Listings promoted now get their own Featured row on the first screen (docs/decisions/006); the results
  // follow the chosen order exactly, without the row's cards (a listing is never shown twice).
  const featured = useQuery({ ...featuredQuery(browse), select: featuredOf }).data ?? NONE;
  const pages = results.data?.pages;
  const listings = useMemo(() => {
    const all = pages?.flatMap((p) => p.data) ?? [];
    if (!featured.length) return all;
    const inRow = new Set(featured.map((l) => l.id));
    return all.filter((l) => !inRow.has(l.id));
  }, [pages, featured]);
  const total = listings.length + featured.length;
  const note = ignoredNote(ignored);
  const back = `${location.pathname}${location.search}`;
  // List / Map (docs/decisions/024): `view=map` beside the filters in the URL; the map's chunk loads only then.
  // Kept to a few hundred bytes: this page is `/`, whose first load has a budget (decision 023).
  const mapView = params.get("view") === "map";
  const viewLink = (map: boolean) => {
    const next = new URLSearchParams(params);
    if (map) next.set("view", "map");
    else next.delete("view");
    return (
      <Link to={{ search: `${next}` }} replace aria-current={map === mapView ? "page" : undefined}>
        {map ? "Map" : "List"}
      </Link>
    );
  };

  // The next Load More's cards are fetched ahead, once the page is idle, so pressing it only renders
  // (the first server page holds just the first screen's 12, docs/decisions/023).
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = results;
  const runsOutNext = visible + batch > listings.length;
  useEffect(() => {
    if (!runsOutNext || !hasNextPage || isFetchingNextPage) return;
    return whenIdle(() => void fetchNextPage());
  }, [runsOutNext, hasNextPage, isFetchingNextPage, fetchNextPage]);

  function loadMore() {
    const next = visible + batch;
    // A transition: the new cards render in slices, so the tap is answered at once on a slow phone.
    startTransition(() => setShown({ key, count: next }));
    // Local results run out (the fetch ahead has not come back yet): fetch the next server page.
    if (next > listings.length && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }

  const canLoadMore = visible < listings.length || results.hasNextPage;
  // Cards asked for and not there yet (not the quiet fetch ahead).
  const waiting = isFetchingNextPage && visible > listings.length;
  return (
    <PageFrame title="Find a sublease near campus" hideHeading>
      <section className="hero hero-compact">
        <div className="hero-text">
          <h1>Find a sublease near campus</h1>
          <p className="lead">Verified students, reviewed listings. Take over a lease for a term or list yours in minutes.</p>
          <ul className="trust-points" aria-label="Why CampusNest">
            <li>
              <ShieldIcon /> ID-verified listers
            </li>
            <li>
              <ShieldIcon /> Every listing reviewed
            </li>
          </ul>
        </div>
      </section>
      <FilterBar key={params.get("q") ?? ""} />
      <ActiveFilters />
      {note && (
        <p className="browse-ignored muted" role="status">
          {note}
        </p>
      )}
      <SaveSearchButton query={valid.toString()} active={[...valid.keys()].some((k) => k !== "sort")} />
      <nav className="view-toggle" aria-label="View">
        {viewLink(false)}
        {viewLink(true)}
      </nav>
      {mapView && pages && <BrowseMap load listings={[...featured, ...listings.slice(0, visible)]} university={browse.university_id} back={back} more={canLoadMore} />}
      {/* Above the Featured row: it counts every listing on the page, the row's too (they match the filters). */}
      {results.data && total > 0 && (
        <p className="results-count muted" aria-live="polite">
          {resultsCount(total, results.hasNextPage)}
        </p>
      )}
      {featured.length > 0 && !results.isError && (
        <section className="featured-row" aria-labelledby="featured-heading">
          <h2 id="featured-heading" className="featured-heading">
            Featured
          </h2>
          <div className="featured-cards">
            {featured.map((listing) => (
              <ListingCard key={listing.id} listing={listing} back={back} />
            ))}
          </div>
        </section>
      )}
      <section aria-labelledby="results-heading" aria-busy={results.isPending}>
        <h2 id="results-heading" className="visually-hidden">
          Listings
        </h2>
        {results.isPending ? (
          <ListingGridSkeleton count={batch} />
        ) : results.isError && !results.data ? (
          <div className="panel empty-state" role="alert">
            <p>{errorMessage(results.error, "Failed to load listings")}</p>
            <button type="button" className="button button-primary" onClick={() => results.refetch()}>
              Try again
            </button>
          </div>
        ) : total === 0 ? (
          <div className="panel empty-state">
            <h3>No listings match your search</h3>
            <p className="muted">{emptyHint(browse)}</p>
            {active && (
              <button type="button" className="button button-primary" onClick={clear}>
                Clear filters
              </button>
            )}
          </div>
        ) : (
          <>
            <div className="listing-grid">
              {/* Two Suspense boundaries (no fallback: nothing here suspends): a server-rendered page
                  hydrates them one after the other, after the navbar, hero and filters, so the first
                  screen answers taps before the cards below it are done (docs/decisions/023). */}
              <Suspense>
                {listings.slice(0, Math.min(visible, FIRST_ROW)).map((listing, i) => (
                  <ListingCard key={listing.id} listing={listing} back={back} priority={i === 0} />
                ))}
              </Suspense>
              <Suspense>
                {listings.slice(FIRST_ROW, visible).map((listing) => (
                  <ListingCard key={listing.id} listing={listing} back={back} />
                ))}
              </Suspense>
            </div>
            {canLoadMore && (
              <div className="load-more">
                <button type="button" className="button button-ghost button-lg" onClick={loadMore} disabled={waiting}>
                  {waiting ? "Loading…" : "Load More"}
                </button>
              </div>
            )}
          </>
        )}
      </section>
    </PageFrame>
  );
}

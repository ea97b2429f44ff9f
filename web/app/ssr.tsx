/**
 * The first screen rendered by the worker (docs/decisions/017): `/` and `/listing/{id}` are rendered here with
 * the same route table, providers and components as the browser, from data fetched through the same
 * query options, and the query cache they used is handed back to be embedded as a JSON data block.
 * web/main.tsx hydrates from it, so the browser neither re-renders nor re-fetches that data.
 * Only the worker imports this module (through the `@web/ssr` alias); it never ships to browsers.
 */
import { dehydrate, type QueryClient } from "@tanstack/react-query";
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { matchPath, StaticRouter } from "react-router-dom";
import type { RenderPage } from "@contract/ssr";
import { paths, routePatterns } from "../config/paths";
import { ApiError, setApiTransport } from "../lib/api-client";
import { publicUserQuery } from "../lib/public-user-api";
import { listingQuery } from "../lib/listing-detail";
import { browseQuery, featuredQuery } from "../lib/listings-api";
import { universitiesQuery, universityShortNameQuery } from "../lib/universities";
import { cardOf } from "../components/listing-card";
import { readBrowseUrl } from "../features/browse/hooks/use-browse-filters";
import { AppProviders, createQueryClient, VERSION_QUERY_KEY } from "./providers";
import { AppRoutes } from "./router";

/** Fetches what the page shows on its first screen; answers the page's HTTP status. */
async function prefetch(queryClient: QueryClient, url: URL): Promise<number> {
  if (url.pathname === paths.home) {
    // The university first: one the URL names that does not exist is ignored, as the page does.
    const university = url.searchParams.get("university");
    const shortName = university ? await queryClient.fetchQuery(universityShortNameQuery(university)).catch(() => undefined) : undefined;
    const { browse: params } = readBrowseUrl(url.searchParams, { unknownUniversity: shortName === null });
    const browse = browseQuery(params);
    const featured = featuredQuery(params);
    await Promise.all([queryClient.prefetchInfiniteQuery(browse), queryClient.prefetchQuery(featured)]);
    // Only what the first screen renders travels in the page (docs/decisions/023): the cards' fields, and the
    // chosen university's id and short name; the full list loads when the university picker is opened.
    queryClient.setQueryData(browse.queryKey, (data) =>
      data && { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.map(cardOf) as typeof page.data })) },
    );
    queryClient.setQueryData(featured.queryKey, (data) => data && (data.map(cardOf) as typeof data));
    queryClient.removeQueries({ queryKey: universitiesQuery.queryKey, exact: true });
    return 200;
  }
  const listing = matchPath(routePatterns.listing, url.pathname);
  if (listing) {
    const id = listing.params.id;
    try {
      const data = await queryClient.fetchQuery(listingQuery(id));
      await queryClient.prefetchQuery(publicUserQuery(data.user_id));
      return 200;
    } catch (err) {
      return err instanceof ApiError && err.status === 404 ? 404 : 200;
    }
  }
  return 200;
}

export const renderPage: RenderPage = async ({ url, version, transport }) => {
  setApiTransport(transport);
  // No retries on the server: a failed call renders the page's error state, as the browser would.
  const queryClient = createQueryClient({ retry: false });
  queryClient.setQueryData(VERSION_QUERY_KEY, version);
  const status = await prefetch(queryClient, new URL(url));

  // prerender (not a stream) waits for everything, and an unbounded chunk size keeps React from
  // outlining a big boundary: the page arrives complete, with no Suspense fallback swapped in later
  // by an inline script (our CSP, without 'unsafe-inline', blocks those).
  let renderError: unknown = null;
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <StaticRouter location={new URL(url).pathname + new URL(url).search}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    { progressiveChunkSize: Number.POSITIVE_INFINITY, onError: (err) => void (renderError ??= err) },
  );
  const html = await new Response(prelude).text();
  if (renderError) throw renderError;
  return {
    status,
    complete: queryClient.getQueryCache().getAll().every((query) => query.state.status !== "error"),
    html,
    // Failed queries too, so a missing listing hydrates as "Listing not found" (see main.tsx).
    data: dehydrate(queryClient, { shouldDehydrateQuery: (query) => query.state.status !== "pending", shouldRedactErrors: () => false }),
  };
};

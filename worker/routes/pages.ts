import type { Context, Hono } from "hono";
import { browseUrlFromForm, CAMPUS_PARAM } from "../contract/browse-url";
import { listUniversities } from "../db/queries/universities";
import type { AppContext } from "../lib/context";
import { edgeCached } from "../services/edge-cache";
import { renderedPage, type AppFetch } from "../services/pages";

/**
 * The pages the worker renders (docs/decisions/017): the home page (browse, filters from the query string)
 * and a listing. Their data is read through the app itself, so it is the API's own answer.
 */
export function pageRoutes(app: Hono<AppContext>) {
  const appFetchFor = (c: Context<AppContext>): AppFetch => async (request) => app.fetch(request, c.env, c.executionCtx);
  // Cached at the edge for visitors (services/edge-cache): the home page by its filters, a listing
  // only at its bare address (the one its writes purge; `?back=` variants are rendered each time).
  app.get("/", async (c) => {
    // The filter form sent without JavaScript (`?campus=UF&term=&sort=newest`): to the page's own URL.
    const url = new URL(c.req.url);
    if (url.searchParams.has(CAMPUS_PARAM)) {
      const query = browseUrlFromForm(url.searchParams, await listUniversities(c.var.db)).toString();
      return c.redirect(query ? `/?${query}` : "/", 303);
    }
    return edgeCached(c, () => renderedPage(c, appFetchFor(c)));
  });
  app.get("/listing/:id", (c) => edgeCached(c, () => renderedPage(c, appFetchFor(c), c.req.param("id")), { query: false }));
}

/**
 * The seam between the worker and the SPA's server renderer (web/app/ssr.tsx, docs/decisions/017). The worker
 * imports the renderer through the `@web/ssr` alias (wrangler.toml, vitest.config.ts) and types it
 * with this interface; the web side implements it, so both are checked against one definition.
 */

/** How an API call made while rendering reaches the API (the worker answers it in-process). */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;

export interface RenderPageInput {
  /** The page's absolute URL (path and query string decide the route and its data). */
  url: string;
  /** The build version the footer shows (the browser bundle has it built in). */
  version: string;
  /** Answers the API calls the page's data needs. */
  transport: ApiTransport;
}

export interface RenderedPage {
  /** 200, or 404 for a listing that does not exist or is not public. */
  status: number;
  /** The markup that goes inside <div id="root">. */
  html: string;
  /** No read the page needed failed (else it shows an error state and must not be cached). */
  complete: boolean;
  /** The query cache the markup was rendered from (dehydrated), embedded for hydration. */
  data: unknown;
}

export type RenderPage = (input: RenderPageInput) => Promise<RenderedPage>;

/** The id of the JSON data block the SPA reads before hydrating. */
export const SSR_DATA_ID = "ssr-data";

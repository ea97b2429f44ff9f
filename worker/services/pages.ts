/**
 * Pages rendered by the worker (docs/decisions/017): `/` and `/listing/{id}` arrive as HTML made by the SPA's
 * own components (web/app/ssr.tsx), with the data they used in a JSON block for hydration. The
 * data comes from this worker's own API, answered in-process (no network hop, same JSON as the
 * browser gets). Any failure to render falls back to the plain SPA page, which renders in the browser.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context } from "hono";
import { renderPage } from "@web/ssr";
import { SSR_DATA_ID, type ApiTransport } from "../contract/ssr";
import { isPublicListing } from "../contract/policies";
import { findListingRow, photosFor } from "../db/queries/listings";
import type { AppContext } from "../lib/context";
import { log } from "../lib/log";
import { APP_VERSION } from "../version";
import { serveAsset } from "./assets";

/** Answers an API request in-process (the app's own fetch). */
export type AppFetch = (request: Request) => Promise<Response>;

/** The API calls of the page being rendered; one store per render, so concurrent renders never mix. */
const apiCalls = new AsyncLocalStorage<{ origin: string; appFetch: AppFetch }>();

const transport: ApiTransport = (url, init) => {
  const call = apiCalls.getStore();
  if (!call) return Promise.reject(new Error("An API call outside a page render"));
  // Read past the edge cache: a page is cached with its own timestamp, so it must never be built
  // from an API answer that is already on its way out (or that a purge has just dropped).
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", "no-cache");
  return call.appFetch(new Request(new URL(url, call.origin), { ...init, headers }));
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** JSON inside <script type="application/json">: `<` escaped, so no `</script>` or `<!--` can end it. */
const scriptJson = (data: unknown) =>
  JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

/** Open Graph and Twitter tags (title, rent, first photo) so a link pasted into a chat previews the listing. */
async function listingHead(c: Context<AppContext>, id: string): Promise<{ title: string; tags: string } | null> {
  const db = c.var.db;
  const row = await findListingRow(db, id);
  if (!row || !isPublicListing(row)) return null;
  const origin = c.var.config.publicBaseUrl || new URL(c.req.url).origin;
  const photo = (await photosFor(db, [row.id])).get(row.id)?.[0];
  const title = `${row.title} · $${row.monthly_rent.toLocaleString("en-US")}/month`;
  const description = `${row.university_abbreviation} sublease: ${row.description.slice(0, 160)}`;
  const image = photo ? `${origin}/api/v1/images/${photo.key}` : null;
  const tags = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="CampusNest">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:url" content="${escapeHtml(`${origin}/listing/${row.id}`)}">`,
    // One address per listing for search engines, whatever ?back= a link carried.
    `<link rel="canonical" href="${escapeHtml(`${origin}/listing/${row.id}`)}">`,
    ...(image ? [`<meta property="og:image" content="${escapeHtml(image)}">`] : []),
    `<meta name="twitter:card" content="${image ? "summary_large_image" : "summary"}">`,
    `<meta name="twitter:title" content="${escapeHtml(title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(description)}">`,
    ...(image ? [`<meta name="twitter:image" content="${escapeHtml(image)}">`] : []),
  ].join("\n    ");
  return { title: `${title} · CampusNest`, tags };
}

/**
 * React's server renderer puts a preload for each eager image it renders (`<img>` not lazy: the
 * listing's main photo, `fetchpriority="high"`) before the page's markup, i.e. in the body after every
 * script and stylesheet of the head. These are those `<link rel="preload" as="image">` tags, taken
 * off the start of the markup: made by React from the `<img>` itself, so their `imagesrcset` and
 * `imagesizes` are exactly the ones the `<img>` asks for and the browser downloads the photo once.
 */
export function leadingImagePreloads(html: string): { preloads: string[]; rest: string } {
  const preloads: string[] = [];
  let rest = html;
  for (let m = /^<link rel="preload" as="image"[^>]*>/.exec(rest); m; m = /^<link rel="preload" as="image"[^>]*>/.exec(rest)) {
    preloads.push(m[0]);
    rest = rest.slice(m[0].length);
  }
  return { preloads, rest };
}

/**
 * A listing page's main photo, and the first card's photo on `/`, are the pages' largest paints
 * (docs/decisions/023): their preload goes first in the head, before the scripts and the stylesheet, so the
 * photo is asked for as soon as the head arrives.
 */
function withImagePreloads(html: string, preloads: string[]): string {
  if (!preloads.length) return html;
  const tags = preloads.map((tag) => `${tag}\n    `).join("");
  // Before the first script (the theme's inline script blocks the parser for a moment), else the first stylesheet, else </head>.
  const found = ["<script", `<link rel="stylesheet"`, "</head>"].map((tag) => html.indexOf(tag)).filter((i) => i >= 0);
  if (!found.length) return html;
  const at = Math.min(...found);
  return `${html.slice(0, at)}${tags}${html.slice(at)}`;
}

/**
 * The page at this request's URL, rendered. `appFetch` answers the API calls its data needs;
 * `listingId` adds the listing's link-preview tags (or "Listing not found" as the title).
 */
export async function renderedPage(c: Context<AppContext>, appFetch: AppFetch, listingId?: string): Promise<Response> {
  const url = new URL(c.req.url);
  try {
    const [template, page, head] = await Promise.all([
      c.env.ASSETS.fetch(new Request(new URL("/", url))).then((r) => r.text()),
      apiCalls.run({ origin: url.origin, appFetch }, () => renderPage({ url: url.href, version: APP_VERSION, transport })),
      listingId ? listingHead(c, listingId) : null,
    ]);
    // The photo preloads React rendered move to the head (a listing's main photo, the home's first card).
    const { preloads, rest: markup } = page.status === 200 ? leadingImagePreloads(page.html) : { preloads: [], rest: page.html };
    let html = withImagePreloads(
      template.replace(`<div id="root"></div>`, () => `<div id="root">${markup}</div><script type="application/json" id="${SSR_DATA_ID}">${scriptJson(page.data)}</script>`),
      preloads,
    );
    if (head && page.status === 200) {
      html = html
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`)
        .replace("</head>", () => `    ${head.tags}\n  </head>`);
    } else if (page.status === 404) {
      html = html.replace(/<title>[^<]*<\/title>/, () => "<title>Listing not found · CampusNest</title>");
    }
    // A page showing a failed read (a D1 blip, a bad filter) is not shared through the edge cache.
    return c.html(html, page.status as 200 | 404, page.complete ? {} : { "Cache-Control": "no-store" });
  } catch (err) {
    log.error("page_render_failed", {
      request_id: c.var.requestId,
      path: listingId ? "/listing/:id" : url.pathname,
      message: err instanceof Error ? err.message : String(err),
    });
    // The plain SPA page (rendered in the browser), never kept by the edge cache.
    const shell = await serveAsset(c);
    const headers = new Headers(shell.headers);
    headers.set("Cache-Control", "no-store");
    return new Response(shell.body, { status: shell.status, headers });
  }
}

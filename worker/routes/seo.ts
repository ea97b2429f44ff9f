/**
 * For search engines: /robots.txt (private pages kept out of the index, the sitemap named) and a
 * paged sitemap of public listings. Listing ids are random base62, so the pages split them by first
 * character: each page is one range read of the primary key (no OFFSET), about 1/62 of the listings.
 * The hidden staff path is deliberately not named here.
 */
import type { Context } from "hono";
import { publicListingsInIdRange } from "../db/queries/listings";
import type { AppContext } from "../lib/context";
import { notFound } from "../lib/errors";
import { createRouter } from "../lib/context";

/** First characters of ids, in the database's (binary) order. */
const ID_FIRST_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Public pages besides listings. */
const PAGES = ["/", "/safety", "/support", "/terms"];
/** Signed-in, one-off or private pages: nothing for an index. */
const PRIVATE = ["/profile", "/favorites", "/messages", "/create", "/edit/", "/promote", "/billing", "/verification", "/availability", "/unsubscribe"];
const CACHE = "public, max-age=3600";

const originOf = (c: Context<AppContext>) => c.var.config.publicBaseUrl || new URL(c.req.url).origin;
const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!);
const xml = (c: Context<AppContext>, body: string) =>
  c.body(`<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`, 200, { "content-type": "application/xml; charset=utf-8", "cache-control": CACHE });

export const seoRoutes = createRouter()
  .get("/robots.txt", (c) => {
    const lines = [
      "User-agent: *",
      // Link previews fetch listing photos.
      "Allow: /api/v1/images/",
      "Disallow: /api/",
      ...PRIVATE.map((p) => `Disallow: ${p}`),
      `Sitemap: ${originOf(c)}/sitemap.xml`,
    ];
    return c.body(`${lines.join("\n")}\n`, 200, { "content-type": "text/plain; charset=utf-8", "cache-control": CACHE });
  })
  .get("/sitemap.xml", (c) => {
    const origin = originOf(c);
    const maps = [`${origin}/sitemap-pages.xml`, ...[...ID_FIRST_CHARS].map((ch) => `${origin}/sitemap-listings-${ch}.xml`)];
    return xml(
      c,
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${maps.map((m) => `  <sitemap><loc>${xmlEscape(m)}</loc></sitemap>`).join("\n")}\n</sitemapindex>`,
    );
  })
  .get("/sitemap-pages.xml", (c) => {
    const origin = originOf(c);
    return xml(c, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${PAGES.map((p) => `  <url><loc>${xmlEscape(origin + p)}</loc></url>`).join("\n")}\n</urlset>`);
  })
  .get("/:file{sitemap-listings-[0-9A-Za-z]\\.xml}", async (c) => {
    const first = c.req.param("file").slice("sitemap-listings-".length, -".xml".length);
    if (!ID_FIRST_CHARS.includes(first)) throw notFound();
    const origin = originOf(c);
    // Every id starting with `first`: from `first` up to (not including) the next character code.
    const rows = await publicListingsInIdRange(c.var.db, first, String.fromCharCode(first.charCodeAt(0) + 1));
    const urls = rows.map((r) => `  <url><loc>${xmlEscape(`${origin}/listing/${r.id}`)}</loc><lastmod>${xmlEscape(r.lastmod.slice(0, 10))}</lastmod></url>`);
    return xml(c, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>`);
  });

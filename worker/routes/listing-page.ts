import type { Context } from "hono";
import { findListingRow, photosFor } from "../db/queries/listings";
import type { AppContext } from "../lib/context";
import { isPublicListing } from "../contract/policies";
import { serveAsset } from "../services/assets";

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/**
 * /listing/{id}: the SPA page with Open Graph and Twitter tags (title, rent, first photo), so a
 * link pasted into a chat app previews the listing. Non-public listings get the plain SPA page.
 */
export async function serveListingPage(c: Context<AppContext>) {
  const row = await findListingRow(c.env.DB, c.req.param("id") ?? "");
  if (!row || !isPublicListing(row)) return serveAsset(c);
  const origin = c.var.config.publicBaseUrl || new URL(c.req.url).origin;
  const photo = (await photosFor(c.env.DB, [row.id])).get(row.id)?.[0];
  const title = `${row.title} · $${row.monthly_rent.toLocaleString("en-US")}/month`;
  const description = `${row.university_abbreviation} sublease: ${row.description.slice(0, 160)}`;
  const tags = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="CampusNest">`,
    `<meta property="og:title" content="${escape(title)}">`,
    `<meta property="og:description" content="${escape(description)}">`,
    `<meta property="og:url" content="${escape(`${origin}/listing/${row.id}`)}">`,
    // One address per listing for search engines, whatever ?back= a link carried.
    `<link rel="canonical" href="${escape(`${origin}/listing/${row.id}`)}">`,
    ...(photo ? [`<meta property="og:image" content="${escape(`${origin}/api/v1/images/${photo.key}`)}">`] : []),
    `<meta name="twitter:card" content="${photo ? "summary_large_image" : "summary"}">`,
    `<meta name="twitter:title" content="${escape(title)}">`,
    `<meta name="twitter:description" content="${escape(description)}">`,
    ...(photo ? [`<meta name="twitter:image" content="${escape(`${origin}/api/v1/images/${photo.key}`)}">`] : []),
  ].join("\n    ");
  const index = await c.env.ASSETS.fetch(new Request(new URL("/", c.req.url)));
  // Replacer functions, never replacement strings: a title with `$&` or `$'` must land as typed.
  const html = (await index.text())
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escape(title)} · CampusNest</title>`)
    .replace("</head>", () => `    ${tags}\n  </head>`);
  return c.html(html);
}

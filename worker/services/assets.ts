import type { Context } from "hono";
import type { AppContext } from "../lib/context";

/**
 * The SPA's files from the ASSETS binding. Unknown paths get index.html (single-page-application
 * fallback in wrangler.toml), so deep links work. Hashed build files are cached forever.
 */
export async function serveAsset(c: Context<AppContext>) {
  const res = await c.env.ASSETS.fetch(c.req.raw);
  const headers = new Headers(res.headers);
  if (new URL(c.req.url).pathname.startsWith("/assets/") && res.ok) {
    headers.set("Cache-Control", "public, max-age=31536000, immutable");
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

import type { Context } from "hono";
import { isSpaPath } from "../contract/spa-paths";
import type { AppContext } from "../lib/context";

/**
 * The SPA's files from the ASSETS binding. Unknown paths get index.html (single-page-application
 * fallback in wrangler.toml), so deep links work. Hashed build files are cached forever.
 *
 * An address that is neither a file nor one of the app's pages (`/nonsense`) still gets the app's
 * shell, which shows the not-found page, but with status 404, as a missing
 * listing already has.
 */
export async function serveAsset(c: Context<AppContext>) {
  const pathname = new URL(c.req.url).pathname;
  // Source maps carry the whole SPA's source, the staff panel's too: never served (decision 022).
  if (/\.map$/i.test(pathname)) return c.json({ detail: "Not found" }, 404);
  const res = await c.env.ASSETS.fetch(c.req.raw);
  const headers = new Headers(res.headers);
  if (pathname.startsWith("/assets/") && res.ok) {
    headers.set("Cache-Control", "public, max-age=31536000, immutable");
  }
  const isShell = res.ok && (headers.get("Content-Type") ?? "").startsWith("text/html") && !/\.html?$/i.test(pathname);
  if (isShell && !isSpaPath(pathname)) {
    return new Response(res.body, { status: 404, statusText: "Not Found", headers });
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

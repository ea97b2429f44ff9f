import type { Context } from "hono";
import { createRouter, type AppContext } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { log } from "../../lib/log";
import { imageCacheKey } from "../../services/edge-cache";
import { IMMUTABLE } from "../../services/storage";

/**
 * How long a data center's edge cache keeps a photo (docs/decisions/023: a listing page's main photo comes from
 * the edge, not from R2, on every visit but the first in that data center). Bounded, unlike the
 * browser's year: a photo deleted from R2 (its listing removed it) stops being served within a day.
 */
export const IMAGE_EDGE_TTL_S = 86_400;
export const IMAGE_CACHE_HEADER = "X-Edge-Cache";

/** The request's execution context (for waitUntil), or null when the app was called without one (some tests). */
function executionContext(c: Context<AppContext>): ExecutionContext | null {
  try {
    return c.executionCtx;
  } catch {
    return null;
  }
}

/** The content headers of a photo (app.ts adds the security and CORS headers to every answer). */
function photoHeaders(contentType: string, etag: string, cacheControl: string): Headers {
  return new Headers({ "Content-Type": contentType, "Cache-Control": cacheControl, ETag: etag, "X-Content-Type-Options": "nosniff" });
}

/**
 * GET images/{key}: public images only (never the identity-document bucket). Answered from the edge
 * cache (Workers Cache API) when this data center has the photo, else from R2 and stored there: a
 * photo's key is new for every upload, so its bytes never change under the same address.
 */
export const imagesRoutes = createRouter().get("/*", async (c) => {
  const key = c.req.path.replace(/^\/api\/v1\/images\//, "");
  if (!/^(listings|avatars)\/[A-Za-z0-9_-]+(\.thumb)?\.(jpg|png|webp|gif)$/.test(key)) throw notFound("Image not found");
  const ctx = executionContext(c);
  // One entry per photo, whatever the query string or the request's headers.
  const cacheKey = imageCacheKey(new URL(c.req.url).origin, key);
  const cache = ctx ? caches.default : null;
  const cached = cache
    ? await cache.match(cacheKey).catch((err: unknown) => {
        log.warn("image_cache_error", { op: "match", message: String(err) });
        return undefined;
      })
    : undefined;
  if (cached) {
    const headers = photoHeaders(cached.headers.get("Content-Type") ?? "application/octet-stream", cached.headers.get("ETag") ?? "", IMMUTABLE);
    headers.set(IMAGE_CACHE_HEADER, "HIT");
    return new Response(cached.body, { headers });
  }
  const object = await c.env.IMAGES.get(key);
  if (!object) throw notFound("Image not found");
  const contentType = object.httpMetadata?.contentType ?? "application/octet-stream";
  if (cache && ctx) {
    // Bytes, not a tee'd stream: a photo is small (a few hundred KB at most), and a stream split between
    // the answer and the cache could hold the answer back behind the cache's write.
    const body = await object.arrayBuffer();
    ctx.waitUntil(
      cache
        .put(cacheKey, new Response(body.slice(0), { headers: photoHeaders(contentType, object.httpEtag, `public, max-age=${IMAGE_EDGE_TTL_S}`) }))
        .catch((err: unknown) => log.warn("image_cache_error", { op: "put", message: String(err) })),
    );
    const headers = photoHeaders(contentType, object.httpEtag, IMMUTABLE);
    headers.set(IMAGE_CACHE_HEADER, "MISS");
    return new Response(body, { headers });
  }
  return new Response(object.body, { headers: photoHeaders(contentType, object.httpEtag, IMMUTABLE) });
});

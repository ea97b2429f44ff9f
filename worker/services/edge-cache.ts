/**
 * Edge caching of public, signed-out reads in the Workers Cache API (`caches.default`): browse pages,
 * universities, listing detail and the server-rendered pages. Fresh for 30 s, then served stale for
 * 60 s more while one background refresh (waitUntil) replaces it. docs/decisions/016.
 *
 * - Key: the request's origin + `/_edge/{build version}` + path (no trailing slash) + the query
 *   parameters sorted by name and value: a filter never gets another filter's page, and a deploy
 *   (its own build id, `buildOf`) never serves pages pointing at deleted asset files.
 * - Bypass (neither read nor written): not GET, an `Authorization` or `Cookie` header, an
 *   `x-d1-bookmark` header (that person just wrote something and must see it), or a request
 *   `Cache-Control: no-cache` / `Pragma: no-cache` (a hard reload).
 * - Stored: 200 answers without `Set-Cookie` or `Cache-Control: private | no-store`; body and content
 *   headers only (request id, security headers and CORS are added again by app.ts on every answer).
 * - Generation: every entry is stored with the listings generation it was produced at (one row of
 *   `cache_generation`). Each request reads the current generation (one primary-key read, in the
 *   request's D1 session, so the answer is built from data at least that new) and never serves an
 *   entry of an older one, fresh or stale: every data center, every browse page, at once (writes
 *   visible within seconds, not 90 s; docs/decisions/016).
 * - Purge: every listing write calls `purgeListingCache(ids)` right after it: it bumps the generation
 *   (the one place that does) and drops the detail API key and `/listing/{id}` in this data center
 *   (they would be refused anyway: it frees them early).
 * - `X-Edge-Cache: HIT | STALE | MISS | BYPASS` on every answer that went through here.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { API_PREFIX } from "../contract/constants";
import { D1_BOOKMARK_HEADER, type Db } from "../db/client";
import { bumpCacheGeneration, readCacheGeneration } from "../db/queries/cache-generation";
import type { AppContext } from "../lib/context";
import { log } from "../lib/log";
import { APP_VERSION } from "../version";

export const EDGE_CACHE_HEADER = "X-Edge-Cache";
export type EdgeCacheStatus = "HIT" | "STALE" | "MISS" | "BYPASS";

export const EDGE_FRESH_MS = 30_000;
export const EDGE_STALE_MS = 60_000;

/** Stored with the entry: when it was produced (ms), and the Cache-Control the answer itself carried. */
const CACHED_AT = "X-Edge-Cached-At";
const ORIGINAL_CACHE_CONTROL = "X-Edge-Cache-Control";
/** Stored with the entry: the listings generation its data was read at. */
const GENERATION = "X-Edge-Generation";
/** The headers of an answer that are its content (everything else is per request and added again). */
const CONTENT_HEADERS = ["content-type", "content-language", "cache-control", "last-modified", "x-rows-read"];

let clock: () => number = () => Date.now();
/** Tests: the time the cache sees (null: the real clock). */
export function setEdgeCacheClock(now: (() => number) | null) {
  clock = now ?? (() => Date.now());
}

export interface EdgeCacheOptions {
  /**
   * false: a request with a query string is answered without the cache (BYPASS). For addresses
   * whose entry must be purgeable by its bare URL (`/listing/{id}`, the detail API). Default true.
   */
  query?: boolean;
}

/** The origins a purge in this request reaches, the build it runs and its database (set by `edgeCacheScope`). */
const scope = new AsyncLocalStorage<{ origins: string[]; build: string; db: Db }>();

/**
 * The deployed build: the version plus Cloudflare's id of this deployment (version_metadata in
 * wrangler.toml), so a deploy never serves a cached page that names asset files it replaced.
 */
export const buildOf = (env: Partial<Pick<Env, "CF_VERSION_METADATA">>) => `${APP_VERSION}.${env.CF_VERSION_METADATA?.id ?? "local"}`;

/**
 * Middleware (app.ts): remembers this request's origin (and the configured public one) so a service
 * that writes a listing can purge its entries without being handed the request.
 */
export const edgeCacheScope: MiddlewareHandler<AppContext> = (c, next) => {
  const origins = new Set([new URL(c.req.url).origin]);
  const configured = c.var.config.publicBaseUrl;
  if (configured) {
    try {
      origins.add(new URL(configured).origin);
    } catch {
      // An unparsable PUBLIC_BASE_URL: the request's origin only.
    }
  }
  return scope.run({ origins: [...origins], build: buildOf(c.env), db: c.var.db }, next);
};

/** The cache key of `path` + `search` under `origin`, for this request's build. */
export function edgeCacheKey(origin: string, path: string, search = "", build = scope.getStore()?.build ?? APP_VERSION): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const url = new URL(`/_edge/${encodeURIComponent(build)}${trimmed}`, origin);
  // The first value of each name, as the app reads it (`?q=a&q=b` is the `q=a` page).
  const first = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(search)) if (!first.has(name)) first.set(name, value);
  const params = [...first].sort(([a], [b]) => compare(a, b));
  for (const [name, value] of params) url.searchParams.append(name, value);
  return url.toString();
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The request's execution context (for waitUntil), or null when the app was called without one. */
function executionContext(c: Context<AppContext>): ExecutionContext | null {
  try {
    return c.executionCtx;
  } catch {
    return null;
  }
}

/** Why this request may not share a cached answer, or null when it may. */
function bypassReason(c: Context<AppContext>, options: EdgeCacheOptions): string | null {
  if (c.req.method !== "GET") return "method";
  if (c.req.header("authorization") !== undefined) return "authorization";
  if (c.req.header("cookie") !== undefined) return "cookie";
  if (c.req.header(D1_BOOKMARK_HEADER) !== undefined) return "bookmark";
  // The client asks for an answer not taken from a cache (RFC 9111 no-cache; a browser's hard reload).
  if (/\bno-cache\b/i.test(`${c.req.header("cache-control") ?? ""} ${c.req.header("pragma") ?? ""}`)) return "no-cache";
  if (options.query === false && new URL(c.req.url).search !== "") return "query";
  // One spelling per address: `/subleases/%50z01` is the listing Pz01, and its purge knows one key.
  if (!isCanonicalPath(new URL(c.req.url).pathname)) return "path";
  return null;
}

function isCanonicalPath(path: string): boolean {
  try {
    return path.split("/").every((segment) => encodeURIComponent(decodeURIComponent(segment)) === segment);
  } catch {
    return false;
  }
}

/** Keys being refreshed by this isolate (one background refresh per key at a time). */
const refreshing = new Set<string>();

/**
 * Answers from the edge cache when this request may share an answer, else from `produce`.
 * `produce` builds the signed-out answer; it may run again in the background (stale refresh) after
 * this answer was sent, so it must build its headers into the Response (`c.json(body, 200, headers)`,
 * `c.html(...)`), never through `c.header()` / `c.status()`.
 */
export async function edgeCached(c: Context<AppContext>, produce: () => Promise<Response>, options: EdgeCacheOptions = {}): Promise<Response> {
  // Called without an execution context (a test calling createApp().fetch): no background work, no cache.
  const ctx = executionContext(c);
  if (!ctx || bypassReason(c, options)) return mark(await produce(), "BYPASS");
  // Read before any data, in the same D1 session: whatever `produce` reads is at least this new, so
  // an entry is never stamped with a newer generation than its data. Unreadable: no cache at all.
  const generation = await readCacheGeneration(c.var.db).catch((err: unknown) => {
    log.warn("edge_cache_error", { op: "generation", message: String(err) });
    return null;
  });
  if (generation === null) return mark(await produce(), "BYPASS");
  const url = new URL(c.req.url);
  const key = edgeCacheKey(url.origin, url.pathname, url.search);
  const cache = caches.default;
  const cached = await cache.match(key).catch((err: unknown) => {
    log.warn("edge_cache_error", { op: "match", message: String(err) });
    return undefined;
  });
  if (cached) {
    const age = clock() - Number(cached.headers.get(CACHED_AT));
    // An entry of an older generation predates a listing write: never served, fresh or stale. One of a
    // newer generation (this request's replica lags behind the one that produced it) has newer data.
    const current = Number(cached.headers.get(GENERATION)) >= generation;
    if (current && age >= 0 && age < EDGE_FRESH_MS) return served(cached, "HIT");
    if (current && age >= 0 && age < EDGE_FRESH_MS + EDGE_STALE_MS) {
      if (!refreshing.has(key)) {
        refreshing.add(key);
        ctx.waitUntil(refresh(cache, key, generation, produce));
      }
      return served(cached, "STALE");
    }
    await cache.delete(key).catch(() => false);
  }
  const res = await produce();
  if (!storable(res)) return mark(res, "MISS");
  const body = await res.arrayBuffer();
  ctx.waitUntil(
    store(cache, key, generation, new Response(body, res)).catch((err: unknown) => log.warn("edge_cache_error", { op: "put", message: String(err) })),
  );
  return mark(new Response(body, res), "MISS");
}

/** The stale entry's background refresh; an answer that may not be shared any more (the listing went away: 404) drops it. */
async function refresh(cache: Cache, key: string, generation: number, produce: () => Promise<Response>): Promise<void> {
  try {
    const fresh = await produce();
    if (storable(fresh)) await store(cache, key, generation, fresh);
    else await cache.delete(key);
  } catch (err) {
    if (!(err instanceof HTTPException)) log.warn("edge_cache_error", { op: "refresh", message: String(err) });
    await cache.delete(key).catch(() => false);
  } finally {
    refreshing.delete(key);
  }
}

/** Only a plain 200 without a cookie, and not marked private or no-store, is shared. */
const storable = (res: Response) =>
  res.status === 200 && !res.headers.has("set-cookie") && !/\b(private|no-store)\b/i.test(res.headers.get("cache-control") ?? "");

/** Stores the content of `res` (if storable) under `key`, stamped with the time and the generation; the edge drops it after fresh + stale. */
async function store(cache: Cache, key: string, generation: number, res: Response): Promise<void> {
  if (!storable(res)) return;
  const headers = new Headers();
  for (const name of CONTENT_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const own = headers.get("cache-control");
  if (own !== null) headers.set(ORIGINAL_CACHE_CONTROL, own);
  headers.set("cache-control", `public, max-age=${(EDGE_FRESH_MS + EDGE_STALE_MS) / 1000}`);
  headers.set(CACHED_AT, String(clock()));
  headers.set(GENERATION, String(generation));
  await cache.put(key, new Response(await res.arrayBuffer(), { status: 200, headers }));
}

/** A fresh, mutable answer from a cached entry, with the Cache-Control the original answer carried. */
function served(cached: Response, status: EdgeCacheStatus): Response {
  const headers = new Headers();
  for (const name of CONTENT_HEADERS) {
    const value = cached.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const own = cached.headers.get(ORIGINAL_CACHE_CONTROL);
  if (own !== null) headers.set("cache-control", own);
  else headers.delete("cache-control");
  headers.set(EDGE_CACHE_HEADER, status);
  return new Response(cached.body, { status: 200, headers });
}

function mark(res: Response, status: EdgeCacheStatus): Response {
  const out = new Response(res.body, res);
  out.headers.set(EDGE_CACHE_HEADER, status);
  return out;
}

/**
 * Every listing write calls this right after it (services: listings, promotions, reports, freshness,
 * accounts; the cron): bumps the listings generation, so no data center serves an answer produced
 * before the write (within one D1 read of it), then drops these listings' entries (the detail API and
 * the bare `/listing/{id}` page) in this data center. In a request it uses the request's database;
 * outside one (the cron) pass `db`. A failed bump is logged, not thrown: the write itself is done,
 * and the old answers still expire within fresh + stale (90 s).
 */
export async function purgeListingCache(ids: Iterable<string | null | undefined>, db?: Db): Promise<void> {
  const store = scope.getStore();
  const database = db ?? store?.db;
  if (database) {
    await bumpCacheGeneration(database).catch((err: unknown) => log.error("edge_cache_error", { op: "bump", message: String(err) }));
  }
  const origins = store?.origins;
  if (!origins) return;
  const keys = [...new Set(ids)]
    .filter((id): id is string => !!id)
    .flatMap((id) => origins.flatMap((origin) => [edgeCacheKey(origin, `${API_PREFIX}/subleases/${id}`), edgeCacheKey(origin, `/listing/${id}`)]));
  if (!keys.length) return;
  const cache = caches.default;
  await Promise.all(keys.map((key) => cache.delete(key).catch(() => false)));
}

/** The edge cache's key of a public photo (routes/images): one per photo, whatever the query string. */
export const imageCacheKey = (origin: string, key: string) => `${origin}${API_PREFIX}/images/${key}`;

/**
 * Drops deleted photos (a replaced avatar, a removed listing photo) from this data center's edge cache,
 * under this request's origins (or those given, outside a request: the cron), so the route's 404 is
 * what the next visitor gets here. Other data centers keep a copy until its day runs out (routes/images:
 * IMAGE_EDGE_TTL_S); a photo's address is new for every upload and no page links a deleted one.
 */
export async function purgeImageCache(keys: Iterable<string | null | undefined>, origins = scope.getStore()?.origins): Promise<void> {
  if (!origins?.length) return;
  const urls = [...new Set(keys)].filter((key): key is string => !!key).flatMap((key) => origins.map((origin) => imageCacheKey(origin, key)));
  if (!urls.length) return;
  const cache = caches.default;
  await Promise.all(urls.map((url) => cache.delete(url).catch(() => false)));
}

/**
 * Maps (issue 27, docs/decisions/024): what the SPA's map draws on, and the basemap archive itself.
 *
 * - GET maps/config?university={id}: `MapConfig` (contract/maps.ts): which basemap is configured
 *   (a Protomaps `.pmtiles` archive in R2 served below, a style URL from a tile host, or none: the
 *   SPA then draws its plain fallback) and the campus's point when a university is named.
 * - GET maps/basemap.pmtiles: the archive at `MAP_PMTILES_KEY` in the IMAGES bucket, by HTTP range
 *   (the pmtiles reader asks for byte ranges: 206 with Content-Range), each range kept in this data
 *   center's edge cache. 404 when no archive is configured.
 */
import type { Context } from "hono";
import type { MapConfig } from "../../contract/maps";
import { createRouter, type AppContext } from "../../lib/context";
import { notFound } from "../../lib/errors";

/** The map's settings (wrangler.toml [vars]); read loosely so an install without them needs no new types. */
export function mapSettings(env: Env): { pmtilesKey: string; styleUrl: string } {
  const vars = env as unknown as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  return { pmtilesKey: text(vars.MAP_PMTILES_KEY), styleUrl: text(vars.MAP_STYLE_URL) };
}

export const PMTILES_PATH = "/api/v1/maps/basemap.pmtiles";
/** A range of the archive at the edge and in browsers: a day (a new archive gets a new key, see the README). */
const TILE_CACHE_CONTROL = "public, max-age=86400";

function executionContext(c: Context<AppContext>): ExecutionContext | null {
  try {
    return c.executionCtx;
  } catch {
    return null;
  }
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` (one range; the pmtiles reader asks for one at a time). */
export function parseRange(header: string | undefined): R2Range | "invalid" | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return "invalid";
  if (m[1] === "") return { suffix: Number(m[2]) };
  const offset = Number(m[1]);
  if (m[2] === "") return { offset };
  const end = Number(m[2]);
  if (end < offset) return "invalid";
  return { offset, length: end - offset + 1 };
}

const rangeLabel = (r: R2Range | null) => (r === null ? "all" : "suffix" in r ? `-${r.suffix}` : `${r.offset ?? 0}-${r.length === undefined ? "" : (r.offset ?? 0) + r.length - 1}`);

export const mapsRoutes = createRouter()
  .get("/config", async (c) => {
    const { pmtilesKey, styleUrl } = mapSettings(c.env);
    const basemap: MapConfig["basemap"] = pmtilesKey ? { kind: "pmtiles", url: PMTILES_PATH } : styleUrl ? { kind: "style", url: styleUrl } : { kind: "none" };
    let campus: MapConfig["campus"] = null;
    const id = Number(c.req.query("university"));
    if (Number.isInteger(id) && id > 0) {
      const row = await c.env.DB.prepare("SELECT name, abbreviation, latitude, longitude FROM universities WHERE id = ?")
        .bind(id)
        .first<{ name: string; abbreviation: string; latitude: number | null; longitude: number | null }>();
      if (row && row.latitude !== null && row.longitude !== null) campus = { name: row.name, abbreviation: row.abbreviation, point: [row.latitude, row.longitude] };
    }
    // Campus points change only with a migration; the basemap with a deploy.
    return c.json<MapConfig>({ basemap, campus }, 200, { "Cache-Control": "public, max-age=3600" });
  })
  .on(["GET", "HEAD"], "/basemap.pmtiles", async (c) => {
    const { pmtilesKey } = mapSettings(c.env);
    if (!pmtilesKey) throw notFound("No basemap is configured");
    const range = parseRange(c.req.header("Range"));
    if (range === "invalid") return c.body(null, 416, { "Content-Range": "bytes */*" });
    // One edge-cache entry per archive key and range: the Cache API keeps 200s only, so a range is
    // stored as a 200 with its Content-Range beside it and answered as a 206 again.
    const cacheKey = new Request(`${new URL(c.req.url).origin}/__maps/${encodeURIComponent(pmtilesKey)}/${rangeLabel(range)}`);
    const cache = typeof caches === "undefined" ? null : caches.default;
    const hit = await cache?.match(cacheKey);
    if (hit) {
      const contentRange = hit.headers.get("X-Content-Range");
      const headers = new Headers(hit.headers);
      headers.delete("X-Content-Range");
      if (contentRange) headers.set("Content-Range", contentRange);
      headers.set("X-Edge-Cache", "hit");
      return new Response(c.req.method === "HEAD" ? null : hit.body, { status: contentRange ? 206 : 200, headers });
    }
    let object: R2ObjectBody | null;
    try {
      object = await c.env.IMAGES.get(pmtilesKey, range ? { range } : undefined);
    } catch {
      // R2 refuses a range past the end: 416 with the archive's size.
      const head = await c.env.IMAGES.head(pmtilesKey);
      if (!head) throw notFound("The basemap archive is missing");
      return c.body(null, 416, { "Content-Range": `bytes */${head.size}` });
    }
    if (!object) throw notFound("The basemap archive is missing");
    const headers = new Headers({
      "Content-Type": "application/vnd.pmtiles",
      "Cache-Control": TILE_CACHE_CONTROL,
      "Accept-Ranges": "bytes",
      ETag: object.httpEtag,
    });
    let contentRange: string | null = null;
    if (range) {
      const r = object.range as { offset?: number; length?: number; suffix?: number } | undefined;
      const size = object.size;
      const start = r?.suffix !== undefined ? Math.max(0, size - r.suffix) : (r?.offset ?? 0);
      const length = r?.suffix !== undefined ? size - start : (r?.length ?? size - start);
      if (start >= size) return c.body(null, 416, { "Content-Range": `bytes */${size}` });
      const end = Math.min(size, start + length) - 1;
      contentRange = `bytes ${start}-${end}/${size}`;
      headers.set("Content-Range", contentRange);
      headers.set("Content-Length", String(end - start + 1));
    } else headers.set("Content-Length", String(object.size));
    if (c.req.method === "HEAD") return new Response(null, { status: range ? 206 : 200, headers });
    const bytes = await object.arrayBuffer();
    const ctx = executionContext(c);
    if (cache) {
      const stored = new Headers(headers);
      if (contentRange) stored.set("X-Content-Range", contentRange);
      stored.delete("Content-Range");
      const put = cache.put(cacheKey, new Response(bytes, { status: 200, headers: stored })).catch(() => {});
      if (ctx) ctx.waitUntil(put);
      else await put;
    }
    headers.set("X-Edge-Cache", "miss");
    return new Response(bytes, { status: range ? 206 : 200, headers });
  });

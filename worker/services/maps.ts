/**
 * Maps (docs/decisions/024): the map's config and the basemap archive, read from R2 by byte range.
 *
 * The archive can be tens of GB and an isolate has 128 MB, so it is never read whole: every GET names
 * one range (`Range: bytes=a-b`, `a-` or `-n`), at most MAP_RANGE_MAX_BYTES of it is sent (a longer
 * range gets its first MAP_RANGE_MAX_BYTES, and Content-Range says so), and the bytes are streamed from
 * R2 to the client and, through a tee, into this data center's edge cache, never buffered here.
 * - No Range, several ranges (`bytes=0-1,5-9`) or a malformed one: 400 {detail}. HTTP would let a
 *   server ignore such a header and send the whole file, which is exactly what must not happen.
 * - A well-formed range that starts past the end: 416 {detail} with `Content-Range: bytes * /size`.
 * - HEAD needs no Range: headers only (the size and Accept-Ranges), no body is read.
 */
import { MAP_RANGE_MAX_BYTES } from "../contract/constants";
import type { MapConfig } from "../contract/maps";
import type { Db } from "../db/client";
import { campusMarkerOf } from "../db/queries/universities";
import { notFound } from "../lib/errors";

/** The map's settings (wrangler.toml [vars]); read loosely so an install without them needs no new types. */
export function mapSettings(env: Env): { pmtilesKey: string; styleUrl: string } {
  const vars = env as unknown as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  return { pmtilesKey: text(vars.MAP_PMTILES_KEY), styleUrl: text(vars.MAP_STYLE_URL) };
}

export const PMTILES_PATH = "/api/v1/maps/basemap.pmtiles";
/** A range of the archive at the edge and in browsers: a day (a new archive gets a new key, see the README). */
const TILE_CACHE_CONTROL = "public, max-age=86400";

/** Which basemap is configured, and the campus of `universityId` when it has a point. */
export async function mapConfig(db: Db, env: Env, universityId: number | null): Promise<MapConfig> {
  const { pmtilesKey, styleUrl } = mapSettings(env);
  const basemap: MapConfig["basemap"] = pmtilesKey ? { kind: "pmtiles", url: PMTILES_PATH } : styleUrl ? { kind: "style", url: styleUrl } : { kind: "none" };
  const marker = universityId === null ? null : await campusMarkerOf(db, universityId);
  return { basemap, campus: marker && { name: marker.name, abbreviation: marker.abbreviation, point: [marker.latitude, marker.longitude] } };
}

/** One range as asked for, its length already capped: from `offset` on, or the last `suffix` bytes. */
export type ArchiveRange = { offset: number; length: number } | { suffix: number };

export const RANGE_TEXTS = {
  required: `A Range header is required: the map archive is read in byte ranges of at most ${MAP_RANGE_MAX_BYTES} bytes (Range: bytes=start-end).`,
  oneRange: "Ask for one byte range at a time (Range: bytes=start-end).",
  malformed: "The Range header is not a byte range this archive can answer (Range: bytes=start-end, bytes=start- or bytes=-length).",
  pastEnd: "The range asked for starts past the end of the map archive.",
} as const;

/**
 * The Range header as one capped range, or why it cannot be answered: "missing", "many" (a list),
 * "malformed" (not `bytes=a-b`, `a-` or `-n`, an end before its start, numbers too big to be offsets)
 * or "empty" (`bytes=-0`: nothing can satisfy it).
 */
export function parseRange(header: string | undefined | null): ArchiveRange | "missing" | "many" | "malformed" | "empty" {
  if (header === undefined || header === null || header.trim() === "") return "missing";
  const m = /^bytes\s*=\s*(.*)$/i.exec(header.trim());
  if (!m) return "malformed";
  if (m[1]!.includes(",")) return "many";
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(m[1]!.trim());
  if (!spec || (spec[1] === "" && spec[2] === "")) return "malformed";
  const first = spec[1] === "" ? null : Number(spec[1]);
  const last = spec[2] === "" ? null : Number(spec[2]);
  if ((first !== null && !Number.isSafeInteger(first)) || (last !== null && !Number.isSafeInteger(last))) return "malformed";
  if (first === null) return last === 0 ? "empty" : { suffix: Math.min(last!, MAP_RANGE_MAX_BYTES) };
  if (last !== null && last < first) return "malformed";
  const length = last === null ? MAP_RANGE_MAX_BYTES : Math.min(last - first + 1, MAP_RANGE_MAX_BYTES);
  return { offset: first, length };
}

/** The bytes a range covers in an archive of `size` bytes, or null when it starts past the end. */
function resolve(range: ArchiveRange, size: number): { start: number; end: number } | null {
  if ("suffix" in range) return size === 0 ? null : { start: Math.max(0, size - range.suffix), end: size - 1 };
  if (range.offset >= size) return null;
  return { start: range.offset, end: Math.min(size, range.offset + range.length) - 1 };
}

const label = (range: ArchiveRange) => ("suffix" in range ? `-${range.suffix}` : `${range.offset}-${range.offset + range.length - 1}`);

const problem = (status: 400 | 416, detail: string, headers: Record<string, string> = {}, head = false) =>
  new Response(head ? null : JSON.stringify({ detail }), { status, headers: { "Content-Type": "application/json; charset=UTF-8", ...headers } });

const unsatisfiable = (size: number, head: boolean) => problem(416, RANGE_TEXTS.pastEnd, { "Content-Range": `bytes */${size}` }, head);

export interface ArchiveRequest {
  method: "GET" | "HEAD";
  range: string | undefined;
  /** The request's origin: the edge cache's keys live under it. */
  origin: string;
}

/**
 * GET or HEAD of the archive at MAP_PMTILES_KEY in the IMAGES bucket. `waitUntil` keeps the edge
 * cache's write alive after the answer (null: nothing is written to the cache).
 */
export async function archiveRange(env: Env, req: ArchiveRequest, waitUntil: ((work: Promise<unknown>) => void) | null): Promise<Response> {
  const { pmtilesKey } = mapSettings(env);
  if (!pmtilesKey) throw notFound("No basemap is configured");
  const head = req.method === "HEAD";
  const range = parseRange(req.range);
  if (range === "missing" && head) {
    const object = await env.IMAGES.head(pmtilesKey);
    if (!object) throw notFound("The basemap archive is missing");
    return new Response(null, { status: 200, headers: { ...archiveHeaders(object), "Content-Length": String(object.size) } });
  }
  if (range === "missing") return problem(400, RANGE_TEXTS.required, {}, head);
  if (range === "many") return problem(400, RANGE_TEXTS.oneRange, {}, head);
  if (range === "malformed") return problem(400, RANGE_TEXTS.malformed, {}, head);
  if (range === "empty") {
    const object = await env.IMAGES.head(pmtilesKey);
    if (!object) throw notFound("The basemap archive is missing");
    return unsatisfiable(object.size, head);
  }

  // One edge-cache entry per archive key and (capped) range: the Cache API keeps 200s only, so a range
  // is stored as a 200 with its Content-Range beside it and answered as a 206 again.
  const cacheKey = new Request(`${req.origin}/__maps/${encodeURIComponent(pmtilesKey)}/${label(range)}`);
  const cache = typeof caches === "undefined" ? null : caches.default;
  const hit = await cache?.match(cacheKey).catch(() => undefined);
  if (hit) {
    const headers = new Headers(hit.headers);
    headers.set("Content-Range", hit.headers.get("X-Content-Range") ?? "");
    headers.delete("X-Content-Range");
    headers.set("X-Edge-Cache", "hit");
    if (head) await hit.body?.cancel();
    return new Response(head ? null : hit.body, { status: 206, headers });
  }

  if (head) {
    const object = await env.IMAGES.head(pmtilesKey);
    if (!object) throw notFound("The basemap archive is missing");
    const bytes = resolve(range, object.size);
    if (!bytes) return unsatisfiable(object.size, true);
    return new Response(null, { status: 206, headers: rangeHeaders(object, bytes) });
  }

  let object: R2ObjectBody | null;
  try {
    object = await env.IMAGES.get(pmtilesKey, { range });
  } catch {
    // R2 refuses a range that starts past the end: 416 with the archive's size.
    const meta = await env.IMAGES.head(pmtilesKey);
    if (!meta) throw notFound("The basemap archive is missing");
    return unsatisfiable(meta.size, false);
  }
  if (!object) throw notFound("The basemap archive is missing");
  const bytes = resolve(range, object.size);
  if (!bytes) {
    await object.body.cancel();
    return unsatisfiable(object.size, false);
  }
  const headers = rangeHeaders(object, bytes);
  if (!cache || !waitUntil) return new Response(object.body, { status: 206, headers: { ...headers, "X-Edge-Cache": "miss" } });
  const [toClient, toCache] = object.body.tee();
  const stored = new Headers(headers);
  stored.set("X-Content-Range", headers["Content-Range"]!);
  stored.delete("Content-Range");
  waitUntil(cache.put(cacheKey, new Response(toCache, { status: 200, headers: stored })).catch(() => {}));
  return new Response(toClient, { status: 206, headers: { ...headers, "X-Edge-Cache": "miss" } });
}

function archiveHeaders(object: R2Object): Record<string, string> {
  return { "Content-Type": "application/vnd.pmtiles", "Cache-Control": TILE_CACHE_CONTROL, "Accept-Ranges": "bytes", ETag: object.httpEtag };
}

function rangeHeaders(object: R2Object, { start, end }: { start: number; end: number }): Record<string, string> {
  return { ...archiveHeaders(object), "Content-Range": `bytes ${start}-${end}/${object.size}`, "Content-Length": String(end - start + 1) };
}

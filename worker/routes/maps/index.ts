/**
 * Maps (docs/decisions/024): what the SPA's map draws on, and the basemap archive itself.
 *
 * - GET maps/config?university={id}: `MapConfig` (contract/maps.ts): which basemap is configured
 *   (a Protomaps `.pmtiles` archive in R2 served below, a style URL from a tile host, or none: the
 *   SPA then draws its plain fallback) and the campus's point when a university is named.
 * - GET maps/basemap.pmtiles: the archive at `MAP_PMTILES_KEY` in the IMAGES bucket, one HTTP range per
 *   request (required, capped, streamed; services/maps.ts), each range kept in this data center's edge
 *   cache. 404 when no archive is configured.
 */
import type { Context } from "hono";
import type { MapConfig } from "../../contract/maps";
import { createRouter, type AppContext } from "../../lib/context";
import { archiveRange, mapConfig } from "../../services/maps";

function executionContext(c: Context<AppContext>): ExecutionContext | null {
  try {
    return c.executionCtx;
  } catch {
    return null;
  }
}

export const mapsRoutes = createRouter()
  .get("/config", async (c) => {
    const id = Number(c.req.query("university"));
    const config = await mapConfig(c.var.db, c.env, Number.isInteger(id) && id > 0 ? id : null);
    // Campus points change only with a migration; the basemap with a deploy.
    return c.json<MapConfig>(config, 200, { "Cache-Control": "public, max-age=3600" });
  })
  .on(["GET", "HEAD"], "/basemap.pmtiles", async (c) => {
    const ctx = executionContext(c);
    const method = c.req.method === "HEAD" ? "HEAD" : "GET";
    return archiveRange(c.env, { method, range: c.req.header("Range"), origin: new URL(c.req.url).origin }, ctx ? (work) => ctx.waitUntil(work) : null);
  });

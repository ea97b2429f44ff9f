import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { universities } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { apiError, notFound } from "../../lib/errors";
import { parseQuery } from "../../lib/validate";
import { optionalUserId } from "../../middleware/optional-user";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { PlaceNotResolved, resolvePlace, suggestAddresses, withLocationTokens } from "../../services/geo";
import { signLocationToken } from "../../services/geo-token";

/** The client's address-typing session (a UUID); anything else is left out rather than refused. */
const session = z
  .string()
  .trim()
  .optional()
  .transform((s) => (s && /^[A-Za-z0-9_-]{8,64}$/.test(s) ? s : null));

/** The chosen university's campus and name, when the form sent a university that has one. */
async function campusNear(db: Db, universityId: string | undefined) {
  const id = Number(universityId);
  if (!Number.isSafeInteger(id) || id < 1) return { campus: null, universityName: null };
  const row = await db
    .select({ name: universities.name, latitude: universities.latitude, longitude: universities.longitude })
    .from(universities)
    .where(eq(universities.id, id))
    .get();
  if (!row || row.latitude === null || row.longitude === null) return { campus: null, universityName: null };
  return { campus: { latitude: row.latitude, longitude: row.longitude }, universityName: row.name };
}

export const geoRoutes = createRouter()
  .get("/autocomplete", async (c) => {
    const query = parseQuery(c, z.object({ q: z.string().trim().max(200).default(""), university_id: z.string().max(20).optional(), session }));
    if (query.q.length < 3) return c.json({ data: [] });
    // Per person when signed in (the listing form), else per address: a campus shares a few addresses.
    await enforceLimit(c, "WRITE_LIMITER", `geo:${(await optionalUserId(c)) ?? addressKey(clientIp(c))}`);
    const near = await campusNear(c.var.db, query.university_id);
    const suggestions = await suggestAddresses(c.env, query.q, { config: c.var.config, session: query.session, ...near });
    c.header("Cache-Control", "private, max-age=300");
    // Tokens do not expire (services/geo-token), so the private cache stays right.
    return c.json({ data: await withLocationTokens(c.var.config.jwtSecret, suggestions) });
  })
  .get("/place", async (c) => {
    const query = parseQuery(
      c,
      z.object({ place_id: z.string("place_id is required").trim().min(1, "place_id is required").max(300, "place_id is too long"), session }),
    );
    await enforceLimit(c, "WRITE_LIMITER", `geo:${(await optionalUserId(c)) ?? addressKey(clientIp(c))}`);
    try {
      const place = await resolvePlace(c.env, query.place_id, { config: c.var.config, session: query.session });
      const token = await signLocationToken(c.var.config.jwtSecret, place.description, { latitude: place.lat, longitude: place.lng });
      c.header("Cache-Control", "private, max-age=300");
      return c.json({ data: { ...place, location_token: token } });
    } catch (err) {
      if (!(err instanceof PlaceNotResolved)) throw err;
      if (err.reason === "unknown") throw notFound("This address could not be found on the map. Pick another suggestion, or keep the address as typed.");
      throw apiError(502, { detail: "The map service did not answer. Try picking the address again in a moment." });
    }
  });

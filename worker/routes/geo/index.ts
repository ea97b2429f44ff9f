import type { Context } from "hono";
import { z } from "zod";
import { canCreateListing } from "../../contract/policies";
import type { Db } from "../../db/client";
import { campusMarkerOf } from "../../db/queries/universities";
import { createRouter, type AppContext } from "../../lib/context";
import { apiError, forbidden, notFound } from "../../lib/errors";
import { parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { PlaceNotResolved, resolvePlace, spendGeocodingCall, suggestAddresses, withLocationTokens, withSignedPlaceIds } from "../../services/geo";
import { openPlaceId, SIGNED_PLACE_ID, signLocationToken } from "../../services/geo-token";

/**
 * Geocoding spends a paid API: only a signed-in, ID-verified user (who alone may create a listing)
 * calls it (401 / 403), a minute's burst under WRITE_LIMITER and the day under the caps (decision 019).
 */
async function geocodingUser(c: Context<AppContext>) {
  const user = await requireUser(c);
  if (!canCreateListing({ id: user.id, id_verification_status: user.idVerificationStatus })) {
    throw forbidden("Address suggestions are for ID-verified students, who alone can list a place. Type the full address.");
  }
  await enforceLimit(c, "WRITE_LIMITER", `geo:${user.id}`);
  return user;
}

const EXPIRED_PLACE = "This suggestion has expired. Type the address again and pick a suggestion, or keep the address as typed.";

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
  const row = await campusMarkerOf(db, id);
  if (!row) return { campus: null, universityName: null };
  return { campus: { latitude: row.latitude, longitude: row.longitude }, universityName: row.name };
}

export const geoRoutes = createRouter()
  .get("/autocomplete", async (c) => {
    const user = await geocodingUser(c);
    const query = parseQuery(c, z.object({ q: z.string().trim().max(200).default(""), university_id: z.string().max(20).optional(), session }));
    if (query.q.length < 3) return c.json({ data: [] });
    await spendGeocodingCall(c.var.db, user);
    const near = await campusNear(c.var.db, query.university_id);
    const suggestions = await suggestAddresses(c.env, query.q, { config: c.var.config, session: query.session, ...near });
    const grant = { userId: user.id, session: query.session };
    c.header("Cache-Control", "private, max-age=300");
    return c.json({ data: await withLocationTokens(c.var.config.jwtSecret, await withSignedPlaceIds(c.var.config.jwtSecret, suggestions, grant)) });
  })
  .get("/place", async (c) => {
    const user = await geocodingUser(c);
    const query = parseQuery(
      c,
      z.object({
        place_id: z
          .string("place_id is required")
          .trim()
          .min(1, "place_id is required")
          .max(400, "place_id is too long")
          .regex(SIGNED_PLACE_ID, "place_id must be one from geo/autocomplete"),
        session,
      }),
    );
    // Only an id this server handed to this user in this session, still live: never Google's for anything else.
    const placeId = await openPlaceId(c.var.config.jwtSecret, query.place_id, { userId: user.id, session: query.session }, Date.now());
    if (!placeId) throw notFound(EXPIRED_PLACE);
    await spendGeocodingCall(c.var.db, user);
    try {
      const place = await resolvePlace(c.env, c.var.db, placeId, { config: c.var.config, session: query.session });
      const token = await signLocationToken(c.var.config.jwtSecret, place.description, { latitude: place.lat, longitude: place.lng });
      c.header("Cache-Control", "private, max-age=300");
      return c.json({ data: { ...place, location_token: token } });
    } catch (err) {
      if (!(err instanceof PlaceNotResolved)) throw err;
      if (err.reason === "unknown") throw notFound("This address could not be found on the map. Pick another suggestion, or keep the address as typed.");
      throw apiError(502, { detail: "The map service did not answer. Try picking the address again in a moment." });
    }
  });

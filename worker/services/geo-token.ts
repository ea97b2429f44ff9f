/**
 * Location tokens (docs/decisions/019): a listing keeps only coordinates our address autocomplete
 * gave for its address. Each suggestion with coordinates carries `location_token`, an HMAC-SHA256 over
 * its description and coordinates; a create or edit that sends coordinates must send a token made for
 * exactly that address and those coordinates, so nobody can put a listing at the campus's (or any
 * other) coordinates by sending them.
 *
 * The key is derived from JWT_SECRET with HKDF under its own label, so a token of another kind never
 * passes for this one. No expiry: a token proves only that the geocoder said "this text is here",
 * which does not go stale while an edit form stays open (rotating JWT_SECRET voids them all).
 */
import type { LatLng } from "../lib/geo-distance";
import { bytesToBase64Url, timingSafeEqualText } from "../lib/encoding";
import { validationFailed } from "../lib/errors";

const PURPOSE = "campusnest location token v1";
const PREFIX = "v1.";

/** The message of a refused place: the SPA never sends one, an API client learns what to do. */
export const LOCATION_TOKEN_REFUSED = "Pick the address from the suggestions again to show the distance to campus";

const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string, purpose = PURPOSE): Promise<CryptoKey> {
  let key = keys.get(`${purpose}\n${secret}`);
  if (!key) {
    key = (async () => {
      const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(purpose) },
        base,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign"],
      );
    })();
    keys.set(`${purpose}\n${secret}`, key);
  }
  return key;
}

/**
 * The token for an address text at a point. The text is trimmed, as the listing's address is; the
 * numbers are written as JSON writes them (the shortest form that reads back as the same number).
 */
export async function signLocationToken(secret: string, description: string, place: LatLng): Promise<string> {
  const canonical = JSON.stringify([description.trim(), place.latitude, place.longitude]);
  const mac = await crypto.subtle.sign("HMAC", await keyFor(secret), new TextEncoder().encode(canonical));
  return PREFIX + bytesToBase64Url(new Uint8Array(mac));
}

/** Whether the token was made for this address at this point. */
export async function verifyLocationToken(secret: string, token: string | null | undefined, address: string, place: LatLng): Promise<boolean> {
  if (typeof token !== "string" || !token.startsWith(PREFIX)) return false;
  return timingSafeEqualText(token, await signLocationToken(secret, address, place));
}

/** Refuses (422, on the address) coordinates that come without a token for this address and point. */
export async function requireLocationToken(secret: string, token: string | null | undefined, address: string, place: LatLng): Promise<void> {
  if (!(await verifyLocationToken(secret, token, address, place))) throw validationFailed([{ path: "address", message: LOCATION_TOKEN_REFUSED }]);
}

/**
 * Place ids (decision 019): Google's place id as this server handed it out with a suggestion, to one
 * user in one address-typing session, until `expiresAt`: `<google id>.<expiry, epoch s>.<HMAC>`. Only
 * such an id is resolved, so nobody can make the server spend Place Details on ids it never gave out
 * (or on another user's, or after the session). The key is JWT_SECRET's, under its own label.
 */
const PLACE_PURPOSE = "campusnest place id v1";
/** Google's place ids: URL-safe text (no dots, slashes or spaces); anything else is never sent on. */
export const GOOGLE_PLACE_ID = /^[A-Za-z0-9_-]{8,256}$/;
/** The whole handed-out id. */
export const SIGNED_PLACE_ID = /^([A-Za-z0-9_-]{8,256})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

interface PlaceGrant {
  userId: string;
  session: string | null;
}

async function placeMac(secret: string, placeId: string, expiresAtSeconds: number, grant: PlaceGrant): Promise<string> {
  const canonical = JSON.stringify([placeId, expiresAtSeconds, grant.userId, grant.session ?? ""]);
  const mac = await crypto.subtle.sign("HMAC", await keyFor(secret, PLACE_PURPOSE), new TextEncoder().encode(canonical));
  return bytesToBase64Url(new Uint8Array(mac));
}

/** The id the client gets for Google's `placeId` (null when Google's id is not of the expected shape). */
export async function signPlaceId(secret: string, placeId: string, grant: PlaceGrant, expiresAtMs: number): Promise<string | null> {
  if (!GOOGLE_PLACE_ID.test(placeId)) return null;
  const expires = Math.floor(expiresAtMs / 1000);
  return `${placeId}.${expires}.${await placeMac(secret, placeId, expires, grant)}`;
}

/** Google's place id inside a handed-out id, when it was made for this user and session and is live; else null. */
export async function openPlaceId(secret: string, signed: string, grant: PlaceGrant, now: number): Promise<string | null> {
  const match = SIGNED_PLACE_ID.exec(signed);
  if (!match) return null;
  const [, placeId, expires, mac] = match as unknown as [string, string, string, string];
  if (Number(expires) * 1000 <= now) return null;
  return timingSafeEqualText(mac, await placeMac(secret, placeId, Number(expires), grant)) ? placeId : null;
}

/**
 * Signed tokens: HS256 JWTs signed with JWT_SECRET (jose), through one signer and one verifier. Each
 * kind has its own audience and type, so one kind never passes for another. Refresh tokens are opaque
 * random strings stored hashed (services/sessions.ts).
 */
import { jwtVerify, SignJWT, type JWTPayload } from "jose";
import { isIdLike, newId } from "../lib/ids";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "campusnest";

/**
 * access: the API's bearer token. socket: a ticket that opens one socket of the user's rooms (POST
 * messages/socket-ticket), short-lived because browsers put it in a URL (?token=), where logs may keep it,
 * and spent on first use.
 * availability: the one-click links of the "Is {title} still available?" email, single-purpose: the
 * subject is the listing, the claims the action and the owner it was sent to.
 * savedSearch: a saved-search alert's unsubscribe link (docs/decisions/020): the subject is the search, nothing else.
 */
const KINDS = {
  access: { typ: "access", audience: "campusnest-api" },
  socket: { typ: "socket", audience: "campusnest-socket" },
  availability: { typ: "availability", audience: "campusnest-availability" },
  savedSearch: { typ: "saved-search", audience: "campusnest-saved-search" },
} as const;
type Kind = keyof typeof KINDS;

const key = (secret: string) => new TextEncoder().encode(secret);

async function signToken(kind: Kind, secret: string, subject: string, ttlSeconds: number, claims: Record<string, string | number> = {}, now: number = Date.now()): Promise<string> {
  const at = Math.floor(now / 1000);
  return new SignJWT({ ...claims, typ: KINDS[kind].typ })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(subject)
    .setIssuer(ISSUER)
    .setAudience(KINDS[kind].audience)
    .setIssuedAt(at)
    .setExpirationTime(at + ttlSeconds)
    .sign(key(secret));
}

/** The payload of a valid token of this kind (with its subject), or null for a missing, tampered, expired or foreign one. */
async function verifyToken(kind: Kind, secret: string, token: string | null | undefined): Promise<(JWTPayload & { sub: string }) | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, audience: KINDS[kind].audience, algorithms: ["HS256"] });
    if (payload.typ !== KINDS[kind].typ || typeof payload.sub !== "string") return null;
    return payload as JWTPayload & { sub: string };
  } catch {
    return null;
  }
}

/**
 * An access token carries the user's token version (`ver`): requireUser compares it with the user row,
 * so a password reset (which bumps the version) ends every access token issued before it at once.
 */
export const signAccessToken = (secret: string, userId: string, ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS, tokenVersion = 0) =>
  signToken("access", secret, userId, ttlSeconds, { ver: tokenVersion });

export interface AccessClaim {
  userId: string;
  /** 0 for tokens issued before versions existed (every user's version starts at 0). */
  tokenVersion: number;
}

/** The claim of a valid access token. Its version is not checked here: use middleware/auth (userOfAccessToken, requireUser). */
export async function verifyAccessClaim(secret: string, token: string | null | undefined): Promise<AccessClaim | null> {
  const payload = await verifyToken("access", secret, token);
  if (!payload) return null;
  const ver = payload.ver ?? 0;
  if (typeof ver !== "number" || !Number.isInteger(ver)) return null;
  return { userId: payload.sub, tokenVersion: ver };
}

/** A socket ticket carries its own id (`jti`): it opens one socket (docs/decisions/012), then is spent. */
export const signSocketTicket = (secret: string, userId: string, ttlSeconds: number) => signToken("socket", secret, userId, ttlSeconds, { jti: newId() });

export interface SocketTicket {
  userId: string;
  /** The ticket's id: spent once (db/queries/sockets), and the socket's connection id in its room. */
  id: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** The claim of a valid socket ticket (not yet known to be unspent), or null. */
export async function verifySocketTicket(secret: string, token: string | null | undefined): Promise<SocketTicket | null> {
  const payload = await verifyToken("socket", secret, token);
  if (!payload || typeof payload.jti !== "string" || !isIdLike(payload.jti) || typeof payload.exp !== "number") return null;
  return { userId: payload.sub, id: payload.jti, expiresAt: payload.exp * 1000 };
}

export interface AvailabilityClaim {
  listingId: string;
  ownerId: string;
  action: "available" | "taken";
}

export const signAvailabilityToken = (secret: string, claim: AvailabilityClaim, ttlSeconds: number, now: number = Date.now()) =>
  signToken("availability", secret, claim.listingId, ttlSeconds, { act: claim.action, own: claim.ownerId }, now);

/** The claim of a valid availability link, or null for a missing, tampered, expired or foreign token. */
export async function verifyAvailabilityToken(secret: string, token: string | null | undefined): Promise<AvailabilityClaim | null> {
  const payload = await verifyToken("availability", secret, token);
  if (!payload) return null;
  const { act, own } = payload;
  if (typeof own !== "string" || (act !== "available" && act !== "taken")) return null;
  return { listingId: payload.sub, ownerId: own, action: act };
}

/** A saved-search alert's unsubscribe link (docs/decisions/020): names only the search. */
export const signSavedSearchToken = (secret: string, searchId: string, ttlSeconds: number, now: number = Date.now()) =>
  signToken("savedSearch", secret, searchId, ttlSeconds, {}, now);
/** The search id of a valid unsubscribe link, or null for a missing, tampered, expired or foreign token. */
export const verifySavedSearchToken = async (secret: string, token: string | null | undefined) => (await verifyToken("savedSearch", secret, token))?.sub ?? null;

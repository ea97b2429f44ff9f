/**
 * Signed user tokens: short-lived HS256 JWTs signed with JWT_SECRET (jose). Each kind has its own
 * audience and type, so one kind never passes for another. Refresh tokens are opaque random strings
 * stored hashed (services/sessions.ts).
 */
import { jwtVerify, SignJWT } from "jose";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "campusnest";

/**
 * access: the API's bearer token. socket: a ticket that opens the user's rooms (POST
 * messages/socket-ticket), short-lived because browsers put it in a URL (?token=), where logs may keep it.
 */
const KINDS = {
  access: { typ: "access", audience: "campusnest-api" },
  socket: { typ: "socket", audience: "campusnest-socket" },
} as const;
type Kind = keyof typeof KINDS;

const key = (secret: string) => new TextEncoder().encode(secret);

async function signUserToken(kind: Kind, secret: string, userId: string, ttlSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: KINDS[kind].typ })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(KINDS[kind].audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key(secret));
}

/** The user id of a valid token of this kind, or null for a missing, tampered, expired or foreign one. */
async function verifyUserToken(kind: Kind, secret: string, token: string | null | undefined): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, audience: KINDS[kind].audience, algorithms: ["HS256"] });
    if (payload.typ !== KINDS[kind].typ || typeof payload.sub !== "string") return null;
    return payload.sub;
  } catch {
    return null;
  }
}

export const signAccessToken = (secret: string, userId: string, ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS) => signUserToken("access", secret, userId, ttlSeconds);
export const verifyAccessToken = (secret: string, token: string | null | undefined) => verifyUserToken("access", secret, token);
export const signSocketTicket = (secret: string, userId: string, ttlSeconds: number) => signUserToken("socket", secret, userId, ttlSeconds);
export const verifySocketTicket = (secret: string, token: string | null | undefined) => verifyUserToken("socket", secret, token);

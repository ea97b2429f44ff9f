/**
 * Access tokens: short-lived HS256 JWTs signed with JWT_SECRET (jose). Refresh tokens are opaque
 * random strings stored hashed (see the auth routes).
 */
import { jwtVerify, SignJWT } from "jose";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "campusnest";
const AUDIENCE = "campusnest-api";

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(
  secret: string,
  userId: string,
  ttlSeconds: number = ACCESS_TOKEN_TTL_SECONDS,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: "access" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key(secret));
}

/** The user id of a valid access token, or null for a missing, tampered, expired or foreign token. */
export async function verifyAccessToken(secret: string, token: string | null | undefined): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    if (payload.typ !== "access" || typeof payload.sub !== "string") return null;
    return payload.sub;
  } catch {
    return null;
  }
}

/**
 * Socket tickets (POST messages/socket-ticket): a separate audience and type, so a ticket never
 * works as an access token and an access token never opens a room. Short-lived because browsers
 * put it in a URL (?token=), where logs may keep it.
 */
const SOCKET_AUDIENCE = "campusnest-socket";

export async function signSocketTicket(secret: string, userId: string, ttlSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: "socket" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(SOCKET_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key(secret));
}

/** The user id of a valid socket ticket, or null (missing, tampered, expired, or any other token). */
export async function verifySocketTicket(secret: string, token: string | null | undefined): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      audience: SOCKET_AUDIENCE,
      algorithms: ["HS256"],
    });
    if (payload.typ !== "socket" || typeof payload.sub !== "string") return null;
    return payload.sub;
  } catch {
    return null;
  }
}

import type { Context } from "hono";
import { jwtVerify, SignJWT } from "jose";
import { insertAdminTokenRevocation, isAdminTokenRevoked } from "../db/queries/admin-tokens";
import type { AppContext } from "../lib/context";
import { unauthorized } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { bearerToken, requireUser } from "./auth";

/** Admin tokens: short-lived JWTs with their own audience, so a user token never opens the panel. */
const AUDIENCE = "campusnest-admin";
export const ADMIN_TOKEN_TTL_SECONDS = 2 * 60 * 60;
const SESSION_EXPIRED = "Session expired. Please log in again.";
export const TOKEN_IN_URL = "Send the staff token as an Authorization: Bearer header; a token in the URL is refused.";

const key = (secret: string) => new TextEncoder().encode(secret);

/** A new staff session: its token, and its audit actor (`admin:{jti}`), the same as every later action's. */
export async function signAdminToken(secret: string): Promise<{ token: string; actor: string }> {
  const jti = newId(12);
  const token = await new SignJWT({ typ: "admin" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("admin")
    .setJti(jti)
    .setIssuer("campusnest")
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ADMIN_TOKEN_TTL_SECONDS}s`)
    .sign(key(secret));
  return { token, actor: `admin:${jti}` };
}

interface AdminSession {
  /** The token's id: the audit log's actor is `admin:{jti}`. */
  jti: string;
  expiresAt: number;
}

async function verifyAdminToken(c: Context<AppContext>): Promise<AdminSession> {
  // A bearer header only: a token in the URL reaches request logs and browser history, so `?token=`
  // is refused even beside a good header (decision 009).
  if (c.req.query("token") !== undefined) throw unauthorized(TOKEN_IN_URL);
  const token = bearerToken(c);
  if (!token) throw unauthorized(SESSION_EXPIRED);
  let session: AdminSession;
  try {
    const { payload } = await jwtVerify(token, key(c.var.config.jwtSecret), {
      issuer: "campusnest",
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    if (payload.typ !== "admin" || typeof payload.jti !== "string" || typeof payload.exp !== "number") throw new Error("not an admin token");
    session = { jti: payload.jti, expiresAt: payload.exp * 1000 };
  } catch {
    throw unauthorized(SESSION_EXPIRED);
  }
  if (await isAdminTokenRevoked(c.var.db, session.jti)) throw unauthorized(SESSION_EXPIRED);
  return session;
}

/** The admin session's actor id (for the audit log), or 401. */
export async function requireAdmin(c: Context<AppContext>): Promise<string> {
  return `admin:${(await verifyAdminToken(c)).jti}`;
}

/**
 * Who is asking where both a party and staff may read (a deal's agreement, its evidence): staff by an
 * admin bearer, else a signed-in user (401 when neither).
 */
export async function staffOrUser(c: Context<AppContext>): Promise<{ userId: string } | { staff: string }> {
  try {
    return { staff: await requireAdmin(c) };
  } catch {
    const user = await requireUser(c);
    return { userId: user.id };
  }
}

/** Staff logout: the token stops working on the server at once, not only in the browser. */
export async function revokeAdminToken(c: Context<AppContext>): Promise<string> {
  const session = await verifyAdminToken(c);
  await insertAdminTokenRevocation(c.var.db, session.jti, isoNow(session.expiresAt));
  return `admin:${session.jti}`;
}

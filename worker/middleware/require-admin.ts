import type { Context } from "hono";
import { jwtVerify, SignJWT } from "jose";
import type { AppContext } from "../lib/context";
import { unauthorized } from "../lib/errors";
import { newId } from "../lib/ids";
import { bearerToken } from "./auth";

/** Admin tokens: short-lived JWTs with their own audience, so a user token never opens the panel. */
const AUDIENCE = "campusnest-admin";
export const ADMIN_TOKEN_TTL_SECONDS = 2 * 60 * 60;

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signAdminToken(secret: string): Promise<string> {
  return new SignJWT({ typ: "admin" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("admin")
    .setJti(newId(12))
    .setIssuer("campusnest")
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ADMIN_TOKEN_TTL_SECONDS}s`)
    .sign(key(secret));
}

/** The admin session's id (for the audit log), or 401. The token comes as ?token= or a bearer header. */
export async function requireAdmin(c: Context<AppContext>): Promise<string> {
  const token = c.req.query("token") || bearerToken(c);
  if (!token) throw unauthorized("Session expired. Please log in again.");
  try {
    const { payload } = await jwtVerify(token, key(c.var.config.jwtSecret), {
      issuer: "campusnest",
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    if (payload.typ !== "admin" || typeof payload.jti !== "string") throw new Error("not an admin token");
    return `admin:${payload.jti}`;
  } catch {
    throw unauthorized("Session expired. Please log in again.");
  }
}

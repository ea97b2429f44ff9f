import type { Context } from "hono";
import { findUserById } from "../db/queries/users";
import type { AppContext } from "../lib/context";
import { apiError, unauthorized } from "../lib/errors";
import { REPORT_TEXTS } from "../contract/reports";
import { verifyAccessClaim } from "../services/tokens";

/** The bearer token of the request, if any. */
export function bearerToken(c: Context<AppContext>): string | null {
  const header = c.req.header("authorization");
  const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1]?.trim() ?? null;
}

/**
 * The user of the request's access token, or null for a missing, malformed, tampered or expired
 * token, a deleted account, or a token issued before the last password reset. One row read: the row
 * (needed anyway for suspension) carries the token version.
 */
export async function userOfAccessToken(c: Context<AppContext>) {
  const claim = await verifyAccessClaim(c.var.config.jwtSecret, bearerToken(c));
  if (!claim) return null;
  const user = await findUserById(c.var.db, claim.userId);
  return user && user.tokenVersion === claim.tokenVersion ? user : null;
}

/** The signed-in user, or 401 (see userOfAccessToken). Called at the top of every handler that needs a user. */
export async function requireUser(c: Context<AppContext>) {
  const user = await userOfAccessToken(c);
  if (!user) throw unauthorized("Not authenticated");
  // A suspended account's access tokens stop working at once (docs/decisions/015).
  if (user.suspendedAt) throw apiError(403, { detail: REPORT_TEXTS.suspended, code: "account_suspended" });
  return user;
}

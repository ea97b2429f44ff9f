import type { Context } from "hono";
import { createDb } from "../db/client";
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
 * The signed-in user, or 401. Called at the top of every handler that needs a user: a missing,
 * malformed, tampered or expired token, a deleted account, or a token issued before the last password
 * reset, all end here.
 */
export async function requireUser(c: Context<AppContext>) {
  const claim = await verifyAccessClaim(c.var.config.jwtSecret, bearerToken(c));
  if (!claim) throw unauthorized("Not authenticated");
  const user = await findUserById(createDb(c.env), claim.userId);
  // The row read anyway (suspension) also ends tokens issued before a password reset (token_version).
  if (!user || user.tokenVersion !== claim.tokenVersion) throw unauthorized("Not authenticated");
  // A suspended account's access tokens stop working at once (issue 13).
  if (user.suspendedAt) throw apiError(403, { detail: REPORT_TEXTS.suspended, code: "account_suspended" });
  return user;
}

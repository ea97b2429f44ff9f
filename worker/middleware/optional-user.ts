import type { Context } from "hono";
import type { AppContext } from "../lib/context";
import { userOfAccessToken } from "./auth";

/**
 * The caller's user id when a valid token came with the request; null for visitors. Checked like
 * requireUser (token version, so a token from before a password reset is a visitor's), and a
 * suspended account reads as a visitor too.
 */
export async function optionalUserId(c: Context<AppContext>): Promise<string | null> {
  const user = await userOfAccessToken(c);
  return user && !user.suspendedAt ? user.id : null;
}

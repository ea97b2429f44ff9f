import type { Context } from "hono";
import type { AppContext } from "../lib/context";
import { bearerToken } from "./auth";
import { verifyAccessToken } from "../services/tokens";

/** The caller's user id when a valid token came with the request; null for visitors. */
export async function optionalUserId(c: Context<AppContext>): Promise<string | null> {
  return verifyAccessToken(c.var.config.jwtSecret, bearerToken(c));
}

import type { Context } from "hono";
import type { AppContext } from "../lib/context";
import { tooManyRequests } from "../lib/errors";

/** Every limiter's window (Workers Rate Limiting periods are 10 or 60 s). */
const WINDOW_SECONDS = 60;

export type LimiterName = "AUTH_LIMITER" | "ACCOUNT_LIMITER" | "WRITE_LIMITER";

/** The caller's address as Cloudflare reports it (the header cannot be forged through the edge). */
export function clientIp(c: Context<AppContext>): string {
  return c.req.header("cf-connecting-ip") ?? "local";
}

/** Throws 429 {detail, retry_after} when `key` has used up its budget on this limiter. */
export async function enforceLimit(c: Context<AppContext>, limiter: LimiterName, key: string): Promise<void> {
  const { success } = await c.env[limiter].limit({ key: `${limiter}:${key}` });
  if (!success) throw tooManyRequests(WINDOW_SECONDS, "Too many attempts. Please wait a minute and try again.");
}

/** The per-IP throttle of sign-in, sign-up and code routes. */
export const limitByIp = (c: Context<AppContext>) => enforceLimit(c, "AUTH_LIMITER", clientIp(c));

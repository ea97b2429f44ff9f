import type { Context } from "hono";
import type { AppContext } from "../lib/context";
import { tooManyRequests } from "../lib/errors";

/** Every limiter's window (Workers Rate Limiting periods are 10 or 60 s). */
const WINDOW_SECONDS = 60;

/** The Rate Limiting bindings of wrangler.toml (sizes and reasons: docs/decisions/010). */
export type LimiterName = "AUTH_LIMITER" | "REFRESH_LIMITER" | "WRITE_LIMITER" | "MESSAGE_LIMITER" | "ADMIN_LOGIN_LIMITER" | "ADMIN_LOGIN_GLOBAL_LIMITER";

/** The caller's address as Cloudflare reports it (the header cannot be forged through the edge). */
export function clientIp(c: Context<AppContext>): string {
  return c.req.header("cf-connecting-ip") ?? "local";
}

/**
 * The throttling key of an address: IPv4 as it is, IPv6 by its /64 (one home or phone gets a whole
 * /64, so keying single IPv6 addresses would let one device rotate through billions of keys).
 */
export function addressKey(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, "");
  if (!address.includes(":")) return address;
  const groups = expandIpv6(address);
  if (!groups) return address;
  // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (with :: and a dotted IPv4 tail), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(Math.max(missing, 0)).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** Throws 429 {detail, retry_after} when `key` has used up its budget on this limiter. */
export async function enforceLimit(c: Context<AppContext>, limiter: LimiterName, key: string): Promise<void> {
  const { success } = await c.env[limiter].limit({ key: `${limiter}:${key}` });
  if (!success) throw tooManyRequests(WINDOW_SECONDS, "Too many attempts. Please wait a minute and try again.");
}

/** The per-address throttle of sign-up, sign-in, code and reset routes. */
export const limitByAddress = (c: Context<AppContext>) => enforceLimit(c, "AUTH_LIMITER", addressKey(clientIp(c)));

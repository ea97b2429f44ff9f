/**
 * Fair shares of what costs money (docs/decisions/019, 032): each use of a paid API or of costly work is
 * counted in D1 windows (auth_throttle rows keyed by a SHA-256 of the name), several at once (a user's, a
 * university's, everyone's), before the work is done. Past a cap: 429 {detail, retry_after} until that
 * window ends. Exact counts, unlike the Workers rate limiters (a flood guard per location).
 */
import { AGREEMENT_DRAFTS } from "../contract/constants";
import type { Db } from "../db/client";
import { countWithinCaps, uncountWindows } from "../db/queries/auth-throttle";
import { sha256Hex } from "../lib/encoding";
import { tooManyRequests } from "../lib/errors";

export interface UsageCap {
  /** What is counted, and for whom: `geo-day:{userId}`. */
  name: string;
  limit: number;
  /** The window's length; windows start at multiples of it (UTC days, hours). */
  windowMs: number;
  /** The 429's detail when this cap is the one reached. */
  refusal: string;
}

/**
 * Counts one use against every cap, in order (a later cap counts it only when the earlier ones did), or
 * throws 429 for the first that is full; what the earlier caps counted is taken back. Answers nothing.
 * `onRefused` hears which cap refused (to log it).
 */
export async function spendWithinCaps(db: Db, caps: UsageCap[], now = Date.now(), onRefused?: (cap: UsageCap) => void): Promise<void> {
  const windows = await Promise.all(caps.map(async (cap) => ({ key: await sha256Hex(cap.name), windowStart: now - (now % cap.windowMs), cap: cap.limit })));
  const marker = crypto.getRandomValues(new Uint32Array(1))[0]! * 2 ** 20 + (now % 2 ** 20);
  const full = await countWithinCaps(db, windows, marker);
  if (full === null) return;
  if (full > 0) await uncountWindows(db, windows.slice(0, full));
  const cap = caps[full]!;
  onRefused?.(cap);
  throw tooManyRequests(Math.max(1, Math.ceil((windows[full]!.windowStart + cap.windowMs - now) / 1000)), cap.refusal);
}

const HOUR_MS = 3_600_000;
export const DRAFT_PDF_REFUSED = `You can download at most ${AGREEMENT_DRAFTS.perUserPerHour} agreement drafts an hour. Read it on the deal page meanwhile; the signed agreement is always there.`;

/** One agreement draft (a PDF rendered on request) for a party: AGREEMENT_DRAFTS an hour each. */
export const spendAgreementDraft = (db: Db, userId: string, now = Date.now()) =>
  spendWithinCaps(db, [{ name: `draft-pdf-hour:${userId}`, limit: AGREEMENT_DRAFTS.perUserPerHour, windowMs: HOUR_MS, refusal: DRAFT_PDF_REFUSED }], now);

/**
 * The cron trigger's work (wrangler.toml [triggers]): removes what has expired, so tables stay
 * small and lookups stay cheap. Each step is one guarded statement; running it twice is harmless.
 */
import { and, eq, isNotNull, lt, or } from "drizzle-orm";
import { createDb } from "../db/client";
import { emailCodes, listings, refreshTokens } from "../db/schema";
import { isoNow } from "../lib/time";
import { log } from "../lib/log";

const DAY_MS = 86_400_000;

export interface HousekeepingResult {
  emailCodes: number;
  refreshTokens: number;
  expiredPromotions: number;
}

export async function runHousekeeping(env: Env, now: number = Date.now()): Promise<HousekeepingResult> {
  const db = createDb(env);
  const nowIso = isoNow(now);
  // Keep a day of expired codes so resend cooldowns and audits still see them.
  const codeCutoff = isoNow(now - DAY_MS);
  const [codes, tokens, promotions] = await db.batch([
    db.delete(emailCodes).where(lt(emailCodes.expiresAt, codeCutoff)),
    db.delete(refreshTokens).where(or(lt(refreshTokens.expiresAt, nowIso), isNotNull(refreshTokens.revokedAt))),
    // Promotions whose window ended and that will not renew stop being promoted.
    db
      .update(listings)
      .set({ promotionStart: null, promotionEnd: null, promotionSource: null, autoRenew: false, updatedAt: nowIso })
      .where(and(lt(listings.promotionEnd, nowIso), isNotNull(listings.promotionEnd), eq(listings.autoRenew, false))),
  ]);
  const result = {
    emailCodes: codes.meta.changes ?? 0,
    refreshTokens: tokens.meta.changes ?? 0,
    expiredPromotions: promotions.meta.changes ?? 0,
  };
  log.info("housekeeping", { ...result });
  return result;
}

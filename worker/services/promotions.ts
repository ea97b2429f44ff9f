/**
 * The only code that starts, extends or ends a promotion. A promotion is a window
 * (promotion_start..promotion_end) with a source (stripe | admin) and an auto_renew flag; one
 * bought while the listing awaited review waits in promotion_pending_days and starts on approval.
 *
 * Ending a promotion clears the window, its source and auto_renew, everywhere (staff, cleanup,
 * cron). A purchase still waiting for approval is not a running promotion: only staff's unpromote
 * cancels it too.
 */
import type { Db } from "../db/client";
import { findListing, updateLapsedPromotionsNotRenewing, updateLapsedStaffPromotions, updateListing } from "../db/queries/listings";
import { canStaffPromoteListing } from "../contract/policies";
import { audit } from "./audit";
import { badRequest, notFound } from "../lib/errors";
import { isoIn, isoNow } from "../lib/time";

const DAY_MS = 86_400_000;
const ADMIN_PROMOTION_DAYS = 7;

type PromotionSource = "stripe" | "admin";

/** The columns of a promotion that runs `days` from `now` (replacing any window it had). */
const promotionStarted = (days: number, source: PromotionSource, now: number) => ({
  promotionStart: isoNow(now),
  promotionEnd: isoIn(days * DAY_MS, now),
  promotionSource: source,
});

/** The columns of a listing whose promotion ended. */
const promotionEnded = () => ({ promotionStart: null, promotionEnd: null, promotionSource: null, autoRenew: false });

/** On approval: the promotion bought while the listing was pending starts now (columns to merge into the review update). */
export function startPendingPromotion(pendingDays: number | null, now: number) {
  return pendingDays ? { ...promotionStarted(pendingDays, "stripe", now), promotionPendingDays: null } : {};
}

/** Staff promote an approved listing for a week (a running promotion starts again from now). */
export async function promoteByStaff(db: Db, actor: string, id: string): Promise<{ promotion_end: string }> {
  const row = await findListing(db, id);
  if (!row) throw notFound("Listing not found");
  if (!canStaffPromoteListing({ verification_status: row.verificationStatus })) throw badRequest("Only approved listings can be promoted");
  const now = Date.now();
  const started = promotionStarted(ADMIN_PROMOTION_DAYS, "admin", now);
  await db.batch([
    updateListing(db, id, { ...started, autoRenew: false, updatedAt: isoNow(now) }),
    audit(db, actor, "listing_promote", "listings", id),
  ]);
  return { promotion_end: started.promotionEnd };
}

/** Staff end a listing's promotion and cancel one waiting for approval; false when there is no such listing. */
export async function unpromoteByStaff(db: Db, actor: string, id: string): Promise<boolean> {
  const [res] = await db.batch([
    updateListing(db, id, { ...promotionEnded(), promotionPendingDays: null, updatedAt: isoNow() }),
    audit(db, actor, "listing_unpromote", "listings", id),
  ]);
  return !!res.meta.changes;
}

/** Staff's cleanup: ends staff promotions whose window has passed. Returns how many ended. */
export async function endLapsedStaffPromotions(db: Db, actor: string): Promise<number> {
  const now = isoNow();
  const [res] = await db.batch([
    updateLapsedStaffPromotions(db, now, { ...promotionEnded(), updatedAt: now }),
    audit(db, actor, "cleanup_expired_promotions", "listings", null),
  ]);
  return res.meta.changes ?? 0;
}

/** The cron's statement (for its db.batch): lapsed promotions that will not renew end. */
export const endLapsedPromotions = (db: Db, nowIso: string) => updateLapsedPromotionsNotRenewing(db, nowIso, { ...promotionEnded(), updatedAt: nowIso });

/**
 * Staff's promotions (a week, free, audited) and the clock's: approval starts what was bought while the
 * listing waited for review; lapsed windows end (staff's cleanup and the cron).
 */
import type { Db } from "../../db/client";
import { purgeListingCache } from "../edge-cache";
import { findListing, updateLapsedPromotionsNotRenewing, updateLapsedStaffPromotions, updateListing } from "../../db/queries/listings";
import { liveSubscriptionsOfListing, markLapsedCancelledSubscriptionsEnded, pendingPromotionStarts, updateListingPromotionNow } from "../../db/queries/promotions";
import { canStaffPromoteListing } from "../../contract/owner-rules";
import { insertAudit } from "../../db/queries/audit";
import { RETRY, untilApplied } from "../stripe/once";
import { busy, bumpVersion, promotionEnded, promotionStarted } from "./record";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";

const ADMIN_PROMOTION_DAYS = 7;

/**
 * On approval: the promotion bought while the listing was pending starts now (columns to merge into
 * the review update; db/queries/promotions pendingPromotionStarts, also used by "approve all").
 * (`_pendingDaysRead` is kept for the caller's signature.)
 */
export function startPendingPromotion(_pendingDaysRead: number | null, now: number) {
  return pendingPromotionStarts(isoNow(now));
}

/** Staff promote an approved listing for a week (a running promotion starts again from now). */
export async function promoteByStaff(db: Db, actor: string, id: string): Promise<{ promotion_end: string }> {
  const row = await findListing(db, id);
  if (!row) throw notFound("Listing not found");
  if (!canStaffPromoteListing({ verification_status: row.verificationStatus })) throw badRequest("Only approved listings can be promoted");
  const now = Date.now();
  const started = promotionStarted(ADMIN_PROMOTION_DAYS, "admin", now);
  await db.batch([
    updateListing(db, id, { ...started, autoRenew: false, ...bumpVersion, updatedAt: isoNow(now) }),
    insertAudit(db, actor, "listing_promote", "listings", id),
  ]);
  await purgeListingCache([id]);
  return { promotion_end: started.promotionEnd };
}

/** Staff end a listing's promotion and cancel one waiting for approval; false when there is no such listing. */
export async function unpromoteByStaff(db: Db, actor: string, id: string): Promise<boolean> {
  return untilApplied(busy, async () => {
    const listing = await findListing(db, id);
    if (!listing) return false;
    // A paid promotion is the owner's subscription: ending only the window would keep charging them.
    if ((await liveSubscriptionsOfListing(db, id)).length) {
      throw conflict("This promotion is paid by a subscription. Delete the listing (which cancels it) or cancel the subscription in Stripe.");
    }
    // Guarded: a checkout completed since the check above makes this retry (and then refuse).
    const res = await updateListingPromotionNow(db, id, listing.promotionVersion, { ...promotionEnded(), promotionPendingDays: null, updatedAt: isoNow() });
    if (!res.meta.changes) return RETRY;
    await insertAudit(db, actor, "listing_unpromote", "listings", id);
    await purgeListingCache([id]);
    return true;
  });
}

/** Staff's cleanup: ends staff promotions whose window has passed. Returns how many ended. */
export async function endLapsedStaffPromotions(db: Db, actor: string): Promise<number> {
  const now = isoNow();
  const [res] = await db.batch([
    updateLapsedStaffPromotions(db, now, { ...promotionEnded(), ...bumpVersion, updatedAt: now }),
    insertAudit(db, actor, "cleanup_expired_promotions", "listings", null),
  ]);
  return res.length;
}

/** The cron's statement (for its db.batch): lapsed promotions that will not renew end. */
export const endLapsedPromotions = (db: Db, nowIso: string) => updateLapsedPromotionsNotRenewing(db, nowIso, { ...promotionEnded(), ...bumpVersion, updatedAt: nowIso });


/** The cron's statement: cancelled subscriptions whose paid period is over are ended (Stripe's deletion may follow; it changes nothing then). */
export const endLapsedCancelledSubscriptions = (db: Db, nowIso: string) => markLapsedCancelledSubscriptionsEnded(db, nowIso);

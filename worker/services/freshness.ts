/**
 * Fresh listings. The cron asks the owner of an available listing every 14 days whether it
 * is still available (one email with two signed one-click links) and pauses a listing not confirmed for
 * 21 days; the owner confirms from the profile or from the email. Each step is a guarded statement, so
 * running the cron twice sends one email.
 */
import { FRESHNESS } from "../contract/waits";
import type { AvailabilityAction, AvailabilityLinkResponse } from "../contract/freshness";
import { AVAILABILITY_LINK_INVALID } from "../contract/freshness";
import { canConfirmAvailability } from "../contract/owner-rules";
import type { OwnerListing } from "../contract/listings";
import type { Config } from "../env";
import type { Db } from "../db/client";
import { findListing, findOwnerListing } from "../db/queries/listings";
import { claimAvailabilityAsks, confirmListingAvailable, markListingTaken, pauseUnconfirmedListings } from "../db/queries/freshness";
import { findUserById, isActiveUser } from "../db/queries/users";
import { REPORT_TEXTS } from "../contract/reports";
import { apiError, conflict, notFound } from "../lib/errors";
import { log } from "../lib/log";
import { isoNow } from "../lib/time";
import { purgeListingCache } from "./edge-cache";
import { notify } from "./notify";
import { stopRenewal, stopRenewalOfUnavailableListings } from "./promotions";
import { signAvailabilityToken, verifyAvailabilityToken } from "./tokens";

const DAY_MS = 86_400_000;

export interface FreshnessResult {
  asked: number;
  paused: number;
}

/** The cron's step: email the owners who are due a question, then pause what stayed unconfirmed. */
export async function runFreshness(db: Db, env: Env, config: Config, now: number = Date.now()): Promise<FreshnessResult> {
  const nowIso = isoNow(now);
  const due = await claimAvailabilityAsks(db, nowIso, isoNow(now - FRESHNESS.askEveryDays * DAY_MS), FRESHNESS.askBatch);
  for (const listing of due) {
    try {
      const owner = await findUserById(db, listing.user_id);
      if (!owner) continue;
      const ttl = FRESHNESS.tokenTtlDays * 86_400;
      const link = async (action: AvailabilityAction) =>
        // In the fragment: browsers never send it, so the 30-day token stays out of request logs.
        `${config.publicBaseUrl}/availability#token=${encodeURIComponent(await signAvailabilityToken(config.jwtSecret, { listingId: listing.id, ownerId: owner.id, action }, ttl, now))}`;
      await notify({ db, env, config }, { user: owner }, { kind: "still_available", title: listing.title, availableUrl: await link("available"), takenUrl: await link("taken") });
    } catch (err) {
      // The claim stays: the owner is asked again in 14 days, and the listing pauses on time either way
      // (a failed send is logged by notify).
      log.warn("freshness_email_failed", { message: String(err) });
    }
  }
  const paused = await pauseUnconfirmedListings(db, nowIso, isoNow(now - FRESHNESS.pauseAfterDays * DAY_MS)).run();
  if (paused.meta.changes) await purgeListingCache([], db);
  // A paused promoted listing stops renewing as Cancel does (and so does one taken or hidden whose stop failed).
  await stopRenewalOfUnavailableListings({ db, env, config });
  return { asked: due.length, paused: paused.meta.changes ?? 0 };
}

/** The owner's Confirm availability: a live or paused listing becomes available, confirmed now; others 409. */
export async function confirmAvailability(db: Db, ownerId: string, listing: { id: string; status: string }): Promise<OwnerListing> {
  if (!canConfirmAvailability(listing)) throw conflict("Only an available or paused listing can be confirmed as available.");
  const ok = await confirmListingAvailable(db, listing.id, ownerId, isoNow());
  if (!ok) throw conflict("Only an available or paused listing can be confirmed as available.");
  await purgeListingCache([listing.id]);
  return (await findOwnerListing(db, listing.id))!;
}

/** Reads an emailed link: its listing, whose owner must still be the one it was sent to. */
async function readLink(db: Db, config: Config, token: string) {
  const claim = await verifyAvailabilityToken(config.jwtSecret, token);
  if (!claim) throw apiError(400, { detail: AVAILABILITY_LINK_INVALID });
  const row = await findListing(db, claim.listingId);
  if (!row || row.userId !== claim.ownerId) throw apiError(400, { detail: AVAILABILITY_LINK_INVALID });
  // A suspended owner's links stop working like the rest of the account.
  if (!(await isActiveUser(db, claim.ownerId))) throw apiError(403, { detail: REPORT_TEXTS.suspended, code: "account_suspended" });
  return { claim, row };
}

/** What a link is about, changing nothing (mail scanners open links: GET must never act). */
export async function checkAvailabilityLink(db: Db, config: Config, token: string): Promise<AvailabilityLinkResponse> {
  const { claim, row } = await readLink(db, config, token);
  return { action: claim.action, listing_id: row.id, title: row.title, status: row.status as AvailabilityLinkResponse["status"], applied: false };
}

/**
 * Applies a link: "available" confirms a live or paused listing (a taken or hidden one: 409, the owner
 * changes it from the profile); "taken" marks it taken. Repeating a link is harmless.
 */
export async function applyAvailabilityLink(db: Db, env: Env, config: Config, token: string): Promise<AvailabilityLinkResponse> {
  const { claim, row } = await readLink(db, config, token);
  const nowIso = isoNow();
  if (claim.action === "available") {
    if (!canConfirmAvailability(row)) throw conflict("This listing is not available any more. You can change it from your profile.");
    if (!(await confirmListingAvailable(db, row.id, claim.ownerId, nowIso))) throw notFound("Listing not found");
  } else {
    if (await markListingTaken(db, row.id, claim.ownerId, nowIso)) await stopRenewal({ db, env, config }, row.id, "taken");
  }
  await purgeListingCache([row.id]);
  const after = await findListing(db, row.id);
  return { action: claim.action, listing_id: row.id, title: row.title, status: (after?.status ?? row.status) as AvailabilityLinkResponse["status"], applied: true };
}

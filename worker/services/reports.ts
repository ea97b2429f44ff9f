/**
 * Reports, blocks and suspension (docs/decisions/015). A report is about a listing (its owner is the
 * reported user) or about someone the reporter talks to. Staff resolve an open report by hiding the
 * listing (the existing staff hide), suspending the user, or dismissing it; each is audited.
 * A suspended account cannot sign in or use its tokens, its listings leave public view, its sockets close.
 */
import { cancelOpenDeals } from "./deals";
import { freezeHeldDealsOf } from "./payments";
import { getConfig } from "../env";
import { DEAL_REASONS } from "../contract/deals";
import { REPORT_TEXTS, type Report, type ReportAction, type ReportInput } from "../contract/reports";
import { requireViewableListing } from "./viewable-listing";
import type { BatchStatement, Db } from "../db/client";
import { findListingRow, listingsOfUser } from "../db/queries/listings";
import {
  blockedUsersOf,
  deleteBlock,
  findOpenReport,
  findReport,
  haveConversation,
  insertBlock,
  insertReport,
  resolveReportRow,
  setOwnerListingsModeration,
  setSuspended,
  toReport,
} from "../db/queries/reports";
import { revokeRefreshTokensOfUser } from "../db/queries/sessions";
import { findUserById, type UserRow } from "../db/queries/users";
import { bumpPromotionVersionsOfUser } from "../db/queries/promotions";
import { badRequest, conflict, forbidden, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { log } from "../lib/log";
import { isoNow } from "../lib/time";
import { insertAudit } from "../db/queries/audit";
import { purgeListingCache } from "./edge-cache";
import { editListingByStaff } from "./listings";
import { closeSocketsOfUser, conversationIdsOfUser } from "./messaging";
import { endSubscriptionsNow } from "./promotions";

/** Files a report, or answers the reporter's open report on the same target (created false). */
export async function createReport(db: Db, reporter: UserRow, input: ReportInput): Promise<{ report: Report; created: boolean }> {
  let reportedUserId: string;
  let listingId: string | null = null;
  let conversationId: string | null = null;
  if (input.kind === "listing") {
    const listing = requireViewableListing(await findListingRow(db, input.listing_id), reporter);
    if (listing.user_id === reporter.id) throw forbidden(REPORT_TEXTS.ownListing);
    reportedUserId = listing.user_id;
    listingId = listing.id;
  } else {
    if (input.user_id === reporter.id) throw badRequest("You cannot report yourself");
    if (!(await findUserById(db, input.user_id))) throw notFound("User not found");
    if (!(await haveConversation(db, reporter.id, input.user_id, input.conversation_id))) throw forbidden(REPORT_TEXTS.noConversation);
    reportedUserId = input.user_id;
    conversationId = input.conversation_id ?? null;
  }
  const existing = await findOpenReport(db, reporter.id, listingId ? { listingId } : { userId: reportedUserId });
  if (existing) return { report: toReport(existing), created: false };
  const [row] = await insertReport(db, {
    id: newId(),
    reporterId: reporter.id,
    kind: input.kind,
    listingId,
    reportedUserId,
    conversationId,
    reason: input.reason,
    details: input.details || null,
  });
  return { report: toReport(row!), created: true };
}

/** Applies staff's decision to an open report (409 once resolved); every step is audited. */
export async function resolveReport(db: Db, env: Env, actor: string, reportId: string, action: ReportAction): Promise<Report> {
  const report = await findReport(db, reportId);
  if (!report) throw notFound("Report not found");
  if (report.status !== "open") throw conflict(REPORT_TEXTS.reportNotOpen);
  const now = isoNow();
  const resolve = [resolveReportRow(db, report.id, action, now), insertAudit(db, actor, "report_resolve", "reports", report.id, { action })] as const;
  if (action === "suspend_user") {
    await suspendUser(db, env, actor, report.reportedUserId, resolve);
  } else {
    if (action === "hide_listing") {
      if (!report.listingId) throw badRequest(REPORT_TEXTS.noListing);
      await editListingByStaff(db, actor, report.listingId, { moderation_status: "hidden" });
    }
    const [res] = await db.batch(resolve);
    if (!res.meta.changes) throw conflict(REPORT_TEXTS.reportNotOpen);
  }
  return toReport((await findReport(db, report.id))!);
}

type Statement = BatchStatement;

/**
 * Suspends an account in one batch (the flag, its visible listings to "suspended", every refresh
 * token revoked, the audit entry and any extra statements such as resolving the report), then
 * closes its sockets. Access tokens stop at requireUser.
 */
export async function suspendUser(db: Db, env: Env, actor: string, userId: string, extra: readonly Statement[] = []) {
  if (!(await findUserById(db, userId))) throw notFound("User not found");
  const now = isoNow();
  await db.batch([
    setSuspended(db, userId, now),
    setOwnerListingsModeration(db, userId, "visible", "suspended"),
    // A Stripe event applied from a read before this batch retries, and sees the suspension.
    bumpPromotionVersionsOfUser(db, userId),
    revokeRefreshTokensOfUser(db, userId, now),
    insertAudit(db, actor, "user_suspend", "users", userId),
    ...extra,
  ]);
  await purgeListingCache((await listingsOfUser(db, userId, true)).map((l) => l.id), db);
  // Its open unpaid deals end (docs/decisions/026); a failure is logged, the suspension stands.
  await cancelOpenDeals(db, env, { userId }, DEAL_REASONS.partySuspended).catch((err: unknown) =>
    log.error("suspension_deals_cancel_failed", { message: err instanceof Error ? err.message : "unknown" }),
  );
  // Its held deals as a lister freeze into staff cases (docs/decisions/029); logged on failure, like the above.
  const followups: Promise<unknown>[] = [];
  await freezeHeldDealsOf(db, { env, config: getConfig(env), defer: (t) => void followups.push(t) }, userId).catch((err: unknown) =>
    log.error("suspension_deals_freeze_failed", { message: err instanceof Error ? err.message : "unknown" }),
  );
  await Promise.allSettled(followups);
  await closeSocketsOfUser(env, userId, await conversationIdsOfUser(db, userId), "Account suspended");
  // Nobody pays for listings nobody can see, and a suspended account cannot cancel by itself. After
  // the takedown, which must not wait for Stripe: a failure here is retried by the cron.
  await endSubscriptionsNow(db, env, { userId }).catch((err: unknown) =>
    log.error("suspension_subscriptions_stop_failed", { message: err instanceof Error ? err.message : "unknown" }),
  );
}

/** Lifts a suspension: the listings it hid are visible again. The number of listings restored. */
export async function unsuspendUser(db: Db, actor: string, userId: string): Promise<number> {
  if (!(await findUserById(db, userId))) throw notFound("User not found");
  const [, restored] = await db.batch([
    setSuspended(db, userId, null),
    setOwnerListingsModeration(db, userId, "suspended", "visible"),
    insertAudit(db, actor, "user_unsuspend", "users", userId),
  ]);
  if (restored.meta.changes) await purgeListingCache([], db);
  return restored.meta.changes ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Blocks.

export async function blockUser(db: Db, env: Env, blocker: UserRow, blockedId: string) {
  if (blockedId === blocker.id) throw badRequest(REPORT_TEXTS.blockSelf);
  if (!(await findUserById(db, blockedId))) throw notFound("User not found");
  await insertBlock(db, blocker.id, blockedId);
  // No deal goes on between people who blocked each other (docs/decisions/026).
  await cancelOpenDeals(db, env, { pair: [blocker.id, blockedId] }, DEAL_REASONS.partyBlocked);
  return blockedUsersOf(db, blocker.id);
}

export const unblockUser = async (db: Db, blocker: UserRow, blockedId: string) => {
  await deleteBlock(db, blocker.id, blockedId);
};

export const blockedUsers = (db: Db, userId: string) => blockedUsersOf(db, userId);

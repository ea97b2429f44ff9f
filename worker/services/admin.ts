/** Staff tools that are not about one feature: site statistics, a user's identity status by hand, deleting any item. */
import type { AdminStats } from "../contract/admin";
import { DEAL_STATUSES, type DealStatus } from "../contract/deals";
import type { Db } from "../db/client";
import { countsAndSignups, deletePlainRow } from "../db/queries/admin";
import { deleteMessage } from "../db/queries/conversations";
import { findListing } from "../db/queries/listings";
import { findUserById, toPrivateUser, updateUser } from "../db/queries/users";
import { deleteRequest, findRequest } from "../db/queries/verification";
import type { DELETABLE_TABLES } from "../contract/admin";
import { notFound } from "../lib/errors";
import { deleteAccount } from "./accounts";
import { insertAudit } from "../db/queries/audit";
import { deleteListing } from "./listings";
import { closeConversationRoom } from "./messaging";
import { deleteObjects } from "./storage";

const DAY_MS = 86_400_000;
const GROWTH_DAYS = 10;

/**
 * The dashboard's figures, each counted as its tab lists it, from the counts the database keeps
 * (site_counts and signups_by_day, docs/decisions/038): reading them scans no table.
 */
export async function siteStats(db: Db): Promise<AdminStats> {
  const since = new Date(Date.now() - (GROWTH_DAYS - 1) * DAY_MS);
  since.setUTCHours(0, 0, 0, 0);
  const { counts, growth } = await countsAndSignups(db, since.toISOString().slice(0, 10));
  const n = (name: string) => Math.max(0, counts.get(name) ?? 0);
  const byDay = new Map(growth.map((g) => [g.day, g.n]));
  const byStatus = Object.fromEntries(DEAL_STATUSES.flatMap((status) => (n(`deals:${status}`) ? [[status, n(`deals:${status}`)]] : []))) as Partial<Record<DealStatus, number>>;
  return {
    users: n("users"),
    listings: n("listings"),
    conversations: n("conversations"),
    messages: n("messages"),
    pending_listings: n("listings_pending"),
    promoted_listings: n("listings_promoted"),
    pending_verifications: n("verifications_pending"),
    open_feedback: n("feedback_open"),
    deals_by_state: byStatus,
    deals: {
      by_status: byStatus,
      held_cents: n("deal_held_cents"),
      released_cents: n("deal_released_cents"),
      refunded_cents: n("deal_refunded_cents"),
      open_cases: n("deal_open_cases"),
    },
    queues: { pending_ids: n("verifications_pending"), pending_listings: n("listings_pending"), open_reports: n("reports_open"), safety_flags: n("safety_flags") },
    user_growth: Array.from({ length: GROWTH_DAYS }, (_, i) => {
      const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return { date, users: byDay.get(date) ?? 0 };
    }),
  };
}

/** Sets a user's identity status (staff's override of the review flow); 404 when there is no such user. */
export async function setIdentityStatus(db: Db, actor: string, id: string, status: "unverified" | "pending" | "verified") {
  const [res] = await db.batch([
    updateUser(db, id, { idVerificationStatus: status }),
    insertAudit(db, actor, "user_verification_status", "users", id, { verification_status: status }),
  ]);
  if (!res.meta.changes) throw notFound("User not found");
  return toPrivateUser((await findUserById(db, id))!);
}

/** Deletes one item with whatever hangs off it (files, cascades), then records it; 404 when missing. */
export async function deleteItem(db: Db, env: Env, actor: string, table: (typeof DELETABLE_TABLES)[number], id: string) {
  const missing = () => notFound("Item not found");
  switch (table) {
    case "users": {
      const user = await findUserById(db, id);
      if (!user) throw missing();
      await deleteAccount(db, env, user);
      break;
    }
    case "listings": {
      if (!(await findListing(db, id))) throw missing();
      await deleteListing(db, env, id, "staff");
      break;
    }
    case "verification_requests": {
      const row = await findRequest(db, id);
      if (!row) throw missing();
      await deleteRequest(db, id);
      await deleteObjects(env.ID_DOCUMENTS, [row.documentKey]);
      break;
    }
    case "messages": {
      if (!(await deleteMessage(db, id))) throw missing();
      break;
    }
    case "conversations": {
      if (!(await deletePlainRow(db, table, id))) throw missing();
      await closeConversationRoom(env, id);
      break;
    }
    default:
      if (!(await deletePlainRow(db, table, id))) throw missing();
  }
  await insertAudit(db, actor, "delete_item", table, id);
}

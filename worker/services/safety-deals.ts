/**
 * The scam shield in a deal's conversation (docs/decisions/030): what the pair's deals tell it. Before the
 * first month is paid, a payment notice to the one who would rent points inside (request, sign, pay: the
 * first month is held until move-in); once it is paid through CampusNest, later months' rent by a payment
 * app is how the agreement says they are paid, and the shield reads it so (scam-shield ShieldContext).
 */
import { OPEN_UNPAID, TAKEN, type DealStatus } from "../contract/deals";
import type { Message } from "../contract/messages";
import type { Db } from "../db/client";
import type { ConversationRow } from "../db/queries/conversations";

export type PayInsideStep = NonNullable<Message["safety_pay_inside"]>;

interface PairDeal {
  id: string;
  status: DealStatus;
  renter_id: string;
  listing_id: string | null;
}

/** The pair's deals, newest first (one conversation per pair, so the conversation's deals). */
async function dealsOfPair(db: Db, a: string, b: string): Promise<PairDeal[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT id, status, renter_id, listing_id FROM deals
       WHERE (renter_id = ?1 AND lister_id = ?2) OR (renter_id = ?2 AND lister_id = ?1)
       ORDER BY created_at DESC, id DESC LIMIT 50`,
    )
    .bind(a, b)
    .all<PairDeal>();
  return results;
}

/** Whether the pair has a deal whose first month was paid through CampusNest (the shield's `firstMonthPaid`). */
export async function firstMonthPaid(db: Db, conversation: Pick<ConversationRow, "userA" | "userB">): Promise<boolean> {
  return (await dealsOfPair(db, conversation.userA, conversation.userB)).some((d) => TAKEN.includes(d.status));
}

const STEP_OF: Partial<Record<DealStatus, PayInsideStep["step"]>> = { requested: "wait", accepted: "sign", signed: "pay" };

/**
 * The next step inside CampusNest for `viewerId` in this conversation, shown under a payment notice: the
 * viewer's open request of the lister (wait, sign or pay, on the deal's page), else a request for the
 * conversation's listing when the viewer does not own it. Null when the viewer's first month is already
 * paid here, or the viewer is the one who lists (their open deal is as lister, or the listing is theirs).
 */
export async function payInsideStep(db: Db, conversation: Pick<ConversationRow, "userA" | "userB" | "listingId">, viewerId: string): Promise<PayInsideStep | null> {
  const other = conversation.userA === viewerId ? conversation.userB : conversation.userA;
  const deals = await dealsOfPair(db, viewerId, other);
  if (deals.some((d) => d.renter_id === viewerId && TAKEN.includes(d.status))) return null;
  const open = deals.find((d) => OPEN_UNPAID.includes(d.status));
  if (open) return open.renter_id === viewerId ? { step: STEP_OF[open.status]!, deal_id: open.id, listing_id: open.listing_id } : null;
  if (!conversation.listingId) return null;
  const listing = await db.$client.prepare("SELECT user_id FROM listings WHERE id = ?").bind(conversation.listingId).first<{ user_id: string }>();
  return listing && listing.user_id !== viewerId ? { step: "request", deal_id: null, listing_id: conversation.listingId } : null;
}

/**
 * The scam shield in a deal's conversation (docs/decisions/030): what the pair's deals tell it. Before the
 * first month is paid, a payment notice to the one who would rent points inside (request, sign, pay: the
 * first month is held until move-in); once it is paid through CampusNest, later months' rent by a payment
 * app is how the agreement says they are paid, and the shield reads it so (scam-shield ShieldContext).
 */
import { inGroup } from "../contract/deal-process";
import type { DealStatus } from "../contract/deals";
import type { Message } from "../contract/messages";
import type { Db } from "../db/client";
import type { ConversationRow } from "../db/queries/conversations";
import { dealsOfPair } from "../db/queries/deals";
import { findListingRow } from "../db/queries/listings";

export type PayInsideStep = NonNullable<Message["safety_pay_inside"]>;

/** Whether the pair has a deal whose first month was paid through CampusNest (the shield's `firstMonthPaid`). */
export async function firstMonthPaid(db: Db, conversation: Pick<ConversationRow, "userA" | "userB">): Promise<boolean> {
  return (await dealsOfPair(db, conversation.userA, conversation.userB)).some((d) => inGroup("taken", d.status));
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
  if (deals.some((d) => d.renter_id === viewerId && inGroup("taken", d.status))) return null;
  const open = deals.find((d) => inGroup("openUnpaid", d.status));
  if (open) return open.renter_id === viewerId ? { step: STEP_OF[open.status]!, deal_id: open.id, listing_id: open.listing_id } : null;
  if (!conversation.listingId) return null;
  const listing = await findListingRow(db, conversation.listingId);
  return listing && listing.user_id !== viewerId ? { step: "request", deal_id: null, listing_id: conversation.listingId } : null;
}

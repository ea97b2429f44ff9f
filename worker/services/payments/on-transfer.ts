/**
 * `transfer.created`, `.updated`, `.reversed` (docs/decisions/029, 035): what a transfer of the deal's
 * group holds, recorded. Our own transfers are recorded by their settle already (a late event changes
 * nothing); a reversal made from Stripe's dashboard counts (and is never paid again). With keys, an
 * unknown transfer of the group is read whole from Stripe (the group's totals); a lister found holding
 * beyond their share is reconciled.
 */
import type { DealSet } from "../../db/queries/deals";
import { listerShare, netTransferred, refundedOf } from "./amounts";
import type { Handler } from "./apply-event";
import type { DealEventFacts } from "./events";
import { holdings, usesStripe } from "./move";
import { reconcile } from "./settle-due";

type TransferFacts = Extract<DealEventFacts, { kind: "transfer" }>;

export const onTransfer: Handler<TransferFacts> = async (d, f, _now, io) => {
  let set: DealSet | null = null;
  if (usesStripe(io.config) && d.payment_intent_id) {
    const held = await holdings(io.config, d);
    const gross = held.transfers.reduce((s, t) => s + t.amount, 0);
    const reversed = held.transfers.reduce((s, t) => s + t.reversed, 0);
    if (gross !== d.transferred_cents || reversed !== d.transfer_reversed_cents) set = { transferred_cents: gross, transfer_reversed_cents: reversed, transfer_id: held.transfers[0]?.id ?? d.transfer_id };
  } else if (d.transfer_id === f.transferId) {
    if (f.amountReversed > d.transfer_reversed_cents) set = { transfer_reversed_cents: f.amountReversed };
  } else if (!d.transfer_id) {
    set = { transfer_id: f.transferId, transferred_cents: Math.max(d.transferred_cents, f.amount), transfer_reversed_cents: Math.max(d.transfer_reversed_cents, f.amountReversed) };
  }
  if (!set) return null;
  return {
    name: "transfer_recorded",
    plan: { set },
    follow: async (db, fx, after, nowMs) => {
      if (netTransferred(after) > listerShare(after, refundedOf(after))) await reconcile(db, fx, after, nowMs);
    },
  };
};

/**
 * Staff decide a case (docs/decisions/029, 035): `refund_cents` 0 releases everything still owed, the
 * total refunds everything, between (up to the rent): that much back and the rest of the rent to the
 * lister. A refund above the rent but below the total is refused: the fee goes back only with a full
 * refund. What already went back stays back (the decision is never below it). One claimed money move,
 * audited in its own batch, with a reason both parties read.
 */
import { PAYMENT_MESSAGES as P, type Deal } from "../../contract/deals";
import type { Db } from "../../db/client";
import { auditStatement, eventStatement, type DealRow } from "../../db/queries/deals";
import { validationFailed } from "../../lib/errors";
import { eventBy } from "../deals";
import type { Effects } from "../deals/process";
import { dealFor } from "../deals/view";
import { purgeListingCache } from "../edge-cache";
import { listerShare, refundedOf } from "./amounts";
import { listingBack } from "./cancel-paid";
import { movedFacts, openCase, runMoney, type MoneyOp } from "./claim";

interface ResolveInput {
  refund_cents: number;
  reason: string | null;
  staff: string;
}

const refundOf = (d: DealRow, input: ResolveInput) => Math.max(input.refund_cents, refundedOf(d));

export const RESOLVE: MoneyOp<ResolveInput> = {
  name: "resolve",
  check: (d, input) => {
    if (input.refund_cents > d.paid_cents) throw validationFailed([{ path: "refund_cents", message: P.refundTooHigh(d.paid_cents) }]);
    if (input.refund_cents > d.paid_rent_cents && input.refund_cents < d.paid_cents) throw validationFailed([{ path: "refund_cents", message: P.feeOnlyWithAll(d.paid_rent_cents, d.paid_cents) }]);
  },
  target: (d, input) => {
    const refund = refundOf(d, input);
    return { refundTotal: refund, transfer: refund >= d.paid_cents ? "none" : "rest_of_rent" };
  },
  settle: (d, input, m, { now }) => {
    const refund = refundOf(d, input);
    const all = refund >= d.paid_cents;
    // A cancelled deal whose transfer was refused stays cancelled; the rest of its rent is released.
    const status = all ? "refunded" : d.status === "cancelled" ? "cancelled" : "released";
    return {
      set: {
        ...movedFacts(d, m),
        status,
        payment_status: all ? "refunded" : m.transferRefused ? "release_failed" : "released",
        case_reason: m.transferRefused ? "release_failed" : null,
        refund_due_cents: refund,
        released_at: all || m.transferRefused ? d.released_at : now,
        decision_by: "staff",
        decision_reason: input.reason,
        decided_at: now,
      },
      statements: [
        ...(all ? listingBack(d, now) : []),
        eventStatement(d.id, { type: "resolved", ...eventBy("staff", null, now), details: { refund_cents: refund, transfer_cents: all ? 0 : listerShare(d, refund), staff: input.staff, reason: input.reason } }),
        auditStatement(d.id, input.staff, "deal_resolve", { refund_cents: refund, ...(input.reason && { reason: input.reason }) }),
      ],
      noticeFacts: { reason: input.reason, refundCents: refund, transferCents: all ? 0 : listerShare(d, refund) },
    };
  },
  after: async (db, fx, d, m) => {
    if (m.transferRefused) openCase(db, fx, d, "release_failed");
    if (d.listing_id) await purgeListingCache([d.listing_id], db);
  },
};

/** `POST admin/deals/{id}/resolve {refund_cents, reason?}`: the deal as staff read it after. */
export async function resolveCase(db: Db, fx: Effects, staff: string, id: string, refundCents: number, reason: string | null = null, nowMs = Date.now()): Promise<Deal> {
  const after = await runMoney(db, fx, id, RESOLVE, { role: "staff", id: staff }, { refund_cents: refundCents, reason, staff }, nowMs);
  return dealFor(db, fx.config, after, "staff", nowMs);
}

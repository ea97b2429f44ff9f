/**
 * The Deal object (api-contract "Deals" and "The deal's process, declared"), as one viewer reads it: the
 * deal's facts, what the viewer may do now (`actions`) and whose step it is (`waiting_for`), both from
 * the declared process, and the problem with each party's statement.
 */
import { publicAddress } from "../../contract/address";
import { actionsFor, inGroup, waitingFor, type Actor } from "../../contract/deal-process";
import { consentSettled, DEAL_TIMING, type Deal } from "../../contract/deals";
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { statementsOfDeals, type DealStatementRow } from "../../db/queries/deal-payments";
import type { DealRow } from "../../db/queries/deals";
import { dealAmounts, listerShare, netTransferred, refundedOf } from "../payments/amounts";

type Problem = NonNullable<Deal["problem"]>;

const parsePhotos = (json: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
};

/** The deal's problem (the report and each party's statement) from its statement rows. */
function problemOf(d: DealRow, rows: DealStatementRow[]): Problem | null {
  if (!d.problem_kind) return null;
  const report = rows.find((r) => r.report);
  return {
    kind: d.problem_kind as Problem["kind"],
    text: report?.text ?? "",
    photos: report ? parsePhotos(report.photos) : [],
    created_at: report?.at ?? d.problem_opened_at ?? d.updated_at,
    statements: rows.filter((r) => !r.report).map((r) => ({ author_id: r.author_id, text: r.text, photos: parsePhotos(r.photos), created_at: r.at })),
  };
}

/** The problems of these deals (one read for a page). */
export async function problemsOf(db: Db, deals: DealRow[]): Promise<Map<string, Problem | null>> {
  const withProblem = deals.filter((d) => d.problem_kind).map((d) => d.id);
  const rows = await statementsOfDeals(db, withProblem);
  return new Map(deals.map((d) => [d.id, problemOf(d, rows.filter((r) => r.deal_id === d.id))]));
}

/** The landlord's decline counts for 180 days. */
const currentDecline = (d: DealRow, nowMs: number) =>
  d.landlord_declined_at && nowMs - Date.parse(d.landlord_declined_at) < DEAL_TIMING.landlordDeclineHoldsMs ? d.landlord_declined_at : null;

/** The deal as `viewer` reads it at `nowMs`. */
export function toDeal(d: DealRow, config: Config, viewer: Actor, nowMs: number, problem: Problem | null): Deal {
  const pay = dealAmounts(d, config);
  const full = d.address ?? d.listing_address ?? "";
  const paid = d.payment_status !== "none";
  const facts = { ...d, landlord_declined_at: currentDecline(d, nowMs) };
  const refunded = refundedOf(d);
  return {
    id: d.id,
    listing_id: d.listing_id,
    listing_title: d.listing_title,
    renter: { id: d.renter_id, first_name: d.renter_first_name ?? "Deleted", last_name: d.renter_last_name ?? "user" },
    lister: { id: d.lister_id, first_name: d.lister_first_name ?? "Deleted", last_name: d.lister_last_name ?? "user" },
    move_in: d.move_in,
    move_out: d.move_out,
    monthly_rent: d.monthly_rent,
    address: inGroup("fullAddress", d.status) && d.address ? d.address : publicAddress(full),
    status: d.status,
    status_reason: d.status_reason,
    created_at: d.created_at,
    updated_at: d.updated_at,
    agreement:
      d.agreement_version > 0 && d.agreement_sha256
        ? { version: d.agreement_version, sha256: d.agreement_sha256, renter_signed_at: d.renter_signed_at, lister_signed_at: d.lister_signed_at }
        : null,
    landlord_consent: { status: d.landlord_consent },
    // Before payment, the amounts the first payment will be; after it, what was paid (docs/decisions/029).
    payment: {
      status: d.payment_status,
      rent_cents: paid ? d.paid_rent_cents : pay.rent_cents,
      fee_cents: paid ? d.paid_cents - d.paid_rent_cents : pay.fee_cents,
      total_cents: paid ? d.paid_cents : pay.total_cents,
      currency: "usd",
      held_until: d.held_until,
      released_at: d.released_at,
      refunded_cents: refunded,
      transferred_cents: Math.max(0, netTransferred(d)),
      paid_at: d.paid_at,
      reference: paid ? d.payment_intent_id : null,
      fee_percent: d.fee_percent ?? config.dealFeePercent,
      payable: d.status === "signed" && consentSettled(d.landlord_consent) && d.lister_payout_status === "ready",
      waiting_for: d.status === "signed" && d.lister_payout_status !== "ready" ? "lister_payouts" : null,
    },
    actions: actionsFor(facts, viewer, nowMs),
    waiting_for: waitingFor(facts, viewer, nowMs),
    cancellation: d.cancel_requested_at && d.cancel_decide_by ? { requested_at: d.cancel_requested_at, decide_by: d.cancel_decide_by } : null,
    problem,
    lease: d.lease_url && d.lease_attached_at ? { url: d.lease_url, attached_at: d.lease_attached_at } : null,
    case_reason: d.case_reason,
    moved_in_at: d.moved_in_at,
    decision:
      d.decision_by && d.decided_at
        ? { by: d.decision_by, refund_cents: refunded, transfer_cents: d.paid_cents ? listerShare(d, refunded) : 0, reason: d.decision_reason, at: d.decided_at }
        : null,
  };
}

/** Each party's own view of the deal (the room sends both; each client shows its own). */
export async function dealViews(db: Db, config: Config, d: DealRow, nowMs = Date.now()): Promise<Record<string, Deal>> {
  const problem = (await problemsOf(db, [d])).get(d.id) ?? null;
  return { [d.renter_id]: toDeal(d, config, "renter", nowMs, problem), [d.lister_id]: toDeal(d, config, "lister", nowMs, problem) };
}

/** One deal as `viewer` reads it now (the problem read with it). */
export async function dealFor(db: Db, config: Config, d: DealRow, viewer: Actor, nowMs = Date.now()): Promise<Deal> {
  return toDeal(d, config, viewer, nowMs, (await problemsOf(db, [d])).get(d.id) ?? null);
}

import { actionsFor, waitingFor, type Actor, type DealFacts } from "@contract/deal-process";
import type { Deal } from "@contract/deals";
import type { Message } from "@contract/messages";
import { makeUser } from "../render";

export const RENTER = { id: "renter-1", first_name: "Maya", last_name: "Lopez" };
export const LISTER = { id: "lister-1", first_name: "Jordan", last_name: "Kim" };

/** The facts the declared process reads, as a Deal shows them (both parties verified, payouts ready unless the deal says otherwise). */
const factsOf = (d: Deal): DealFacts => ({
  status: d.status,
  payment_status: d.payment.status,
  landlord_consent: d.landlord_consent.status,
  renter_signed_at: d.agreement?.renter_signed_at ?? null,
  lister_signed_at: d.agreement?.lister_signed_at ?? null,
  expires_at: null,
  move_in: d.move_in,
  time_zone: "America/New_York",
  paid_at: d.payment.paid_at,
  held_until: d.payment.held_until,
  cancel_decide_by: d.cancellation?.decide_by ?? null,
  dispute_status: null,
  case_reason: d.case_reason,
  claim_id: null,
  lister_payout_status: d.payment.waiting_for === "lister_payouts" ? "pending" : "ready",
  renter_verified: 1,
  lister_verified: 1,
  renter_stated: d.problem?.statements.some((x) => x.author_id === d.renter.id) ? 1 : 0,
  lister_stated: d.problem?.statements.some((x) => x.author_id === d.lister.id) ? 1 : 0,
  landlord_declined_at: null,
  renter_first_name: d.renter.first_name,
  lister_first_name: d.lister.first_name,
  move_out: d.move_out,
  // The reviews' and condition reports' facts (docs/decisions/040) are not on the Deal: none here.
  review_window_ends_at: null,
  reviews_revealed_at: null,
  renter_reviewed_at: null,
  lister_reviewed_at: null,
  renter_replied_at: null,
  lister_replied_at: null,
  review_invite_due_at: null,
  review_reminder_due_at: null,
  review_reveal_due_at: null,
  move_in_report_at: null,
  move_out_report_at: null,
  move_in_comment_at: null,
  move_out_comment_at: null,
});

/**
 * The deal as `as` reads it: its `actions` and `waiting_for` are what the server computes from the declared
 * process for that viewer at `now` (the contract's own functions), unless a test sets them.
 */
export const viewedBy = (deal: Deal, as: Actor, now = Date.now(), keep: Partial<Pick<Deal, "actions" | "waiting_for">> = {}): Deal => ({
  ...deal,
  actions: keep.actions ?? actionsFor(factsOf(deal), as, now),
  waiting_for: keep.waiting_for ?? waitingFor(factsOf(deal), as, now),
});

/** A deal between RENTER and LISTER, `requested` unless overridden, as the renter reads it (viewedBy for another viewer). */
export function makeDeal(overrides: Partial<Deal> = {}): Deal {
  return viewedBy(base(overrides), "renter", Date.now(), overrides);
}

function base(overrides: Partial<Deal>): Deal {
  return {
    id: "d1",
    listing_id: "l1",
    listing_title: "Sunny 2x2 near campus",
    renter: RENTER,
    lister: LISTER,
    move_in: "2027-06-01",
    move_out: "2027-08-15",
    monthly_rent: 850,
    address: "Bleecker St, New York, NY 10003",
    status: "requested",
    status_reason: null,
    created_at: "2026-11-20T15:00:00.000Z",
    updated_at: "2026-11-20T15:00:00.000Z",
    agreement: null,
    landlord_consent: { status: "none" },
    payment: {
      status: "none",
      rent_cents: 85000,
      fee_cents: 4250,
      total_cents: 89250,
      currency: "usd",
      held_until: null,
      released_at: null,
      refunded_cents: 0,
      transferred_cents: 0,
      paid_at: null,
      reference: null,
      fee_percent: 5,
      payable: false,
      waiting_for: null,
    },
    // What the viewer may do and whose step it is are the server's (docs/decisions/035): a test says them.
    actions: [],
    waiting_for: { party: "lister", step: "accept", detail: "Waiting for Jordan to accept or decline (a request is open for 72 hours)." },
    cancellation: null,
    problem: null,
    lease: null,
    case_reason: null,
    moved_in_at: null,
    decision: null,
    ...overrides,
  };
}

/** An accepted deal with its agreement drafted. */
export const acceptedDeal = (overrides: Partial<Deal> = {}) =>
  makeDeal({
    status: "accepted",
    address: "12 Bleecker St, Apt 4B, New York, NY 10003",
    agreement: { version: 1, sha256: "a".repeat(64), renter_signed_at: null, lister_signed_at: null },
    ...overrides,
  });

export const sessionOf = (party: { id: string; first_name: string; last_name: string }) => ({
  token: `token-${party.id}`,
  user: makeUser({ id: party.id, first_name: party.first_name, last_name: party.last_name, id_verification_status: "verified" }),
});

/** The request's message in the pair's conversation. */
export const dealMessage = (overrides: Partial<Message> = {}): Message => ({
  id: "m-deal",
  sender_id: RENTER.id,
  text: "Request to sublease: Jun 1 - Aug 15",
  timestamp: "2026-11-20T15:00:00.000Z",
  is_read: true,
  conversation_id: "c1",
  safety_notice: false,
  kind: "deal",
  deal_id: "d1",
  ...overrides,
});

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** A signed deal (both signatures, consent settled), payable unless overridden. */
export const signedDeal = (overrides: Partial<Deal> = {}, payment: Partial<Deal["payment"]> = {}) =>
  acceptedDeal({
    status: "signed",
    landlord_consent: { status: "not_needed" },
    agreement: { version: 1, sha256: "a".repeat(64), renter_signed_at: "2026-11-21T10:00:00.000Z", lister_signed_at: "2026-11-21T11:00:00.000Z" },
    payment: { ...makeDeal().payment, payable: true, ...payment },
    ...overrides,
  });

/** Release time of a deal moving in on 2027-06-01 (New York): midnight there plus 48 hours. */
export const HELD_UNTIL = "2027-06-03T04:00:00.000Z";

/** A paid deal whose money is held, paid on Nov 25 2026. */
export const paidDeal = (overrides: Partial<Deal> = {}, payment: Partial<Deal["payment"]> = {}) =>
  signedDeal({ status: "paid", ...overrides }, { status: "held", payable: false, paid_at: "2026-11-25T14:30:00.000Z", held_until: HELD_UNTIL, reference: "pi_3PaidDeal", ...payment });

export const page = (data: Deal[]) => ({ data, pagination: { next_token: null, has_more: false } });

/** The deal page's status line (whose step it is). */
export const statusLine = () => document.querySelector<HTMLElement>(".deal-page .deal-next")!;

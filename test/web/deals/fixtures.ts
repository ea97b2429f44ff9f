import type { Deal } from "@contract/deals";
import type { Message } from "@contract/messages";
import { makeUser } from "../render";

export const RENTER = { id: "renter-1", first_name: "Maya", last_name: "Lopez" };
export const LISTER = { id: "lister-1", first_name: "Jordan", last_name: "Kim" };

/** A deal between RENTER and LISTER, `requested` unless overridden. */
export function makeDeal(overrides: Partial<Deal> = {}): Deal {
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
    payment: { status: "none", rent_cents: 85000, fee_cents: 4250, total_cents: 89250, currency: "usd", held_until: null, released_at: null, refunded_cents: 0 },
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

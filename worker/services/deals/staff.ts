/**
 * Staff's view of deals (docs/decisions/026, 029, 035): every deal, and one with all its events, whole
 * addresses, a case's statements, the pair's conversation, and the listing's landlord decline (a flag).
 */
import type { AdminDealResponse, Deal } from "../../contract/deals";
import type { Pagination } from "../../contract/listings";
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { allDeals, eventsOfDeal, findDeal, type DealCursor } from "../../db/queries/deals";
import { conversationMessages } from "../../db/queries/deal-payments";
import { keysetPage } from "../../lib/cursor";
import { notFound } from "../../lib/errors";
import { dealFor, problemsOf, toDeal } from "./view";

export async function staffDeals(db: Db, config: Config, status: string | null, limit: number, cursor: DealCursor | null, nowMs = Date.now()): Promise<{ data: Deal[]; pagination: Pagination }> {
  const rows = await allDeals(db, status, limit, cursor);
  const { items, pagination } = keysetPage(rows, limit, (last) => ({ created_at: last.created_at, id: last.id }));
  const problems = await problemsOf(db, items);
  return { data: items.map((d) => toDeal(d, config, "staff", nowMs, problems.get(d.id) ?? null)), pagination };
}

export async function staffDeal(db: Db, config: Config, id: string, nowMs = Date.now()): Promise<AdminDealResponse["data"]> {
  const d = await findDeal(db, id);
  if (!d) throw notFound("Deal not found");
  const [deal, events, messages] = await Promise.all([dealFor(db, config, d, "staff", nowMs), eventsOfDeal(db, id), d.conversation_id ? conversationMessages(db, d.conversation_id) : Promise.resolve([])]);
  const party = (authorId: string) => (authorId === d.renter_id ? "renter" : "lister") as "renter" | "lister";
  return {
    ...deal,
    // Staff see the full address whatever the state.
    address: d.address ?? d.listing_address ?? "",
    pdf_sha256: d.pdf_sha256,
    statements: deal.problem
      ? [
          { party: "renter", author_id: d.renter_id, text: deal.problem.text, photos: deal.problem.photos, at: deal.problem.created_at },
          ...deal.problem.statements.map((s) => ({ party: party(s.author_id), author_id: s.author_id, text: s.text, photos: s.photos, at: s.created_at })),
        ]
      : [],
    messages,
    stripe: { payment_intent: d.payment_intent_id, charge: d.charge_id, transfer: d.transfer_id, dispute: d.dispute_id },
    listing_flag: d.landlord_declined_at && d.landlord_declined_email ? { landlord_declined_at: d.landlord_declined_at, landlord_email: d.landlord_declined_email } : null,
    events: events.map((e) => ({
      type: e.type,
      actor_id: e.actor_id,
      actor_role: e.actor_role,
      at: e.at,
      ip: e.ip,
      user_agent: e.user_agent,
      agreement_version: e.agreement_version,
      document_sha256: e.document_sha256,
      details: e.details ? (JSON.parse(e.details) as unknown) : null,
    })),
  };
}

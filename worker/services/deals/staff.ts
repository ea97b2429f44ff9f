/** Staff's view of deals (docs/decisions/026): every deal, and one with all its events and whole addresses. */
import type { AdminDealResponse, Deal } from "../../contract/deals";
import type { Pagination } from "../../contract/listings";
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import { allDeals, eventsOfDeal, findDeal, type DealCursor } from "../../db/queries/deals";
import { keysetPage } from "../../lib/cursor";
import { notFound } from "../../lib/errors";
import { toDeal } from "./index";

export async function staffDeals(db: Db, config: Config, status: string | null, limit: number, cursor: DealCursor | null): Promise<{ data: Deal[]; pagination: Pagination }> {
  const rows = await allDeals(db, status, limit, cursor);
  const { items, pagination } = keysetPage(rows, limit, (last) => ({ created_at: last.created_at, id: last.id }));
  return { data: items.map((d) => toDeal(d, config)), pagination };
}

export async function staffDeal(db: Db, config: Config, id: string): Promise<AdminDealResponse["data"]> {
  const d = await findDeal(db, id);
  if (!d) throw notFound("Deal not found");
  const events = await eventsOfDeal(db, id);
  return {
    ...toDeal(d, config),
    // Staff see the full address whatever the state.
    address: d.address ?? d.listing_address ?? "",
    pdf_sha256: d.pdf_sha256,
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

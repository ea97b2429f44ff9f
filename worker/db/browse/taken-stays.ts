/**
 * A listing's paid stays in browse (docs/decisions/039): the stays of its `taken` deals (the declared group, docs/decisions/035), the listing page's
 * `taken_stays`. With a stay needed, browse leaves out a listing whose paid stay overlaps it (the filter's
 * clause, in filters.ts); every page carries its listings' paid stays, so a card shows the dates still free.
 */
import { DEAL_GROUP_SQL } from "../../contract/deal-process";
import type { TakenStay } from "../../contract/listings";

const TAKEN_SQL = DEAL_GROUP_SQL.taken;

/**
 * None of the listing's paid stays overlaps the stay needed (two stays overlap when each starts before the
 * other ends: a move-out day is free for the next move-in). A row check per candidate, never a walk: its
 * probe seeks `deals_listing_idx` by the listing alone, which reads no row for a listing without deals
 * (the status and dates, written `+`, are checked on the few rows of one that has some: a seek by status
 * too read a row per listing, one per empty seek). Its correlated subquery would cost every stay cell's arm
 * about 40 opcodes (decision 021's budget), so the cells' statement checks it once, after the merge
 * (`AFTER_MERGE` in filters.ts). Binds: the stay's last day, then its first.
 */
export const NO_TAKEN_STAY_SQL = `NOT EXISTS (SELECT 1 FROM deals d WHERE d.listing_id = l.id AND +d.status IN (${TAKEN_SQL}) AND +d.move_in < ? AND d.move_out > ?)`;

/**
 * The listing's paid stays as one column of browse's statement, `"2027-10-01 2027-11-01,..."` or null: a
 * subquery in the select list, computed only for the rows a page returns (never copied into the cells'
 * arms), seeking by the listing alone as the filter does, so a listing without deals costs no row read.
 * (A second statement with `listing_id IN (...)` read a row per id.) `takenStaysOfColumn` reads it back.
 */
export const TAKEN_STAYS_COLUMN = `(SELECT group_concat(d.move_in || ' ' || d.move_out, ',') FROM deals d WHERE d.listing_id = l.id AND +d.status IN (${TAKEN_SQL})) AS taken_stays_list`;

/** The stays of TAKEN_STAYS_COLUMN, oldest first. */
export function takenStaysOfColumn(list: string | null | undefined): TakenStay[] {
  if (!list) return [];
  return list
    .split(",")
    .map((pair) => {
      const [move_in = "", move_out = ""] = pair.split(" ");
      return { move_in, move_out };
    })
    .sort((a, b) => a.move_in.localeCompare(b.move_in) || a.move_out.localeCompare(b.move_out));
}

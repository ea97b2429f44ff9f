/**
 * A problem while the money is held, and each party's statement (docs/decisions/029, 035): the renter's
 * report makes the deal `disputed` (a staff case; nothing is released); the report, its photos and each
 * party's one statement are read by both parties and staff (the Deal's `problem`).
 */
import type { Deal, DealStatement } from "../../contract/deals";
import type { Db } from "../../db/client";
import { reportInsert, statementInsert } from "../../db/queries/deal-payments";
import { eventStatement } from "../../db/queries/deals";
import type { UserRow } from "../../db/queries/users";
import { isoNow } from "../../lib/time";
import { answerFor, eventBy, partyDeal, transition, type RequestMeta } from "../deals";
import type { Effects } from "../deals/process";
import { openCase } from "./claim";

export async function reportProblem(db: Db, fx: Effects, user: UserRow, id: string, input: { kind: string; text: string; photos: string[] }, meta: RequestMeta, nowMs = Date.now()): Promise<Deal> {
  const now = isoNow(nowMs);
  const { after } = await transition(
    db,
    fx,
    id,
    "problem",
    { user: user.id },
    (d) => ({
      set: { status: "disputed", payment_status: "disputed", case_reason: "problem", problem_kind: input.kind, problem_opened_at: now },
      statements: [reportInsert(d.id, { party: "renter", author_id: user.id, text: input.text, photos: input.photos, at: now }), eventStatement(d.id, { type: "problem_reported", ...eventBy("renter", user.id, now, meta), details: { kind: input.kind } })],
    }),
    nowMs,
  );
  openCase(db, fx, after, "problem");
  return answerFor(db, fx, after, user.id, nowMs);
}

/** A party's one statement of a case. */
export async function addStatement(db: Db, fx: Effects, user: UserRow, id: string, input: { text: string; photos: string[] }, meta: RequestMeta, nowMs = Date.now()): Promise<DealStatement> {
  const { role } = await partyDeal(db, id, user.id);
  const at = isoNow(nowMs);
  await transition(
    db,
    fx,
    id,
    "statement",
    { user: user.id },
    (d) => ({
      set: {},
      statements: [statementInsert(d.id, { party: role, author_id: user.id, text: input.text, photos: input.photos, at }), eventStatement(d.id, { type: "statement_added", ...eventBy(role, user.id, at, meta) })],
    }),
    nowMs,
  );
  return { party: role, author_id: user.id, text: input.text, photos: input.photos, at };
}

/**
 * The release (docs/decisions/029, 035): the rent to the lister's payout account by a transfer, as one
 * claimed money move. "I have the keys" (from the move-in date) records the move-in and sets the release
 * at the later of the tap and 24 hours after payment (never an instant payout); the jobs release every
 * held deal whose time has come. A refused transfer leaves payment `release_failed` and a staff case.
 */
import { heldUntil, type Deal } from "../../contract/deals";
import { primaryOf, type Db } from "../../db/client";
import { eventStatement, findDeal, type DealRow } from "../../db/queries/deals";
import type { UserRow } from "../../db/queries/users";
import { isoNow } from "../../lib/time";
import { answerFor, eventBy, partyDeal, transition, type RequestMeta } from "../deals";
import type { Effects } from "../deals/process";
import { refundedOf } from "./amounts";
import { movedFacts, openCase, runMoney, type MoneyOp, type MoneyOptions } from "./claim";
import { heldByLister } from "./move";

export const RELEASE: MoneyOp<Record<string, never>> = {
  name: "release",
  target: (d) => ({ refundTotal: refundedOf(d), transfer: "rest_of_rent" }),
  settle: (d, _input, m, { now }) =>
    m.transferRefused
      ? {
          set: { ...movedFacts(d, m), payment_status: "release_failed", case_reason: "release_failed" },
          statements: [eventStatement(d.id, { type: "release_failed", ...eventBy("system", null, now), details: { reason: m.transferRefused } })],
          notice: null,
        }
      : {
          set: { ...movedFacts(d, m), status: "released", payment_status: "released", released_at: now, case_reason: null },
          statements: [eventStatement(d.id, { type: "released", ...eventBy("system", null, now), details: { transfer_id: m.transferId, cents: heldByLister(m) } })],
        },
  after: async (db, fx, d, m) => {
    if (m.transferRefused) openCase(db, fx, d, "release_failed");
  },
};

/**
 * Releases a held deal whose time has come (the jobs, and "I have the keys" once due): one claimed move.
 * A deal that cannot be released now (not due, a problem, a cancellation, a claim) is left as it is.
 */
export async function releaseHeld(db: Db, fx: Effects, id: string, nowMs: number, opts: MoneyOptions = {}): Promise<DealRow | null> {
  try {
    return await runMoney(db, fx, id, RELEASE, { role: "system" }, {}, nowMs, opts);
  } catch (err) {
    if ((err as { status?: number }).status === 409) return findDeal(primaryOf(db), id);
    throw err;
  }
}

/**
 * "I have the keys": the move-in is recorded and the release set at the later of now and 24 hours after
 * payment; when that is now, the rent is released in the request.
 */
export async function movedIn(db: Db, fx: Effects, user: UserRow, id: string, meta: RequestMeta, nowMs = Date.now(), opts: MoneyOptions = {}): Promise<Deal> {
  await partyDeal(db, id, user.id);
  const now = isoNow(nowMs);
  const { after } = await transition(
    db,
    fx,
    id,
    "moved_in",
    { user: user.id },
    (d) => {
      const until = heldUntil(d.move_in, d.time_zone, d.paid_at ?? now, nowMs);
      return { set: { status: "moved_in", moved_in_at: now, held_until: until }, statements: [eventStatement(d.id, { type: "moved_in", ...eventBy("renter", user.id, now, meta), details: { held_until: until } })] };
    },
    nowMs,
  );
  const released = after.held_until && Date.parse(after.held_until) <= nowMs ? await releaseHeld(db, fx, id, nowMs, opts) : after;
  return answerFor(db, fx, released ?? after, user.id, nowMs);
}

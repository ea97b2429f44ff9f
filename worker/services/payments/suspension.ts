/**
 * What a lister's suspension and a deletion do to money held (docs/decisions/029): the lister's held deals
 * freeze into staff cases; a listing, or an account on either side, with money held (or a money move in
 * flight) cannot be deleted.
 */
import { PAYMENT_MESSAGES as P } from "../../contract/deals";
import { primaryOf, type Db } from "../../db/client";
import { heldDealsOfLister, moneyHeldFor } from "../../db/queries/deal-payments";
import { eventStatement } from "../../db/queries/deals";
import { conflict } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import { eventBy, transition } from "../deals";
import type { Effects } from "../deals/process";
import { openCase } from "./claim";

/** The lister's suspension freezes every deal holding money for them into a staff case. */
export async function freezeHeldDealsOf(db: Db, fx: Effects, listerId: string, nowMs = Date.now()): Promise<number> {
  const now = isoNow(nowMs);
  let frozen = 0;
  for (const id of await heldDealsOfLister(primaryOf(db), listerId)) {
    try {
      const { after } = await transition(
        db,
        fx,
        id,
        "freeze",
        { role: "system" },
        (d) => ({
          set: { status: "disputed", payment_status: "disputed", case_reason: "suspension" },
          statements: [eventStatement(d.id, { type: "frozen", ...eventBy("system", null, now), details: { reason: "suspension" } })],
        }),
        nowMs,
      );
      frozen++;
      openCase(db, fx, after, "suspension");
    } catch (err) {
      if ((err as { status?: number }).status !== 409) throw err;
    }
  }
  return frozen;
}

/** A listing or account with money held for a deal cannot be deleted (409). */
export async function refuseDeletionWhileMoneyHeld(db: Db, where: { listingId: string } | { userId: string }) {
  if (await moneyHeldFor(primaryOf(db), where)) throw conflict(P.moneyHeld);
}

/** Every money op, by the transition it makes: a dead worker's claim is resumed with its own (claim.ts). */
import type { TransitionName } from "../../contract/deal-process";
import { LISTER_CANCEL, RENTER_CANCEL } from "./cancel-paid";
import type { MoneyOp } from "./claim";
import { CANCELLATION_LAPSE, CANCELLATION_REFUND } from "./decision";
import { RELEASE } from "./release";
import { RESOLVE } from "./resolve";
import { RECONCILE, SETTLE_DUE } from "./settle-due";

export function moneyOp(name: TransitionName): MoneyOp<never> | null {
  const ops: MoneyOp<never>[] = [RELEASE, LISTER_CANCEL, RENTER_CANCEL, CANCELLATION_REFUND, CANCELLATION_LAPSE, RESOLVE, SETTLE_DUE, RECONCILE] as MoneyOp<never>[];
  return ops.find((op) => op.name === name) ?? null;
}

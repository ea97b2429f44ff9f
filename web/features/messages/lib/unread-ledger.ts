/**
 * Which moves of the unread count the cache already shows. The inbox room's `unread` event carries
 * only the new total, not what changed: a change this tab caused or was told about (a message pushed
 * into the open thread, the thread marked read) is already in the conversation list, and refetching
 * the list for it would be a redundant read. Anything else (a message in another conversation, a read
 * on another device) is news the list can only get by a refetch.
 *
 * Expectations expire after EXPECTATION_TTL_MS: an event that never came (a socket that dropped, whose
 * reconnect refetches everything anyway) must not explain away a later, unrelated change.
 */
import type { QueryClient } from "@tanstack/react-query";

export const EXPECTATION_TTL_MS = 5000;

interface Expectation {
  /** +1 for a message pushed to me, -n for n messages I marked read (not yet taken off the badge). */
  delta: number;
  at: number;
}

export interface UnreadLedger {
  /** A message from the other person was pushed into an open thread (each id counted once). */
  expectIncoming(messageId: string): void;
  /** Marking a thread read will take `count` off the server's total that the badge still shows. */
  expectRead(count: number): void;
  /** True when the move from `previous` to `next` is what this tab expected (and so already shows). */
  explain(previous: number | undefined, next: number): boolean;
}

export function createUnreadLedger(now: () => number = Date.now): UnreadLedger {
  let expected: Expectation[] = [];
  const seen = new Map<string, number>();
  const prune = () => {
    const cutoff = now() - EXPECTATION_TTL_MS;
    expected = expected.filter((e) => e.at > cutoff);
    for (const [id, at] of seen) if (at <= cutoff) seen.delete(id);
  };
  /** Takes `amount` (same sign as the entries kept) from the oldest expectations of that sign. */
  const consume = (sign: 1 | -1, amount: number): boolean => {
    const same = expected.filter((e) => Math.sign(e.delta) === sign);
    const available = same.reduce((sum, e) => sum + Math.abs(e.delta), 0);
    if (amount > available) {
      // Something else moved the count too: the list must be refetched, and these are spent.
      expected = expected.filter((e) => Math.sign(e.delta) !== sign);
      return false;
    }
    let left = amount;
    for (const e of same) {
      const take = Math.min(left, Math.abs(e.delta));
      e.delta -= sign * take;
      left -= take;
    }
    expected = expected.filter((e) => e.delta !== 0);
    return true;
  };
  return {
    expectIncoming(messageId) {
      prune();
      if (seen.has(messageId)) return;
      seen.set(messageId, now());
      expected.push({ delta: 1, at: now() });
    },
    expectRead(count) {
      prune();
      if (count > 0) expected.push({ delta: -count, at: now() });
    },
    explain(previous, next) {
      prune();
      if (previous === undefined) return false;
      const delta = next - previous;
      if (delta === 0) return true;
      return delta > 0 ? consume(1, delta) : consume(-1, -delta);
    },
  };
}

/** One ledger per query cache (per app; each test's app has its own). */
const ledgers = new WeakMap<QueryClient, UnreadLedger>();
export function unreadLedgerOf(queryClient: QueryClient): UnreadLedger {
  let ledger = ledgers.get(queryClient);
  if (!ledger) ledgers.set(queryClient, (ledger = createUnreadLedger()));
  return ledger;
}

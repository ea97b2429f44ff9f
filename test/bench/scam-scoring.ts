/**
 * Scoring the scam shield on a labelled corpus: by reason (test/fixtures/scam-corpus.json and the
 * held-out one) and by kind (the tuning and blind corpora). Used by the worker tests and by
 * `npm run bench` (scam-shield.mjs bundles this file with the shield), never by the worker itself, so it
 * lives here rather than in the worker's bundle.
 */
import type { ScamReason } from "../../worker/contract/safety";
import { scanMessage } from "../../worker/services/scam-shield";

export interface CorpusCase {
  text: string;
  reasons: ScamReason[];
  /** A phrasing built to look like fraud that is not (it must come out clean). */
  trap?: boolean;
}

export interface CorpusScore {
  n: number;
  /** Over (message, reason) pairs: right flags / all flags. */
  precision: number;
  /** Over (message, reason) pairs: right flags / all expected flags. */
  recall: number;
  /** Message level: flagged at all vs expected to be. */
  messagePrecision: number;
  messageRecall: number;
  /** Cases whose reasons differ from the label. */
  misses: { text: string; expected: ScamReason[]; got: ScamReason[] }[];
}

export function scoreCorpus(cases: CorpusCase[]): CorpusScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let mtp = 0;
  let mfp = 0;
  let mfn = 0;
  const misses: CorpusScore["misses"] = [];
  for (const c of cases) {
    const got = scanMessage(c.text);
    const expected = new Set(c.reasons);
    for (const r of got) {
      if (expected.has(r)) tp++;
      else fp++;
    }
    for (const r of expected) if (!got.includes(r)) fn++;
    if (got.length > 0 && expected.size > 0) mtp++;
    else if (got.length > 0) mfp++;
    else if (expected.size > 0) mfn++;
    if (got.length !== expected.size || got.some((r) => !expected.has(r))) misses.push({ text: c.text, expected: [...c.reasons], got });
  }
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return {
    n: cases.length,
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    messagePrecision: ratio(mtp, mtp + mfp),
    messageRecall: ratio(mtp, mtp + mfn),
    misses,
  };
}

/** A message of a corpus labelled by kind: scam or honest, and which kind of either. */
export interface KindCase {
  text: string;
  scam: boolean;
  kind: string;
}

export interface KindScore {
  n: number;
  /** Message level: flagged at all vs a scam. */
  precision: number;
  recall: number;
  /** Per kind: how many of its messages were flagged (a scam kind wants all, an honest kind none). */
  byKind: Record<string, { n: number; flagged: number; scam: boolean }>;
  /** Microseconds per message, the scan alone. */
  microsPerMessage: number;
}

export function scoreKinds(cases: KindCase[], now: () => number = () => performance.now(), scan: (text: string) => ScamReason[] = scanMessage): KindScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const byKind: KindScore["byKind"] = {};
  const start = now();
  const flags = cases.map((c) => scan(c.text).length > 0);
  const micros = ((now() - start) * 1000) / Math.max(1, cases.length);
  cases.forEach((c, i) => {
    const flagged = flags[i]!;
    const kind = (byKind[c.kind] ??= { n: 0, flagged: 0, scam: c.scam });
    kind.n++;
    if (flagged) kind.flagged++;
    if (flagged && c.scam) tp++;
    else if (flagged) fp++;
    else if (c.scam) fn++;
  });
  const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
  return { n: cases.length, precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), byKind, microsPerMessage: micros };
}

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

/**
 * The concrete risks a flag may point at (docs/decisions/015, written before tuning on real messages):
 * money or documents asked for or offered outside CampusNest, a link to a page that is not ours, a
 * contact moved off the platform, an owner-away or overpayment story with money in it. A scam message
 * with none of them is an opener: the shield leaves it alone and catches the ask when it comes.
 */
export const RED_FLAGS = ["money", "documents", "link", "contact", "away_with_money", "overpayment"] as const;
export type RedFlag = (typeof RED_FLAGS)[number];

/** A message quoted from a public source: honest or a scam, and for a scam its red flag (null: an opener). */
export interface RealCase {
  text: string;
  scam: boolean;
  red_flag: RedFlag | null;
  source: { url?: string; title?: string; publisher?: string; licence?: string };
}

export interface RealScore {
  honest: number;
  scams: number;
  /** Honest messages flagged / honest messages (goal: at most 0.02). */
  falseFlagRate: number;
  /** Scams with a red flag in the message that were flagged / those scams (goal: at least 0.9). */
  redFlagRecall: number;
  redFlagScams: number;
  /** Openers (scams with no red flag) flagged: neither a goal nor a fault, shown to be read. */
  openersFlagged: number;
  openers: number;
  falseFlags: { text: string; got: ScamReason[] }[];
  missed: { text: string; red_flag: RedFlag }[];
}

export function scoreReal(cases: readonly RealCase[], scan: (text: string) => ScamReason[] = scanMessage): RealScore {
  const honest = cases.filter((c) => !c.scam);
  const flagged = cases.filter((c) => c.scam && c.red_flag !== null);
  const openers = cases.filter((c) => c.scam && c.red_flag === null);
  const falseFlags = honest.map((c) => ({ text: c.text, got: scan(c.text) })).filter((x) => x.got.length > 0);
  const missed = flagged.filter((c) => scan(c.text).length === 0).map((c) => ({ text: c.text, red_flag: c.red_flag! }));
  const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
  return {
    honest: honest.length,
    scams: cases.length - honest.length,
    falseFlagRate: ratio(falseFlags.length, honest.length),
    redFlagRecall: flagged.length === 0 ? 1 : 1 - missed.length / flagged.length,
    redFlagScams: flagged.length,
    openersFlagged: openers.filter((c) => scan(c.text).length > 0).length,
    openers: openers.length,
    falseFlags,
    missed,
  };
}

/**
 * Which part of a real corpus a message belongs to, fixed by its text alone before any score was read
 * (FNV-1a of the text, odd: held out), so nobody can move a message to the part that suits the figures.
 */
export function realPart(text: string): "tuning" | "holdout" {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h % 2 === 1 ? "holdout" : "tuning";
}

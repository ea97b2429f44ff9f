/**
 * Scoring the scam shield on a labelled corpus: by reason (test/fixtures/scam-corpus.json and the
 * held-out one) and by kind (the tuning and blind corpora). Used by the worker tests and by
 * `npm run bench` (scam-shield.mjs bundles this file with the shield), never by the worker itself, so it
 * lives here rather than in the worker's bundle.
 */
import { LIMITS } from "../../worker/contract/limits";
import { SCAM_REASONS, type ScamReason } from "../../worker/contract/safety";
import { scanMessage, shieldVerdict } from "../../worker/services/scam-shield";

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
 * The red-flag kinds every set is reported by (docs/decisions/015): a scam message carries one or more in
 * its own text; a scam message with none is an opener (left alone, caught when the ask comes).
 */
export const RED_FLAG_KINDS = ["payment", "overpayment", "away", "link", "urgency_hold", "identity", "contact"] as const;
export type RedFlagKind = (typeof RED_FLAG_KINDS)[number];
export const RED_FLAG_KIND_LABELS: Record<RedFlagKind, string> = {
  payment: "off-platform payment",
  overpayment: "overpayment and cheques",
  away: "owner abroad",
  link: "links",
  urgency_hold: "urgency and holds",
  identity: "ID requests",
  contact: "contact off the platform",
};

/** The red-flag kind of each scam kind of the corpora labelled by kind (scam-corpus-tuning.json, -blind.json). */
export const RED_FLAG_OF_CORPUS_KIND: Record<string, RedFlagKind> = {
  payment_off_platform: "payment",
  overpayment_refund: "overpayment",
  owner_away: "away",
  lookalike_link: "link",
  deposit_to_hold: "urgency_hold",
  urgency_pressure: "urgency_hold",
  identity_request: "identity",
  moving_chat_elsewhere: "contact",
  disguised_contact: "contact",
};

/** The red-flag kind of each reason, for the corpora labelled by reason (scam-corpus.json, -holdout.json). */
export const RED_FLAG_OF_REASON: Record<ScamReason, RedFlagKind> = {
  off_platform_payment: "payment",
  pay_before_viewing: "urgency_hold",
  owner_unavailable: "away",
  moves_off_platform: "contact",
  identity_request: "identity",
  suspicious_link: "link",
  early_move_in: "payment",
};

/**
 * The red-flag kinds in a text that carries no label of its own (the SMS smishing and spam of the shared
 * data, a proxy for red-flag wording). Written before any tuning on that data and independent of the
 * shield's rules on purpose: a label the shield wrote for itself would measure nothing. Broad by design:
 * it tags the wording a person would call a red flag, so a shield that reads context can miss some.
 */
const TAGS: Record<RedFlagKind, RegExp> = {
  link: /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|net|org|co\.uk|co|uk|info|biz|ly|gl|xyz|me|io|tk|ws|mobi|tv|cc|us|in)\b(?:\/\S*)?/i,
  contact:
    /(?<!\d)(?:\+?\d[\s.-]?)?\(?\d{3,5}\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}(?!\d)|\b[\w.+-]+@[\w-]+\.[\w.]+\b|\b(?:whats ?app|telegram|signal|wechat|viber|kik|snapchat)\b|\b(?:call|text|txt|ring|email|e-mail|contact|reach|message|msg|dm) (?:me |us )?(?:at|on|now|back|direct|directly)\b/i,
  payment:
    /\b(?:western union|money ?gram|money order|wire transfer|bank transfer|gift ?cards?|itunes cards?|bitcoin|crypto|paypal|venmo|zelle|cash ?app|(?:pay|send|transfer|deposit)(?: us| me)? (?:the |a |your )?(?:fee|payment|amount|balance|money|funds|£|\$|rs\.?|inr)|(?:processing|delivery|release|admin|handling|customs|clearance) (?:fee|charge|cost)|pay (?:now|today|online|here|at|via|by))/i,
  overpayment: /\b(?:cheque|cashier'?s check|certified check|check for|overpa(?:id|yment)|refund|reimburse|excess (?:amount|funds)|send (?:back|the rest|the difference))\b/i,
  away: /\b(?:abroad|overseas|out of (?:the )?country|out of town|deployed|on (?:a )?mission|oil rig|offshore|relocated|moved to)\b/i,
  urgency_hold:
    /\b(?:urgent(?:ly)?|immediately|asap|right away|act now|today only|expires?|expiring|last chance|final (?:notice|warning|attempt|try|reminder)|within \d+ ?(?:hours?|hrs?|days?|mins?|minutes?)|(?:account|card|service|number|payment|parcel|package|delivery)(?: has been| is| was| will be)? (?:suspended|blocked|locked|on hold|held|frozen|deactivated|disabled|restricted|limited)|(?:hold|reserve|secure|claim) (?:it|your|the)|limited time)\b/i,
  identity:
    /\b(?:password|passcode|pin\b|otp|one[- ]time (?:code|password)|verification code|login details|log ?in details|account (?:details|number|info)|card (?:details|number)|bank (?:details|account|info)|cvv|ssn|social security|date of birth|passport|id card|driver'?s licen[cs]e|(?:verify|confirm|update|validate) (?:your )?(?:identity|account|details|information|info|kyc|pan|aadhaar?)|kyc)\b/i,
};

export function redFlagKindsOf(text: string): RedFlagKind[] {
  return RED_FLAG_KINDS.filter((k) => TAGS[k].test(text));
}

/**
 * Which part of a shared data set a text belongs to (docs/decisions/015), fixed before any tuning by the
 * text alone: FNV-1a of its first 12 words (lower case, letters only, so texts built from one template
 * with other sums, numbers or codes land together), odd: held out. Nothing is tuned on the held-out part.
 */
export function sharedPart(text: string): "tuning" | "holdout" {
  const key = (text.toLowerCase().match(/[a-z]+/g) ?? []).slice(0, 12).join(" ");
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h % 2 === 1 ? "holdout" : "tuning";
}

/** A message of a set: honest, or a scam with the red-flag kinds its own text carries (none: an opener). */
export interface SetCase {
  text: string;
  scam: boolean;
  kinds: readonly RedFlagKind[];
}

export interface SetScore {
  n: number;
  honest: number;
  /** Honest messages flagged. */
  falseFlags: number;
  falseFlagRate: number;
  /** Which reasons the false flags carried (a message counts once per reason). */
  falseFlagReasons: Partial<Record<ScamReason, number>>;
  scams: number;
  /** Scams carrying a red flag, and how many of those were flagged (the goal's recall). */
  redFlagScams: number;
  redFlagCaught: number;
  redFlagRecall: number;
  /** Message level over every scam (openers too): flagged that are scams / flagged, scams flagged / scams. */
  precision: number;
  recall: number;
  /** Per red-flag kind: scams carrying it, and how many were flagged. */
  byKind: Partial<Record<RedFlagKind, { n: number; caught: number }>>;
  /** Microseconds per message (a long text's parts each a message), each timed alone (its fastest of a few runs). */
  p50Micros: number;
  p99Micros: number;
  falseFlagTexts: { text: string; got: ScamReason[] }[];
  missed: { text: string; kinds: readonly RedFlagKind[] }[];
}

/**
 * The messages a text takes to send (decision 033): the whole text when it fits in one (LIMITS.messageMax),
 * else consecutive parts cut at a line break or a space. A long listing pasted into a chat arrives so, and a
 * flag on any part is a flag on the listing.
 */
export function messagesOf(text: string, max: number = LIMITS.messageMax): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const cut = Math.max(rest.lastIndexOf("\n", max), rest.lastIndexOf(" ", max));
    const at = cut > max / 2 ? cut : max;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  if (rest.trim() || parts.length === 0) parts.push(rest);
  return parts;
}

/** Scores a set: false flags on its honest messages, recall per red-flag kind on its scams, time per message. */
export function scoreSet(cases: readonly SetCase[], scan: (text: string) => ScamReason[] = scanMessage, now: () => number = () => performance.now(), repeats = 3): SetScore {
  const times: number[] = [];
  const got = cases.map((c) => {
    const reasons = new Set<ScamReason>();
    // A text longer than a message is read as the messages it would take to send (the API refuses longer ones).
    for (const message of messagesOf(c.text)) {
      // Each message timed `repeats` times, its fastest kept: other processes on a shared machine add noise, not cost.
      let fastest = Infinity;
      for (let i = 0; i < repeats; i++) {
        const start = now();
        const found = scan(message);
        fastest = Math.min(fastest, (now() - start) * 1000);
        if (i === 0) for (const r of found) reasons.add(r);
      }
      times.push(fastest);
    }
    return SCAM_REASONS.filter((r) => reasons.has(r));
  });
  let falseFlags = 0;
  let tp = 0;
  let redFlagScams = 0;
  let redFlagCaught = 0;
  const falseFlagReasons: SetScore["falseFlagReasons"] = {};
  const byKind: SetScore["byKind"] = {};
  const falseFlagTexts: SetScore["falseFlagTexts"] = [];
  const missed: SetScore["missed"] = [];
  cases.forEach((c, i) => {
    const flagged = got[i]!.length > 0;
    if (!c.scam) {
      if (!flagged) return;
      falseFlags++;
      falseFlagTexts.push({ text: c.text, got: got[i]! });
      for (const r of got[i]!) falseFlagReasons[r] = (falseFlagReasons[r] ?? 0) + 1;
      return;
    }
    if (flagged) tp++;
    if (c.kinds.length === 0) return;
    redFlagScams++;
    if (flagged) redFlagCaught++;
    else missed.push({ text: c.text, kinds: c.kinds });
    for (const k of c.kinds) {
      const kind = (byKind[k] ??= { n: 0, caught: 0 });
      kind.n++;
      if (flagged) kind.caught++;
    }
  });
  const honest = cases.filter((c) => !c.scam).length;
  const scams = cases.length - honest;
  const ratio = (a: number, b: number, empty: number) => (b === 0 ? empty : a / b);
  const sorted = [...times].sort((a, b) => a - b);
  const quantile = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
  return {
    n: cases.length,
    honest,
    falseFlags,
    falseFlagRate: ratio(falseFlags, honest, 0),
    falseFlagReasons,
    scams,
    redFlagScams,
    redFlagCaught,
    redFlagRecall: ratio(redFlagCaught, redFlagScams, 1),
    precision: ratio(tp, tp + falseFlags, 1),
    recall: ratio(tp, scams, 1),
    byKind,
    p50Micros: quantile(0.5),
    p99Micros: quantile(0.99),
    falseFlagTexts,
    missed,
  };
}

/** A corpus labelled by kind as a set. */
export const kindSet = (cases: readonly KindCase[]): SetCase[] =>
  cases.map((c) => ({ text: c.text, scam: c.scam, kinds: c.scam && RED_FLAG_OF_CORPUS_KIND[c.kind] ? [RED_FLAG_OF_CORPUS_KIND[c.kind]!] : [] }));

/** A corpus labelled by reason as a set. */
export const reasonSet = (cases: readonly CorpusCase[]): SetCase[] =>
  cases.map((c) => ({ text: c.text, scam: c.reasons.length > 0, kinds: [...new Set(c.reasons.map((r) => RED_FLAG_OF_REASON[r]))] }));

/** What a threshold would give on a set: false flags on honest text, red-flag and overall recall. */
export interface ThresholdRow {
  threshold: number;
  falseFlagRate: number;
  redFlagRecall: number;
  recall: number;
  /** Messages the model flags at this threshold (no rule did). */
  byModel: number;
}

/**
 * The model's threshold swept over a set (decision 033): each message read once (the rules' verdict and the
 * model's score, `shieldVerdict`), then flagged at each threshold when a rule fired or the score reached it.
 * Infinity: the rules alone.
 */
export function thresholdSweep(
  cases: readonly SetCase[],
  thresholds: readonly number[],
  verdict: (text: string) => { reasons: readonly ScamReason[]; scored: { score: number } | null } = shieldVerdict,
): ThresholdRow[] {
  // A long text: flagged when any of its messages is, at its messages' best score.
  const read = cases.map((c) => {
    const parts = messagesOf(c.text).map((m) => verdict(m));
    const best = parts.reduce<{ score: number } | null>((b, p) => (p.scored && (!b || p.scored.score > b.score) ? p.scored : b), null);
    return { c, v: { reasons: parts.flatMap((p) => p.reasons), scored: best } };
  });
  return thresholds.map((threshold) => {
    let falseFlags = 0;
    let caught = 0;
    let redCaught = 0;
    let byModel = 0;
    for (const { c, v } of read) {
      const model = v.reasons.length === 0 && !!v.scored && v.scored.score >= threshold;
      const flagged = v.reasons.length > 0 || model;
      if (model) byModel++;
      if (!flagged) continue;
      if (!c.scam) falseFlags++;
      else {
        caught++;
        if (c.kinds.length > 0) redCaught++;
      }
    }
    const honest = cases.filter((c) => !c.scam).length;
    const scams = cases.length - honest;
    const red = cases.filter((c) => c.scam && c.kinds.length > 0).length;
    return { threshold, falseFlagRate: honest ? falseFlags / honest : 0, redFlagRecall: red ? redCaught / red : 1, recall: scams ? caught / scams : 1, byModel };
  });
}

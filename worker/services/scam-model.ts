/**
 * The scam shield's scored half (docs/decisions/015, 033): a logistic regression over a message's words,
 * word pairs and the rules' cues, trained by `scripts/train-scam-model.mjs` on the repo's tuning corpora and
 * staff's verdicts (never on the held-out corpora, nor on the shared real text, where only its threshold is
 * chosen). The rules in scam-shield.ts decide first; this flags what no rule caught when its score reaches
 * the threshold, and names the likeliest reason. Pure, tens of microseconds a message.
 */
import type { ScamReason } from "../contract/safety";
import model from "./scam-model.json";

/**
 * The reasons the model tells apart, in the order of its weights (the trainer reads this list). A reason
 * added to SCAM_REASONS later is the rules' alone until the corpora teach it: early_move_in (decision 030).
 */
export const MODEL_REASONS = ["off_platform_payment", "pay_before_viewing", "owner_unavailable", "moves_off_platform", "identity_request", "suspicious_link"] as const satisfies readonly ScamReason[];

/** The trained weights: per feature, the scam weight and one weight per reason (MODEL_REASONS order). */
export interface ScamModel {
  threshold: number;
  bias: number[];
  weights: Record<string, number[]>;
}

/**
 * What the model reads: the shield's words view (normalized, spaced letters joined), with links, sums
 * and long numbers as placeholders, so "$650" and "$900" are one feature. Words and adjacent pairs, and
 * the rules' cues in the same text (`shieldCues` in scam-shield.ts, "@money_asked", "@viewing_planned"...:
 * decision 033), which carry across wordings and genres better than the words do.
 */
export function modelFeatures(words: string, cues: readonly string[] = []): string[] {
  const text = words
    .replace(/https?:\/\/\S+|\b(?:[a-z0-9-]+\.)+[a-z]{2,12}\/\S*|\b[a-z0-9-]+\.(?:com|net|org|co|io|xyz|info|ly|gl|gy|gd|me|app|site|online|top|link|us|biz|cc|to|pw|live|page|rent|homes)\b/g, " urltok ")
    .replace(/\$\s?\d[\d,.]*k?/g, " moneytok ")
    .replace(/\d{3,}/g, " numtok ")
    .replace(/\d+/g, " digittok ");
  const tokens = text.match(/[a-z']+/g) ?? [];
  const features = new Set<string>();
  tokens.forEach((token, i) => {
    features.add(token);
    if (i + 1 < tokens.length) features.add(`${token} ${tokens[i + 1]}`);
  });
  for (const cue of cues) features.add(cue);
  return [...features];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The scam score (0..1) and the likeliest reason, from a model (the trained one by default). */
export function scoreWords(words: string, weights: ScamModel = model as ScamModel, cues: readonly string[] = []): { score: number; reason: ScamReason } {
  const sums = [...weights.bias];
  for (const feature of modelFeatures(words, cues)) {
    const w = weights.weights[feature];
    if (w) for (let i = 0; i < sums.length; i++) sums[i]! += w[i] ?? 0;
  }
  let best = 1;
  for (let i = 2; i < sums.length; i++) if (sums[i]! > sums[best]!) best = i;
  return { score: sigmoid(sums[0]!), reason: MODEL_REASONS[best - 1]! };
}

/** The score at which the model flags (chosen on the shared tuning data through the bench: decision 033). */
export const modelThreshold = (weights: ScamModel = model as ScamModel): number => weights.threshold;

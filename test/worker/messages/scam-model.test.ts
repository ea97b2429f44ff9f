/**
 * The scam shield's scored model (docs/decisions/015, 033): what it reads (words, pairs and the rules'
 * cues), how it scores, and how it joins the rules: it flags only what the rules leave clean, never a
 * refusal or a warning, and its flag names a reason like a rule's. Phrasings here are in no corpus.
 */
import { describe, expect, it } from "vitest";
import tuning from "../../fixtures/scam-corpus-tuning.json";
import { SCAM_REASONS } from "../../../worker/contract/safety";
import { modelFeatures, modelThreshold, scoreWords, type ScamModel } from "../../../worker/services/scam-model";
import { ruleReasons, scanMessage, shieldCues, shieldVerdict, shieldWords } from "../../../worker/services/scam-shield";
import type { KindCase } from "../../bench/scam-scoring";

describe("what the model reads", () => {
  it("words and adjacent pairs, with sums, long numbers and links as placeholders", () => {
    const features = modelFeatures(shieldWords("Send $650 to pay-secure-rent.com now"));
    expect(features).toEqual(expect.arrayContaining(["send", "moneytok", "send moneytok", "urltok", "now", "urltok now"]));
    expect(modelFeatures(shieldWords("send $900"))).toEqual(modelFeatures(shieldWords("send $650")));
    expect(modelFeatures(shieldWords("call 3125550147"))).toContain("numtok");
  });
});

describe("scoring", () => {
  const tiny: ScamModel = {
    threshold: 0.5,
    bias: [-2, 0, 0, 0, 0, 0, 0],
    weights: { wire: [3, 0, 0, 0, 0, 0, 2], "wire moneytok": [1, 0, 0, 0, 0, 0, 0], hold: [1, 0, 4, 0, 0, 0, 0] },
  };
  it("is the logistic of the bias and the weights of the features present; the reason is the largest reason sum", () => {
    expect(scoreWords("hello", tiny).score).toBeCloseTo(1 / (1 + Math.exp(2)), 6);
    const wire = scoreWords("wire $500", tiny);
    expect(wire.score).toBeCloseTo(1 / (1 + Math.exp(-2)), 6);
    expect(wire.reason).toBe(SCAM_REASONS[5]);
    expect(scoreWords("wire it to hold", tiny).reason).toBe(SCAM_REASONS[1]);
  });
});

describe("the model beside the rules", () => {
  it("flags new phrasings of payment off the platform and urgency that no rule catches", () => {
    const payment = "send it thru the app with the yellow lightning logo, my bank links to it, then I post you the lease";
    expect(ruleReasons(payment)).toEqual([]);
    expect(scanMessage(payment)).toEqual(["off_platform_payment"]);
    const hold = "if u can get the money over to me by friday its yours, i trust u";
    expect(ruleReasons(hold)).toEqual([]);
    expect(scanMessage(hold)).toEqual(["pay_before_viewing"]);
  });

  it("is never asked about a message that asks for nothing concrete, whatever it would score (decision 015)", () => {
    // The same story without the ask: the app hinted at, pressure and an owner abroad with no money in it.
    for (const text of ["you can use the app with the yellow lightning logo, my bank links to it, then I post you the lease", "I'm abroad so can't show it, someone else is interested, decide tonight"]) {
      expect(shieldVerdict(text), text).toEqual({ reasons: [], scored: null });
      expect(scanMessage(text), text).toEqual([]);
    }
  });

  it("reads the rules' cues beside the words, and scores a long text where its risk is (decision 033)", () => {
    const words = shieldWords("I'm abroad, send the deposit today and my agent mails you the keys");
    const cues = shieldCues(words);
    expect(cues).toEqual(expect.arrayContaining(["@money_asked", "@away", "@keys_delivered"]));
    expect(modelFeatures(words, cues)).toEqual(expect.arrayContaining(["send", "send the", "@money_asked", "@away"]));
    expect(cues).not.toContain("@viewing_planned");
    expect(shieldCues(shieldWords("Call me at 555-555-0187 to set up a viewing"))).toEqual(expect.arrayContaining(["@contact", "@viewing_planned"]));
    // A long honest text around one risky sentence: the model reads the windows with the risk, not the
    // whole text (a flag there would be the same as on the sentence alone).
    const filler = "The kitchen was redone last year. There is a washer and a dryer. The bus stops at the corner. ";
    const risky = "if u can get the money over to me by friday its yours, i trust u.";
    const alone = shieldVerdict(risky).scored!.score;
    expect(shieldVerdict(`${filler.repeat(3)}${risky} ${filler.repeat(3)}`).scored!.score).toBeCloseTo(shieldVerdict(`${filler}${risky} ${filler}`).scored!.score, 6);
    expect(alone).toBeGreaterThanOrEqual(modelThreshold());
  });

  it("leaves honest messages and refusals clean", () => {
    for (const text of [
      "Thanks for showing me the place today, I'll let you know by Sunday",
      "I paid my share of the internet on venmo, thanks",
      "nope, not sending anything before I've seen it",
      "Is the parking spot included in the rent?",
    ])
      expect(scanMessage(text), text).toEqual([]);
  });

  it("never changes what a rule found, and adds at most one reason", () => {
    for (const c of tuning.cases as KindCase[]) {
      const rules = ruleReasons(c.text);
      const all = scanMessage(c.text);
      if (rules.length > 0) expect(all, c.text).toEqual(rules);
      else expect(all.length, c.text).toBeLessThanOrEqual(1);
    }
  });
});

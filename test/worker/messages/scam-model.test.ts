/**
 * The scam shield's scored model (docs/decisions/015): what it reads, how it scores, and how it
 * joins the rules: it flags only what the rules leave clean, never a refusal or a warning, and its
 * flag names a reason like a rule's. Phrasings here are in no corpus.
 */
import { describe, expect, it } from "vitest";
import tuning from "../../fixtures/scam-corpus-tuning.json";
import { SCAM_REASONS } from "../../../worker/contract/safety";
import { modelFeatures, scoreWords, type ScamModel } from "../../../worker/services/scam-model";
import { ruleReasons, scanMessage, shieldWords } from "../../../worker/services/scam-shield";
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
    const urgency = "Two others are viewing tomorrow and bringing funds, so whoever confirms tonight gets the room";
    expect(ruleReasons(urgency)).toEqual([]);
    expect(scanMessage(urgency)).toEqual(["pay_before_viewing"]);
  });

  it("stays quiet, however high it scores, on a message that asks for nothing concrete (decision 015)", () => {
    const hint = "you can use the app with the yellow lightning logo, my bank links to it, then I post you the lease";
    expect(scoreWords(shieldWords(hint)).score).toBeGreaterThan(0.85);
    expect(scanMessage(hint)).toEqual([]);
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

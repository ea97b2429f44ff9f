/**
 * The scam shield's scored model (docs/decisions/015): the committed weights are what the trainer
 * makes from the tuning corpora today, so a corpus edited without retraining fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { trainScamModel } from "../../scripts/train-scam-model.mjs";

describe("worker/services/scam-model.json", () => {
  it("is what scripts/train-scam-model.mjs makes from the tuning corpora (run it after changing them)", async () => {
    const committed = readFileSync(new URL("../../worker/services/scam-model.json", import.meta.url), "utf8");
    const trained = await trainScamModel();
    expect(trained.threshold).toBeGreaterThan(0.5);
    expect(Object.keys(trained.weights).length).toBeGreaterThan(1000);
    expect(committed).toBe(`${JSON.stringify(trained)}\n`);
  });
});

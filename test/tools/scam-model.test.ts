/**
 * The scam shield's scored model (docs/decisions/015, 033): the committed weights are what the trainer makes
 * from the repo's training data today, so a corpus edited without retraining fails here; and staff's
 * decisions feed it: exported from the database (scripts/export-safety-labels.mjs), merged into the staff
 * corpus and retrained by one command (scripts/train-scam-model.mjs --add), which this runs on copies.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mergeStaffLabels, staffCorpusText, STAFF_CORPUS, trainingRows, trainScamModel } from "../../scripts/train-scam-model.mjs";
import { scoreWords, type ScamModel } from "../../worker/services/scam-model";
import { shieldCues, shieldWords } from "../../worker/services/scam-shield";
import { sqliteFromMigrations } from "./d1-sqlite";

const ROOT = new URL("../../", import.meta.url).pathname;
const MODEL = join(ROOT, "worker/services/scam-model.json");

describe("worker/services/scam-model.json", () => {
  it("is what scripts/train-scam-model.mjs makes from the tuning corpora and the staff corpus (run it after changing them)", async () => {
    const committed = readFileSync(MODEL, "utf8");
    const trained = await trainScamModel();
    expect(trained.threshold).toBeGreaterThan(0.5);
    expect(Object.keys(trained.weights).length).toBeGreaterThan(1000);
    // The rules' cues are features of their own.
    expect(trained.weights["@money_asked"]).toBeDefined();
    expect(committed).toBe(`${JSON.stringify(trained)}\n`);
  });
});

describe("mergeStaffLabels", () => {
  const example = (over: Record<string, unknown>) => ({ text: "Zelle me the deposit today", scam: true, kind: "staff_verdict_scam", source: "staff_suspended", reasons: ["off_platform_payment"], scored: false, fine_kinds: [], month: "2026-10", ...over });

  it("keeps one example per text, a staff verdict over a recipient's 'This is fine', sorted by text", () => {
    const fine = example({ text: "b: venmo works for rent", scam: false, kind: "recipient_fine", source: "recipient_fine" });
    const reviewed = example({ text: "b: venmo works for rent", scam: false, kind: "staff_verdict_honest", source: "staff_reviewed" });
    const scam = example({ text: "a: wire it today" });
    expect(mergeStaffLabels([fine], [scam, reviewed])).toEqual([scam, reviewed]);
    // An export read twice adds nothing, and a weaker label never replaces a stronger one.
    expect(mergeStaffLabels([scam, reviewed], [fine, scam])).toEqual([scam, reviewed]);
  });

  it("replaces contacts once more (a file edited by hand) and refuses what is not an exported example", () => {
    expect(mergeStaffLabels([], [example({ text: "text me at 512-555-0199 or jo@gmail.com" })])[0]!.text).toBe("text me at (555) 555-0100 or name@example.com");
    expect(() => mergeStaffLabels([], [{ text: "no label" }])).toThrow(/not an exported example/);
    expect(() => mergeStaffLabels([], [example({ source: "someone_said_so" })])).toThrow(/not an exported example/);
  });

  it("a recipient's 'This is fine' weighs half a staff verdict in training; the repo's own staff corpus is read", () => {
    const rows = trainingRows({ staff: [example({}), example({ text: "fine by me", scam: false, source: "recipient_fine" })] });
    expect(rows.slice(-2).map((r) => [r.scam, r.weight, r.staff])).toEqual([
      [true, 1, true],
      [false, 0.5, true],
    ]);
    expect(JSON.parse(readFileSync(STAFF_CORPUS, "utf8")).cases).toBeInstanceOf(Array);
  });
});

describe("staff's decisions retrain the model: export, then train --add", () => {
  const dir = mkdtempSync(join(tmpdir(), "campusnest-staff-model-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A scam the model scores low today, and an honest message it scores high (a flag staff cleared).
  const SCAM = "Just text the money code to my cousin tonight and he sorts the room for you";
  const HONEST = "send the first month today please, my account details are in the lease we signed";
  const score = (text: string, model: ScamModel) => {
    const words = shieldWords(text);
    return scoreWords(words, model, shieldCues(words)).score;
  };

  it("labels the database's judged messages, merges them into a staff corpus and trains a model that learned them", () => {
    const db = join(dir, "d1.sqlite");
    sqliteFromMigrations(
      db,
      `
      INSERT INTO users (id, email, first_name, last_name, phone, suspended_at) VALUES
        ('u1', 'scammer@example.com', 'Mallory', 'Stone', NULL, '2026-10-04T00:00:00.000Z'),
        ('u2', 'renter@example.edu', 'Rosa', 'Lin', NULL, NULL),
        ('u3', 'owner@example.edu', 'Omar', 'Haddad', NULL, NULL);
      INSERT INTO conversations (id, user_a, user_b, safety_flagged_at, safety_reasons, safety_reviewed_at) VALUES
        ('c1', 'u1', 'u2', '2026-10-01T00:00:00.000Z', '["off_platform_payment"]', NULL),
        ('c2', 'u3', 'u2', '2026-10-01T00:00:00.000Z', '["off_platform_payment"]', '2026-10-09T00:00:00.000Z');
      INSERT INTO messages (id, conversation_id, sender_id, text, safety_flags, created_at) VALUES
        ('m1', 'c1', 'u1', 'Rosa, ${SCAM}', '["pay_before_viewing","scored"]', '2026-10-01T00:00:00.000Z'),
        ('m2', 'c2', 'u3', '${HONEST}', '["off_platform_payment","scored"]', '2026-10-02T00:00:00.000Z');
      INSERT INTO safety_feedback (conversation_id, user_id, message_id, kind) VALUES ('c2', 'u2', 'm2', 'payment');
    `,
    );
    const exported = join(dir, "labels.json");
    execFileSync("node", [join(ROOT, "scripts/export-safety-labels.mjs"), "--sqlite", db, "--out", exported], { stdio: "pipe" });
    const staffCorpus = join(dir, "staff.json");
    writeFileSync(staffCorpus, staffCorpusText([]));
    const modelOut = join(dir, "model.json");
    const committed = readFileSync(MODEL, "utf8");
    const run = execFileSync("node", [join(ROOT, "scripts/train-scam-model.mjs"), "--add", exported, "--staff-corpus", staffCorpus, "--model-out", modelOut], { encoding: "utf8" });
    expect(run).toMatch(/merged 2 exported examples: the staff corpus has 2 \(was 0\)/);

    const merged = JSON.parse(readFileSync(staffCorpus, "utf8")).cases;
    expect(merged.map((c: { text: string; scam: boolean; source: string }) => [c.text, c.scam, c.source])).toEqual([
      [`Alex, ${SCAM}`, true, "staff_suspended"],
      [HONEST, false, "staff_reviewed"],
    ]);
    expect(JSON.stringify(merged)).not.toMatch(/Rosa|Mallory|Omar|example\.edu/);

    // The retrained model scores the staff's scam higher and the message staff cleared lower than before.
    const before = JSON.parse(committed) as ScamModel;
    const after = JSON.parse(readFileSync(modelOut, "utf8")) as ScamModel;
    expect(score(SCAM, after)).toBeGreaterThan(score(SCAM, before));
    expect(score(HONEST, after)).toBeLessThan(score(HONEST, before));
    expect(score(HONEST, before)).toBeGreaterThanOrEqual(before.threshold);
    expect(score(HONEST, after)).toBeLessThan(after.threshold);
    // Copies only: the repo's model is untouched.
    expect(readFileSync(MODEL, "utf8")).toBe(committed);
  });

  it("refuses --add without an export file, and writes nothing", () => {
    const res = spawnSync("node", [join(ROOT, "scripts/train-scam-model.mjs"), "--add", join(dir, "missing.json"), "--staff-corpus", join(dir, "never.json"), "--model-out", join(dir, "never-model.json")], { encoding: "utf8" });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/--add needs an export file/);
    expect(spawnSync("ls", [join(dir, "never-model.json")]).status).not.toBe(0);
  });
});

/**
 * Staff decisions become data (docs/decisions/015): scripts/export-safety-labels.mjs labels each judged
 * message (staff suspended the sender: scam; staff reviewed and left the sender alone, or the recipient
 * said "This is fine": honest) and removes who wrote it. The end-to-end case builds a SQLite copy of
 * the database from the migrations with the sqlite3 tool (./d1-sqlite.ts) and runs the script on it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deidentify, labelRows } from "../../scripts/export-safety-labels.mjs";
import { scanMessage } from "../../worker/services/scam-shield";
import { sqliteFromMigrations } from "./d1-sqlite";

const ROOT = new URL("../../", import.meta.url).pathname;

describe("deidentify", () => {
  it("replaces the participants' names and phone, any email, phone number or street address, keeping their shape", () => {
    const out = deidentify("Hi Jordan, it's Priya Raman. Text 512-555-0199 or priya.r@gmail.com, the place is 42 West Elm Street", [
      { first: "Priya", last: "Raman", phone: null },
      { first: "Jordan", last: "Lee", phone: null },
    ]);
    expect(out).toBe("Hi Alex, it's Alex Doe. Text (555) 555-0100 or name@example.com, the place is 123 Main St");
    // The placeholders still read as a contact, so a relabelled example teaches what the original did.
    expect(scanMessage(out)).toContain("moves_off_platform");
  });
});

describe("labelRows", () => {
  const row = (over: Record<string, unknown>) => ({
    text: "Zelle me the deposit before the viewing",
    safety_flags: '["off_platform_payment","pay_before_viewing"]',
    created_at: "2026-10-02T10:00:00.000Z",
    safety_reviewed_at: null,
    s_first: "Sam",
    s_last: "Park",
    s_email: "sam@example.edu",
    s_phone: null,
    s_suspended_at: null,
    r_first: "Ana",
    r_last: "Diaz",
    r_email: "ana@example.edu",
    r_phone: null,
    fine_kinds: null,
    ...over,
  });

  it("a suspended sender's flagged message is a scam, whatever its recipient said", () => {
    const [c] = labelRows([row({ s_suspended_at: "2026-10-03T00:00:00.000Z", fine_kinds: "payment" })]);
    expect(c).toMatchObject({ scam: true, source: "staff_suspended", kind: "staff_verdict_scam", reasons: ["off_platform_payment", "pay_before_viewing"], month: "2026-10" });
  });

  it("staff reviewed and left the sender alone: honest, but only for messages sent before the review", () => {
    const cases = labelRows([
      row({ safety_reviewed_at: "2026-10-05T00:00:00.000Z" }),
      row({ text: "later one", created_at: "2026-10-06T00:00:00.000Z", safety_reviewed_at: "2026-10-05T00:00:00.000Z" }),
    ]);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({ scam: false, source: "staff_reviewed", kind: "staff_verdict_honest" });
  });

  it("a 'This is fine' alone is an honest example of the weaker kind; an unjudged flag is left out", () => {
    const cases = labelRows([row({ text: "my venmo is on my profile", safety_flags: '["off_platform_payment","scored"]', fine_kinds: "payment" }), row({ text: "not judged yet" })]);
    expect(cases).toEqual([
      { text: "my venmo is on my profile", scam: false, kind: "recipient_fine", source: "recipient_fine", reasons: ["off_platform_payment"], scored: true, fine_kinds: ["payment"], month: "2026-10" },
    ]);
  });
});

describe("scripts/export-safety-labels.mjs --sqlite", () => {
  const dir = mkdtempSync(join(tmpdir(), "campusnest-labels-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the real schema and prints de-identified, labelled examples", () => {
    const db = join(dir, "d1.sqlite");
    sqliteFromMigrations(
      db,
      `
      INSERT INTO users (id, email, first_name, last_name, phone, suspended_at) VALUES
        ('u1', 'scammer@example.com', 'Mallory', 'Stone', '2125550123', '2026-10-04T00:00:00.000Z'),
        ('u2', 'renter@example.edu', 'Rosa', 'Lin', NULL, NULL),
        ('u3', 'owner@example.edu', 'Omar', 'Haddad', NULL, NULL);
      INSERT INTO conversations (id, user_a, user_b, safety_flagged_at, safety_reasons, safety_reviewed_at) VALUES
        ('c1', 'u1', 'u2', '2026-10-01T00:00:00.000Z', '["off_platform_payment"]', NULL),
        ('c2', 'u2', 'u3', '2026-10-01T00:00:00.000Z', '["moves_off_platform"]', '2026-10-09T00:00:00.000Z');
      INSERT INTO messages (id, conversation_id, sender_id, text, safety_flags, created_at) VALUES
        ('m1', 'c1', 'u1', 'Rosa, wire the deposit today, call Mallory at 212-555-0123', '["off_platform_payment","moves_off_platform"]', '2026-10-01T00:00:00.000Z'),
        ('m2', 'c1', 'u2', 'ok what is the address?', NULL, '2026-10-01T01:00:00.000Z'),
        ('m3', 'c2', 'u3', 'Rosa, the building group chat is on WhatsApp, ask Omar to add you', '["moves_off_platform"]', '2026-10-02T00:00:00.000Z');
      INSERT INTO safety_feedback (conversation_id, user_id, message_id, kind) VALUES ('c2', 'u2', 'm3', 'contact');
    `,
    );
    const out = JSON.parse(execFileSync("node", [join(ROOT, "scripts/export-safety-labels.mjs"), "--sqlite", db], { encoding: "utf8" }));
    expect(out.cases).toEqual([
      { text: "Alex, wire the deposit today, call Alex at (555) 555-0100", scam: true, kind: "staff_verdict_scam", source: "staff_suspended", reasons: ["off_platform_payment", "moves_off_platform"], scored: false, fine_kinds: [], month: "2026-10" },
      { text: "Alex, the building group chat is on WhatsApp, ask Alex to add you", scam: false, kind: "staff_verdict_honest", source: "staff_reviewed", reasons: ["moves_off_platform"], scored: false, fine_kinds: ["contact"], month: "2026-10" },
    ]);
    expect(JSON.stringify(out)).not.toMatch(/Mallory|Rosa|Omar|Haddad|example\.edu|u1|c1|m1/);
  });
});

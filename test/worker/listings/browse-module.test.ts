/**
 * The browse module's shared facts: the index names browse forces exist in the
 * migrated database, the longest statement the builder can make runs within D1's limits and the builder
 * refuses a longer one, and "promoted right now" means the same in JS and in SQL.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { browseQuerySchema, SORTS } from "../../../worker/contract/listings";
import { isPromotedNow } from "../../../worker/contract/owner-rules";
import { browseStatement, type BrowseCursor } from "../../../worker/db/browse";
import { armsOf, cellPlan, cellsSql, D1_OPCODE_CEILING, MAX_ARMS, MAX_STATEMENT_BYTES } from "../../../worker/db/browse/cells";
import { BROWSE_INDEX, NAMED_INDEXES } from "../../../worker/db/browse/indexes";
import { promotedNowSql } from "../../../worker/db/queries/listing-sql";

describe("index names", () => {
  it("every index named in hand-written SQL exists in the migrated database, on listings", async () => {
    const { results } = await env.DB.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'").all<{ name: string; tbl_name: string }>();
    const onListings = new Set(results.filter((r) => r.tbl_name === "listings").map((r) => r.name));
    expect(NAMED_INDEXES.length).toBe(24);
    for (const name of NAMED_INDEXES) expect(onListings.has(name), name).toBe(true);
  });

  it("the statements name only indexes of the table", () => {
    const query = browseQuerySchema.parse({ available_from: "2026-06-01", available_to: "2026-06-20", university_id: "3", sort: "price_asc" });
    const { sql } = browseStatement(query, null, "n", Date.UTC(2026, 0, 1), 41);
    const named = new Set([...sql.matchAll(/INDEXED BY (\w+)/g)].map((m) => m[1]));
    expect([...named].sort()).toEqual([BROWSE_INDEX.longStay.price, BROWSE_INDEX.universityStay.price].sort());
  });
});

describe("D1's limits", () => {
  // Every filter, a stay within one month (the most cells), the largest university id validation
  // accepts, past page 1 (a cursor in the rest): the longest statement the builder makes.
  const longest = (sort: string) =>
    browseQuerySchema.parse({
      available_from: "2026-06-01",
      available_to: "2026-06-20",
      university_id: String(Number.MAX_SAFE_INTEGER),
      lease_term: "fall",
      unit_type: "2x2",
      parking: "false",
      allow_pets: "false",
      gender_preference: "no_preference",
      min_rent: "500",
      max_rent: "900",
      within_miles: "5",
      sort,
    });
  const cursorOf = (sort: string): BrowseCursor => ({
    phase: "n",
    v: sort === "newest" ? "2026-01-01T00:00:00.000Z" : sort === "distance" ? 99_999.9 : 999_999,
    id: "z".repeat(64),
    t: Date.UTC(2099, 11, 31),
  });

  it("the longest statement has MAX_ARMS arms, fits in 100 KB, stays 1,000 opcodes under the ceiling and runs against local D1 in every sort", async () => {
    for (const sort of SORTS) {
      const query = longest(sort);
      expect(armsOf(cellPlan(query)!), sort).toBe(MAX_ARMS);
      const { sql, binds } = browseStatement(query, cursorOf(sort), "n", cursorOf(sort).t, 41);
      expect(new TextEncoder().encode(sql).length, sort).toBeLessThan(MAX_STATEMENT_BYTES);
      // EXPLAIN lists the compiled program, one row per opcode (it fails too past the ceiling).
      const opcodes = (await env.DB.prepare(`EXPLAIN ${sql}`).bind(...binds).all()).results.length;
      expect(opcodes, sort).toBeGreaterThan(15_000);
      expect(opcodes, sort).toBeLessThan(D1_OPCODE_CEILING - 1_000);
      // D1 refuses a statement past its opcode ceiling (SQLITE_NOMEM): this one must run.
      const result = await env.DB.prepare(sql).bind(...binds).all();
      expect(result.success, sort).toBe(true);
      expect(result.results).toEqual([]);
    }
  });

  it("no query plans more than MAX_ARMS arms; beyond the budget the builder refuses the cells", () => {
    // The widest distance: its bands stay within the budget.
    expect(armsOf(cellPlan(browseQuerySchema.parse({ within_miles: "50" }))!)).toBeLessThanOrEqual(MAX_ARMS);
    // Any stay: at most the one-month stay's arms.
    for (const [from, to] of [["2026-06-01", "2026-06-20"], ["2026-05-20", "2026-08-10"], ["2026-01-01", "2027-06-30"]] as const) {
      expect(armsOf(cellPlan(browseQuerySchema.parse({ available_from: from, available_to: to }))!)).toBeLessThanOrEqual(MAX_ARMS);
    }
    const query = longest("newest");
    // With a smaller budget the plan is refused (the plain walk answers)...
    expect(cellPlan(query, MAX_ARMS - 1)).toBeNull();
    // ...and the SQL builder will not write more arms than the budget.
    const plan = cellPlan(query)!;
    const tooLong = { ...plan, extraArms: [...plan.extraArms, plan.extraArms[0]!] };
    expect(() => cellsSql(query, tooLong, "1 = 1", null)).toThrow(RangeError);
  });
});

describe("promoted right now: isPromotedNow and its SQL twin agree", () => {
  const now = Date.UTC(2026, 4, 10, 12, 0, 0);
  const at = (ms: number) => new Date(now + ms).toISOString();
  const cases: [name: string, start: string | null, end: string | null][] = [
    ["no window", null, null],
    ["no start, ends later", null, at(60_000)],
    ["no start, ended", null, at(-60_000)],
    ["started, ends later", at(-60_000), at(60_000)],
    ["starts later", at(60_000), at(120_000)],
    ["starts now", at(0), at(60_000)],
    ["ends now", at(-60_000), at(0)],
    ["ends in a millisecond", at(-60_000), at(1)],
    ["ended", at(-120_000), at(-60_000)],
    ["a start without an end", at(-60_000), null],
  ];

  it("on the edge cases, against local D1", async () => {
    const rows = JSON.stringify(cases.map(([id, s, e]) => ({ id, s, e })));
    const promoted = promotedNowSql(new Date(now).toISOString());
    const notPromoted = promotedNowSql(new Date(now).toISOString(), { promoted: false });
    const { results } = await env.DB.prepare(
      `WITH l AS (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.s') AS promotion_start, json_extract(value, '$.e') AS promotion_end FROM json_each(?))
       SELECT id, (${promoted.sql}) IS 1 AS p, (${notPromoted.sql}) IS 1 AS np FROM l`,
    )
      .bind(rows, ...promoted.binds, ...notPromoted.binds)
      .all<{ id: string; p: number; np: number }>();
    expect(results).toHaveLength(cases.length);
    const expected = cases.map(([id, s, e]) => ({ id, p: isPromotedNow(s, e, now) ? 1 : 0, np: isPromotedNow(s, e, now) ? 0 : 1 }));
    expect(results).toEqual(expected);
    // Both answers occur (not a comparison of constants).
    expect(expected.filter((r) => r.p).length).toBe(4);
  });
});

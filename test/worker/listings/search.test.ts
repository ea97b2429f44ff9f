/**
 * Browse's free-text search (`q`, docs/decisions/006): every term must match, a punctuated term is a
 * phrase, and a search with no sort chosen goes best match first, page after page.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BrowseResponse } from "../../../worker/contract/listings";
import { browseQuerySchema } from "../../../worker/contract/listings";
import { browseFilterSql, ftsQuery } from "../../../worker/db/browse";
import { insertListing } from "../helpers/fixtures";
import { api, json, signUp } from "../helpers";

async function browse(query: string): Promise<BrowseResponse> {
  const res = await api(`/api/v1/subleases/?${query}`);
  expect(res.status).toBe(200);
  return json<BrowseResponse>(res);
}

async function walk(query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let token: string | null = null;
  for (let i = 0; i < 20; i++) {
    const page: BrowseResponse = await browse(`${query}&limit=${limit}${token ? `&last_evaluated_key=${encodeURIComponent(token)}` : ""}`);
    ids.push(...page.data.map((l) => l.id));
    token = page.pagination.next_token;
    if (!token) break;
  }
  return ids;
}

beforeAll(async () => {
  const owner = await signUp("searcher@ufl.edu");
  const add = (id: string, fields: Record<string, string | number | null>) => insertListing(owner.user.id, id, fields);
  // s01..s03 carry "W/D" and "in-unit"; the rest only the letters or words on their own.
  await add("s01", { title: "Loft", description: "Has W/D in-unit and a desk" });
  await add("s02", { title: "Studio with W/D", description: "Laundry: W/D, in-unit. W/D is new" });
  await add("s03", { title: "Room", description: "Shared W/D downstairs" });
  await add("s04", { title: "W Street room", description: "Dishwasher and a unit upstairs" });
  await add("s05", { title: "Unit 4", description: "In the unit: a desk" });
  await add("s06", { title: "Quiet room", description: "Near campus, desk included" });
  await add("s07", { title: "Desk desk desk", description: "A desk by the desk window" });
});

describe("search", () => {
  const ids = async (q: string) => (await browse(`q=${encodeURIComponent(q)}&sort=newest`)).data.map((l) => l.id).sort();

  it("a punctuated term matches as a phrase, not letter by letter", async () => {
    expect(await ids("W/D")).toEqual(["s01", "s02", "s03"]);
    expect(await ids("in-unit")).toEqual(["s01", "s02"]);
    // The plain word still finds every listing that has it.
    expect(await ids("unit")).toEqual(["s01", "s02", "s04", "s05"]);
  });

  it("every term must match; words are prefixes", async () => {
    expect(await ids("W/D desk")).toEqual(["s01"]);
    expect(await ids("room desk")).toEqual(["s06"]);
    expect(await ids("dish")).toEqual(["s04"]);
    expect(await ids("desk nowhere")).toEqual([]);
  });

  it("sorts by relevance with no sort chosen, and by the chosen sort otherwise", async () => {
    const byRelevance = (await browse("q=desk")).data.map((l) => l.id);
    // s07 says "desk" five times, in the title too; the others once, in the description.
    expect(byRelevance[0]).toBe("s07");
    expect(byRelevance.slice().sort()).toEqual(["s01", "s05", "s06", "s07"]);
    expect((await browse("q=desk&sort=newest")).data.map((l) => l.id)).toEqual(["s07", "s06", "s05", "s01"]);
    expect((await browse("q=desk&sort=relevance")).data.map((l) => l.id)).toEqual(byRelevance);
    // The title weighs more than the description: W/D in s02's title and twice more below it.
    expect((await browse("q=W%2FD")).data[0]!.id).toBe("s02");
  });

  it("pages through the relevance order with the cursor, each listing once, in order", async () => {
    const all = (await browse("q=desk")).data.map((l) => l.id);
    expect(await walk("q=desk", 1)).toEqual(all);
    expect(await walk("q=unit", 2)).toEqual((await browse("q=unit")).data.map((l) => l.id));
  });

  it("relevance without words is newest first", async () => {
    const newest = (await browse("sort=newest")).data.map((l) => l.id);
    expect((await browse("sort=relevance")).data.map((l) => l.id)).toEqual(newest);
    expect(browseQuerySchema.parse({}).sort).toBe("newest");
    expect(browseQuerySchema.parse({ q: "desk" }).sort).toBe("relevance");
    expect(browseQuerySchema.parse({ q: "desk", sort: "price_asc" }).sort).toBe("price_asc");
  });

  it("the FTS query: prefix words, exact phrases, quotes escaped; saved searches match through the same filter", () => {
    expect(ftsQuery("W/D in-unit desk")).toBe('"w d" "in unit" "desk"*');
    expect(ftsQuery('say "hi')).toBe('"say"* "hi"*');
    expect(ftsQuery("--- ///")).toBeNull();
    const { where, binds } = browseFilterSql(browseQuerySchema.parse({ q: "W/D" }));
    expect(where.at(-1)).toContain("listings_fts MATCH ?");
    expect(binds).toEqual(['"w d"']);
  });
});

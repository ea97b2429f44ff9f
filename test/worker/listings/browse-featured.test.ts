/**
 * Promoted listings apart (docs/decisions/006): `promoted=only` answers the Featured row (the
 * listings promoted now, in the chosen sort, with the same filters), `promoted=in_order` every listing
 * in the sort's exact order (no promoted-first restart, each once across pages), and the default
 * keeps promoted first for API clients. The browse page's URL values: what the API takes, and 422 stays.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSE_SORTS, browseApiQuery, readBrowseUrl, SEARCH_MAX } from "../../../worker/contract/browse-url";
import type { BrowseResponse, PublicListing } from "../../../worker/contract/listings";
import { api, insertListing, json, signUp } from "../helpers";

async function browse(query: string): Promise<BrowseResponse> {
  const res = await api(`/api/v1/subleases/?${query}`);
  expect(res.status, query).toBe(200);
  return json<BrowseResponse>(res);
}

/** Every page of a query, in order (pages of `limit`), and the rows read by the largest page. */
async function walk(query: string, limit: number): Promise<{ listings: PublicListing[]; maxRowsRead: number }> {
  const listings: PublicListing[] = [];
  let maxRowsRead = 0;
  let token: string | null = null;
  for (let i = 0; i < 50; i++) {
    const page: BrowseResponse = await browse(`${query}&limit=${limit}${token ? `&last_evaluated_key=${encodeURIComponent(token)}` : ""}`);
    listings.push(...page.data);
    maxRowsRead = Math.max(maxRowsRead, page.meta.rows_read);
    token = page.pagination.next_token;
    if (!token) break;
  }
  return { listings, maxRowsRead };
}

const SORT_KEY = {
  newest: (l: PublicListing) => l.created_at,
  price_asc: (l: PublicListing) => l.monthly_rent,
  price_desc: (l: PublicListing) => l.monthly_rent,
  distance: (l: PublicListing) => l.distance_miles ?? 100000,
} as const;
const DESC = { newest: true, price_asc: false, price_desc: true, distance: false } as const;

/** Whether the listings follow the sort exactly (ties by id in the sort's direction). */
function inOrder(sort: keyof typeof SORT_KEY, listings: PublicListing[]) {
  const key = SORT_KEY[sort];
  const sign = DESC[sort] ? -1 : 1;
  const sorted = [...listings].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x !== y) return (x < y ? -1 : 1) * sign;
    return (a.id < b.id ? -1 : 1) * sign;
  });
  return listings.map((l) => l.id).join() === sorted.map((l) => l.id).join();
}

const PROMOTED = ["f03", "f07", "f11", "f14", "f18"];

beforeAll(async () => {
  const owner = await signUp("featured-owner@ufl.edu");
  const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const past = new Date(Date.now() - 86_400_000).toISOString();
  for (let n = 1; n <= 20; n++) {
    const id = `f${String(n).padStart(2, "0")}`;
    await insertListing(owner.user.id, id, {
      monthly_rent: 500 + ((n * 37) % 11) * 50,
      distance_miles: n % 6 === 0 ? null : ((n * 13) % 17) / 4,
      university_id: n % 4 === 0 ? 2 : 1,
      promotion_start: PROMOTED.includes(id) ? past : null,
      promotion_end: PROMOTED.includes(id) ? future : n === 5 ? past : null, // f05: a promotion that ended
    });
  }
});

// relevance orders a search (test/worker/browse/search.test.ts); without words it is newest.
const ORDERS = BROWSE_SORTS.filter((sort) => sort !== "relevance");

describe("browse: promoted listings apart", () => {
  it.each(ORDERS)("promoted=in_order follows the %s order exactly, each listing once, across pages", async (sort) => {
    const { listings, maxRowsRead } = await walk(`sort=${sort}&promoted=in_order`, 6);
    expect(listings).toHaveLength(20);
    expect(new Set(listings.map((l) => l.id)).size).toBe(20);
    expect(inOrder(sort, listings)).toBe(true);
    // Promoted listings keep their badge in place.
    expect(listings.filter((l) => l.promoted).map((l) => l.id).sort()).toEqual(PROMOTED);
    // About as many rows as a page returns (the rows-read budget of the two-phase walk).
    expect(maxRowsRead).toBeLessThanOrEqual(6 * 2 + 12);
  });

  it.each(ORDERS)("promoted=only answers the listings promoted now, in the %s order, with the filters", async (sort) => {
    const all = await browse(`sort=${sort}&promoted=only&limit=10`);
    expect(all.data.map((l) => l.id).sort()).toEqual(PROMOTED);
    expect(all.data.every((l) => l.promoted)).toBe(true);
    expect(inOrder(sort, all.data)).toBe(true);
    // The Featured row's 4: the first 4 of that order.
    const row = await browse(`sort=${sort}&promoted=only&limit=4`);
    expect(row.data.map((l) => l.id)).toEqual(all.data.slice(0, 4).map((l) => l.id));
    // Same filters: a campus's promotions only.
    const campus = await browse(`sort=${sort}&promoted=only&limit=10&university_id=2`);
    expect(campus.data.map((l) => l.id).sort()).toEqual([]);
    const one = await browse(`sort=${sort}&promoted=only&limit=10&university_id=1`);
    expect(one.data.map((l) => l.id).sort()).toEqual(PROMOTED);
  });

  it("the Featured row and the results without its cards show every listing once, the results in exact order", async () => {
    const row = (await browse("sort=distance&promoted=only&limit=4")).data.map((l) => l.id);
    const { listings } = await walk("sort=distance&promoted=in_order", 12);
    const results = listings.filter((l) => !row.includes(l.id));
    expect(inOrder("distance", results)).toBe(true);
    expect([...row, ...results.map((l) => l.id)].sort()).toEqual(listings.map((l) => l.id).sort());
    // The fifth promoted listing is in the results, in its place, with its badge.
    expect(results.filter((l) => l.promoted)).toHaveLength(1);
  });

  it.each(ORDERS)("promoted=in_order through the cells (within N miles), %s: exact order, the same listings", async (sort) => {
    const { listings } = await walk(`sort=${sort}&promoted=in_order&within_miles=3`, 4);
    const { listings: all } = await walk(`sort=${sort}&promoted=in_order`, 20);
    expect(listings.map((l) => l.id)).toEqual(all.filter((l) => l.distance_miles !== null && l.distance_miles <= 3).map((l) => l.id));
  });

  it("by default (API clients) promoted listings still come first, then the rest", async () => {
    const { listings } = await walk("sort=distance", 6);
    expect(listings.slice(0, 5).map((l) => l.id).sort()).toEqual(PROMOTED);
    expect(inOrder("distance", listings.slice(0, 5))).toBe(true);
    expect(inOrder("distance", listings.slice(5))).toBe(true);
    expect(listings).toHaveLength(20);
  });

  it("an unknown promoted mode is 422", async () => {
    expect((await api("/api/v1/subleases/?promoted=banana")).status).toBe(422);
  });
});

describe("browse URL values: the page ignores what the API refuses, the API still refuses it", () => {
  it("the API answers 422 to each value the page ignores", async () => {
    const long = "x".repeat(SEARCH_MAX + 12);
    for (const query of ["sort=banana", "lease_term=castle", "unit_type=castle", "gender_preference=any", `q=${long}`, "min_rent=abc"]) {
      expect((await api(`/api/v1/subleases/?${query}`)).status, query).toBe(422);
    }
  });

  it("the page's API query from such a URL is one the API takes", async () => {
    const long = "x".repeat(SEARCH_MAX + 12);
    const url = new URLSearchParams({ university: "99999", sort: "banana", term: "castle", unitType: "9x9", gender: "any", q: long, min: "abc", max: "900", pets: "maybe" });
    const { browse: params, ignored } = readBrowseUrl(url, { unknownUniversity: true });
    expect(ignored.sort()).toEqual(["gender", "min", "pets", "q", "sort", "term", "unitType", "university"]);
    const query = new URLSearchParams(browseApiQuery(params));
    const res = await api(`/api/v1/subleases/?${query}`);
    expect(res.status).toBe(200);
    expect(query.get("max_rent")).toBe("900");
  });
});

it("the seeded test data are as the tests above expect", async () => {
  const { results } = await env.DB.prepare("SELECT count(*) AS n FROM listings WHERE id LIKE 'f%'").all<{ n: number }>();
  expect(results[0]!.n).toBe(20);
});

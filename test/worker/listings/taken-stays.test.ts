/**
 * "I need it from ... to ...": browse leaves out a listing whose paid stays (its `taken_stays`) overlap
 * the stay needed, and each listing carries its paid stays so the card shows the dates still free
 * (docs/decisions/039). The filter is browse's one meaning of the stay (saved searches share it) and
 * reads no row for the many listings that have no paid stay.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { BrowseResponse } from "../../../worker/contract/listings";
import { matchingListings } from "../../../worker/db/queries/saved-searches";
import { createDb } from "../../../worker/db/client";
import { api, insertListing, insertSignedDeal, json, signUp, type Session } from "../helpers";

let lister: Session;
let renter: Session;

async function browse(query: string): Promise<BrowseResponse> {
  const res = await api(`/api/v1/subleases/?${query}`);
  expect(res.status).toBe(200);
  return json<BrowseResponse>(res);
}

/** A deal of `listingId` for `moveIn`..`moveOut` in `status` (paid ones taken, others not). */
const dealOn = (listingId: string, moveIn: string, moveOut: string, status: string) =>
  insertSignedDeal(renter.user.id, lister.user.id, { listingId, moveIn, moveOut, status });

// The listings of this file: University 5, fall 2027 (Aug 20 - Dec 20).
const FALL = { university_id: 5, available_from: "2027-08-20", available_to: "2027-12-20" } as const;
const STAY = "university_id=5&available_from=2027-09-01&available_to=2027-11-30";

beforeAll(async () => {
  [lister, renter] = await Promise.all([signUp("taken-lister@stays.test"), signUp("taken-renter@stays.test")]);
  // t01..t30 cover the stay; six of them have deals of their own.
  for (let i = 1; i <= 30; i++) await insertListing(lister.user.id, `t${String(i).padStart(2, "0")}`, { ...FALL });
  await dealOn("t01", "2027-10-01", "2027-11-01", "paid"); // inside the stay: out
  await dealOn("t02", "2027-08-20", "2027-09-02", "released"); // overlaps its first day: out
  await dealOn("t03", "2027-11-29", "2027-12-20", "moved_in"); // overlaps its last day: out
  await dealOn("t04", "2027-08-20", "2027-09-01", "paid"); // ends on move-in day: that day is free, in
  await dealOn("t05", "2027-11-30", "2027-12-20", "disputed"); // starts on move-out day: in
  await dealOn("t06", "2027-10-01", "2027-11-01", "requested"); // not paid: in
  await dealOn("t07", "2027-10-01", "2027-11-01", "refunded"); // paid back: in
  await dealOn("t08", "2027-10-01", "2027-11-01", "cancelled"); // in
});

describe("browse with a stay needed", () => {
  it("leaves out the listings whose paid stays overlap it, and only those", async () => {
    const page = await browse(`${STAY}&limit=100`);
    const ids = page.data.map((l) => l.id);
    for (const out of ["t01", "t02", "t03"]) expect(ids, out).not.toContain(out);
    expect(ids.length).toBe(27);
    for (const kept of ["t04", "t05", "t06", "t07", "t08", "t09"]) expect(ids, kept).toContain(kept);
    // Another stay, clear of t01's paid month: t01 is back.
    const october = await browse("university_id=5&available_from=2027-11-01&available_to=2027-11-20&limit=100");
    expect(october.data.map((l) => l.id)).toContain("t01");
    // In every sort (each reads through the stay's cells) and along the plain walk (free text).
    for (const extra of ["&sort=price_asc", "&sort=price_desc", "&sort=distance", "&q=sunny"]) {
      const sorted = (await browse(`${STAY}&limit=100${extra}`)).data.map((l) => l.id);
      expect(sorted, extra).not.toContain("t01");
      expect(sorted.length, extra).toBe(27);
    }
    // Without a stay nothing is left out.
    expect((await browse("university_id=5&limit=100")).data).toHaveLength(30);
  });

  it("walks the pages without losing or repeating a listing", async () => {
    const seen: string[] = [];
    let token: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page: BrowseResponse = await browse(`${STAY}&limit=8${token ? `&last_evaluated_key=${encodeURIComponent(token)}` : ""}`);
      seen.push(...page.data.map((l) => l.id));
      token = page.pagination.next_token;
      if (!token) break;
    }
    expect(new Set(seen).size).toBe(27);
    expect(seen.length).toBe(27);
  });

  it("reads no more rows for the check than the paid stays it finds (listings with none cost nothing)", async () => {
    // The same 30 listings in University 6, no deal at all: the filter's own cost is the difference.
    for (let i = 1; i <= 30; i++) await insertListing(lister.user.id, `u${String(i).padStart(2, "0")}`, { ...FALL, university_id: 6 });
    const plain = await browse("university_id=6&available_from=2027-09-01&available_to=2027-11-30&limit=20");
    const withDeals = await browse(`${STAY}&limit=20`);
    expect(plain.data).toHaveLength(20);
    expect(withDeals.data).toHaveLength(20);
    // Page 1 of 20 (newest first: t30 down to t09, none with a deal but t09's neighbours): at most the
    // few deal rows met on the way, never a row per listing.
    expect(withDeals.meta.rows_read).toBeLessThanOrEqual(plain.meta.rows_read + 6);
    expect(plain.meta.rows_read).toBeLessThanOrEqual(1.5 * 21);
  });

  it("answers each listing's paid stays, for the card's free dates (no names, nothing unpaid)", async () => {
    const page = await browse("university_id=5&limit=100");
    const byId = new Map(page.data.map((l) => [l.id, l]));
    expect(byId.get("t01")!.taken_stays).toEqual([{ move_in: "2027-10-01", move_out: "2027-11-01" }]);
    expect(byId.get("t06")!.taken_stays).toEqual([]);
    expect(byId.get("t07")!.taken_stays).toEqual([]);
    expect(byId.get("t09")!.taken_stays).toEqual([]);
  });

  it("saved searches match through the same filter: a listing already paid for the stay is no match", async () => {
    const search = { id: "ss-taken", userId: renter.user.id, filters: { university_id: 5, available_from: "2027-09-01", available_to: "2027-11-30", sort: "newest" as const, promoted: "first" as const } };
    const matched = await matchingListings(createDb(env), ["t01", "t04", "t09"], [search]);
    expect(matched.get("ss-taken")?.sort()).toEqual(["t04", "t09"]);
  });
});

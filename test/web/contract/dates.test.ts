/** The one date formatter (contract/dates.ts): the year whenever it is not the current one, always on what is kept. */
import { describe, expect, it } from "vitest";
import { formatDate, formatMomentDate, formatStay, formatStays, freeStays } from "@contract/dates";
import { shortDate, requestSummary } from "@contract/deals";
import { cardStay } from "../../../web/components/listing-card";

const IN_2026 = { now: new Date("2026-12-07T12:00:00") };

describe("dates for people", () => {
  it("a date shows its year when it is not this year's, and always on agreements and receipts", () => {
    expect(formatDate("2026-08-20", IN_2026)).toBe("Aug 20");
    expect(formatDate("2027-08-20", IN_2026)).toBe("Aug 20, 2027");
    expect(formatDate("2025-08-20", IN_2026)).toBe("Aug 20, 2025");
    expect(formatDate("2026-08-20", { ...IN_2026, year: "always" })).toBe("Aug 20, 2026");
    // The server's texts (agreement, emails, the checkout) print it always.
    expect(shortDate("2026-08-20")).toBe("Aug 20, 2026");
    expect(requestSummary("2027-01-05", "2027-05-20")).toBe("Sublease request: Jan 5 - May 20, 2027");
  });

  it("a stay: no year within this one, the year once in another, both years across two", () => {
    expect(formatStay("2026-08-20", "2026-12-20", IN_2026)).toBe("Aug 20 - Dec 20");
    expect(formatStay("2027-08-20", "2027-12-20", IN_2026)).toBe("Aug 20 - Dec 20, 2027");
    expect(formatStay("2026-12-20", "2027-01-05", IN_2026)).toBe("Dec 20, 2026 - Jan 5, 2027");
    expect(formatStay("2026-08-20", "2026-12-20", { ...IN_2026, year: "always" })).toBe("Aug 20 - Dec 20, 2026");
    expect(formatStay("2026-02-30", "2026-12-20", IN_2026)).toBeNull();
    expect(formatStay(null, "2026-12-20", IN_2026)).toBeNull();
  });

  it("several stays: back-to-back ones read as one, the rest apart by semicolons, so a year's comma never reads as a new stay", () => {
    const stay = (from: string, to: string) => ({ from, to });
    // The list a renter read as "Dec 7 - Dec 8, Dec 8, 2026 - ...": two paid stays sharing Dec 8, then one across the year.
    expect(formatStays([stay("2026-12-08", "2026-12-20"), stay("2026-12-07", "2026-12-08")], IN_2026)).toBe("Dec 7 - Dec 20");
    expect(formatStays([stay("2026-12-07", "2026-12-08"), stay("2026-12-20", "2027-01-05")], IN_2026)).toBe("Dec 7 - Dec 8; Dec 20, 2026 - Jan 5, 2027");
    expect(formatStays([stay("2027-06-01", "2027-06-30"), stay("2027-06-10", "2027-06-20"), stay("2027-08-01", "2027-08-10")], IN_2026)).toBe("Jun 1 - Jun 30, 2027; Aug 1 - Aug 10, 2027");
    expect(formatStays([], IN_2026)).toBe("");
  });

  it("a moment is the reader's calendar date; nothing for nothing", () => {
    expect(formatMomentDate(new Date(2026, 10, 30, 23, 30).toISOString(), IN_2026)).toBe("Nov 30");
    expect(formatMomentDate(new Date(2025, 10, 30, 8).getTime(), IN_2026)).toBe("Nov 30, 2025");
    expect(formatMomentDate(null)).toBeNull();
    expect(formatMomentDate("not a date")).toBeNull();
  });
});

describe("free dates", () => {
  const taken = (move_in: string, move_out: string) => ({ move_in, move_out });

  it("are the listing's dates less its paid stays; a move-out day is the next move-in", () => {
    expect(freeStays("2027-08-20", "2027-12-20", [])).toEqual([{ from: "2027-08-20", to: "2027-12-20" }]);
    expect(freeStays("2027-08-20", "2027-12-20", [taken("2027-10-01", "2027-11-01")])).toEqual([
      { from: "2027-08-20", to: "2027-10-01" },
      { from: "2027-11-01", to: "2027-12-20" },
    ]);
    // Back to back, out of order, overlapping the edges.
    expect(freeStays("2027-08-20", "2027-12-20", [taken("2027-11-01", "2028-01-10"), taken("2027-08-01", "2027-09-01"), taken("2027-09-01", "2027-10-01")])).toEqual([
      { from: "2027-10-01", to: "2027-11-01" },
    ]);
    expect(freeStays("2027-08-20", "2027-12-20", [taken("2027-08-20", "2027-12-20")])).toEqual([]);
    // A stay outside the dates changes nothing.
    expect(freeStays("2027-08-20", "2027-12-20", [taken("2027-01-01", "2027-02-01")])).toEqual([{ from: "2027-08-20", to: "2027-12-20" }]);
  });

  it("the card names the free parts, not the dates already taken", () => {
    const listing = { available_from: "2027-08-20", available_to: "2027-12-20" };
    expect(cardStay({ ...listing, taken_stays: [] })).toBe(formatStay("2027-08-20", "2027-12-20"));
    expect(cardStay({ ...listing, taken_stays: [taken("2027-10-01", "2027-11-01")] })).toBe(`Free ${formatStay("2027-08-20", "2027-10-01")}; ${formatStay("2027-11-01", "2027-12-20")}`);
    expect(cardStay({ ...listing, taken_stays: [taken("2027-09-01", "2027-09-10"), taken("2027-10-01", "2027-10-10"), taken("2027-11-01", "2027-11-10")] })).toMatch(/^Free .+ and 2 more$/);
    expect(cardStay({ ...listing, taken_stays: [taken("2027-08-20", "2027-12-20")] })).toBe("All dates taken");
    // A paid stay before the listing's dates leaves them whole; no dates, nothing to say.
    expect(cardStay({ ...listing, taken_stays: [taken("2027-01-01", "2027-02-01")] })).toBe(formatStay("2027-08-20", "2027-12-20"));
    expect(cardStay({ available_from: null, available_to: null, taken_stays: [] })).toBeNull();
  });
});

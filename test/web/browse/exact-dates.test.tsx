/** Exact dates (docs/decisions/021) on the listing form, in browse (URL, API call, chip), on cards and the listing page. */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatStay } from "@contract/dates";
import { nextTermDates } from "@contract/forms";
import { listingFormSchema } from "@contract/forms";
import { toBrowseParams } from "../../../web/features/browse/hooks/use-browse-filters";
import { fakeApi, makeOwnerListing, renderApp } from "../render";

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };
const API = "/api/v1";

// Dates show their year only when it is not the current one (contract/dates.ts): these are 2026's.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-01T12:00:00Z"));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("dates, pure", () => {
  it("formats a stay, with years only across a year or in another year than this one", () => {
    expect(formatStay("2026-05-20", "2026-08-10")).toBe("May 20 - Aug 10");
    expect(formatStay("2027-05-20", "2027-08-10")).toBe("May 20 - Aug 10, 2027");
    expect(formatStay("2026-12-20", "2027-01-05")).toBe("Dec 20, 2026 - Jan 5, 2027");
    expect(formatStay(null, "2026-08-10")).toBeNull();
    expect(formatStay("2026-02-30", "2026-08-10")).toBeNull();
  });

  it("gives a term's next typical dates", () => {
    expect(nextTermDates("summer", "2026-03-01")).toEqual({ from: "2026-05-15", to: "2026-08-15" });
    expect(nextTermDates("summer", "2026-06-01")).toEqual({ from: "2027-05-15", to: "2027-08-15" });
    expect(nextTermDates("fall", "2026-11-23")).toEqual({ from: "2027-08-20", to: "2027-12-20" });
    expect(nextTermDates("spring", "2026-11-23")).toEqual({ from: "2027-01-05", to: "2027-05-15" });
  });

  it("turns the URL's stay into the API's params (what the server render of / uses too), only when whole", () => {
    const params = (q: string) => toBrowseParams(new URLSearchParams(q));
    expect(params("from=2026-05-20&to=2026-08-10")).toMatchObject({ available_from: "2026-05-20", available_to: "2026-08-10" });
    expect(params("from=2026-05-20")).toMatchObject({ available_from: null, available_to: null });
    expect(params("from=2026-08-10&to=2026-05-20")).toMatchObject({ available_from: null, available_to: null });
  });

  it("the form checks both-or-neither and the order, with the API's messages", () => {
    const base = { title: "T", description: "D", unit_type: "2x2", monthly_rent: "800", address: "A", lease_term: "fall", university_id: "1" };
    const errors = (from: string, to: string) => {
      const r = listingFormSchema.safeParse({ ...base, available_from: from, available_to: to });
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(errors("", "")).toEqual({});
    expect(errors("2026-05-20", "2026-08-10")).toEqual({});
    expect(errors("2026-08-10", "2026-05-20")).toEqual({ available_to: '"Available to" must be after "Available from"' });
    expect(errors("2026-05-20", "")).toEqual({ available_to: 'Please also give "Available to" (both dates or neither)' });
  });
});

describe("browse: the stay needed", () => {
  const page = { data: [makeOwnerListing({ available_from: "2026-05-20", available_to: "2026-08-10" })], pagination: { next_token: null, has_more: false } };

  it("puts from/to in the URL and the API call, shows a chip, and the card shows the dates", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page });
    const { router } = renderApp("/");
    const card = (await screen.findByRole("heading", { name: "Listing 1" })).closest("article")!;
    expect(within(card).getByText("May 20 - Aug 10")).toBeInTheDocument();

    const stay = screen.getByRole("group", { name: "I need it" });
    fireEvent.change(within(stay).getByLabelText("From"), { target: { value: "2026-05-20" } });
    // Half a stay filters nothing yet.
    expect(calls.some((c) => c.url.includes("available_from"))).toBe(false);
    fireEvent.change(within(stay).getByLabelText("To"), { target: { value: "2026-08-10" } });
    await waitFor(() => expect(router.state.location.search).toContain("to=2026-08-10"));
    expect(router.state.location.search).toContain("from=2026-05-20");
    await waitFor(() => expect(calls.some((c) => c.url.includes("available_from=2026-05-20") && c.url.includes("available_to=2026-08-10"))).toBe(true));

    const chip = screen.getByRole("button", { name: "Remove filter: May 20 - Aug 10" });
    fireEvent.click(chip);
    await waitFor(() => expect(router.state.location.search).not.toContain("from="));
    expect(router.state.location.search).not.toContain("to=");
  });

  it("a card shows the dates still free once stays are paid for, never the taken ones (docs/decisions/039)", async () => {
    const taken = { ...page, data: [{ ...page.data[0]!, taken_stays: [{ move_in: "2026-06-01", move_out: "2026-07-01" }] }] };
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": taken });
    renderApp("/");
    const card = (await screen.findByRole("heading", { name: "Listing 1" })).closest("article")!;
    expect(within(card).getByText("Free May 20 - Jun 1; Jul 1 - Aug 10")).toBeInTheDocument();
    expect(within(card).queryByText("May 20 - Aug 10")).toBeNull();
  });

  it("reads the stay from a shared URL, and says when it is out of order", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page });
    renderApp("/?from=2026-05-20&to=2026-08-10&term=summer");
    await screen.findByRole("heading", { name: "Listing 1" });
    expect(calls.some((c) => c.url.includes("available_from=2026-05-20") && c.url.includes("lease_term=summer"))).toBe(true);
    expect(screen.getByRole("button", { name: "Remove filter: May 20 - Aug 10" })).toBeInTheDocument();

    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page });
    renderApp("/?from=2026-08-10&to=2026-05-20");
    expect(await screen.findByText("“To” must be after “From”")).toBeInTheDocument();
  });
});

describe("listing page: dates", () => {
  it("shows the dates when the owner gave them", async () => {
    fakeApi({
      [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ available_from: "2026-05-20", available_to: "2026-08-10" }) },
      [`GET ${API}/users/owner-1`]: { data: { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } },
    });
    renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1, name: /Listing 1/ });
    expect(screen.getByText("Available")).toBeInTheDocument();
    expect(screen.getAllByText("May 20 - Aug 10").length).toBeGreaterThan(0);
  });

  it("shows the year of dates in another year than this one", async () => {
    fakeApi({
      [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ available_from: "2027-05-20", available_to: "2027-08-10" }) },
      [`GET ${API}/users/owner-1`]: { data: { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } },
    });
    renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1, name: /Listing 1/ });
    expect(screen.getAllByText("May 20 - Aug 10, 2027").length).toBeGreaterThan(0);
  });
});

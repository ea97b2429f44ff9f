/** Distance to campus (docs/decisions/019) on cards and the listing page, the browse filter and sort, the form's coordinates. */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDistance } from "@contract/constants";
import { toBrowseParams } from "../../../web/features/browse/hooks/use-browse-filters";
import { fakeApi, makeOwnerListing, renderApp } from "../render";

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };
const API = "/api/v1";
const owner = { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("distance, pure", () => {
  it("says '1.2 mi to UF' with one decimal, and nothing when unknown", () => {
    expect(formatDistance(1.2, "UF")).toBe("1.2 mi to UF");
    expect(formatDistance(3, "FSU")).toBe("3.0 mi to FSU");
    expect(formatDistance(0.05, "UF")).toBe("0.1 mi to UF");
    expect(formatDistance(null, "UF")).toBeNull();
  });

  it("turns the URL's within into the API's within_miles, only when it is a distance the API takes", () => {
    const params = (q: string) => toBrowseParams(new URLSearchParams(q));
    expect(params("within=2")).toMatchObject({ within_miles: "2" });
    expect(params("within=0.5")).toMatchObject({ within_miles: "0.5" });
    expect(params("within=0.1")).toMatchObject({ within_miles: null });
    expect(params("within=near")).toMatchObject({ within_miles: null });
    expect(params("within=500")).toMatchObject({ within_miles: null });
  });
});

describe("cards and the listing page", () => {
  const page = (listings: ReturnType<typeof makeOwnerListing>[]) => ({ data: listings, pagination: { next_token: null, has_more: false } });

  it("a card shows the distance to its university; a card without one shows none", async () => {
    fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": page([
        makeOwnerListing({ id: "l1", title: "Near", distance_miles: 1.2 }),
        makeOwnerListing({ id: "l2", title: "Unknown", distance_miles: null }),
      ]),
    });
    renderApp("/");
    const near = (await screen.findByRole("heading", { name: "Near" })).closest("article")!;
    expect(within(near).getByText("1.2 mi to UF")).toBeInTheDocument();
    const unknown = screen.getByRole("heading", { name: "Unknown" }).closest("article")!;
    expect(within(unknown).queryByText(/mi to/)).toBeNull();
  });

  it("the listing page shows it, and nothing when the distance is unknown", async () => {
    fakeApi({
      [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ distance_miles: 0.4, university_abbreviation: "UF" }) },
      [`GET ${API}/users/owner-1`]: { data: owner },
    });
    renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1, name: /Listing 1/ });
    expect(screen.getByText("Distance to campus")).toBeInTheDocument();
    expect(screen.getAllByText("0.4 mi to UF").length).toBeGreaterThan(0);
  });

  it("the listing page without a distance has no distance row", async () => {
    fakeApi({
      [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ distance_miles: null }) },
      [`GET ${API}/users/owner-1`]: { data: owner },
    });
    renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1, name: /Listing 1/ });
    expect(screen.queryByText("Distance to campus")).toBeNull();
    expect(screen.queryByText(/mi to/)).toBeNull();
  });
});

describe("browse: within N miles and closest first", () => {
  const page = { data: [makeOwnerListing({ distance_miles: 0.8 })], pagination: { next_token: null, has_more: false } };

  it("the Within select puts within= in the URL and within_miles in the API call, with a removable chip", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page });
    const ui = userEvent.setup();
    const { router } = renderApp("/");
    await screen.findByRole("heading", { name: "Listing 1" });
    const select = screen.getByLabelText("Distance to campus");
    expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual(["Any distance", "Within 1 mi", "Within 2 mi", "Within 5 mi", "Within 10 mi"]);
    await ui.selectOptions(select, "2");
    await waitFor(() => expect(router.state.location.search).toContain("within=2"));
    await waitFor(() => expect(calls.some((c) => c.url.includes("within_miles=2"))).toBe(true));
    expect(screen.getByRole("button", { name: "Filters (1)" })).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Remove filter: Within 2 mi of campus" }));
    await waitFor(() => expect(router.state.location.search).not.toContain("within="));
    expect(select).toHaveValue("");
  });

  it("'Closest to campus' sorts by distance in the URL and the API call", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page });
    const ui = userEvent.setup();
    const { router } = renderApp("/");
    await screen.findByRole("heading", { name: "Listing 1" });
    await ui.selectOptions(screen.getByLabelText("Sort"), "Closest to campus");
    await waitFor(() => expect(router.state.location.search).toContain("sort=distance"));
    await waitFor(() => expect(calls.some((c) => c.url.includes("sort=distance"))).toBe(true));
    // Sorting is not a filter: no chip.
    expect(screen.queryByRole("button", { name: /Remove filter/ })).toBeNull();
  });

  it("reads within and the sort from a shared URL; a distance the API would refuse filters nothing", async () => {
    const calls = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page });
    renderApp("/?within=5&sort=distance");
    await screen.findByRole("heading", { name: "Listing 1" });
    expect(calls.some((c) => c.url.includes("within_miles=5") && c.url.includes("sort=distance"))).toBe(true);
    expect(screen.getByLabelText("Distance to campus")).toHaveValue("5");
    expect(screen.getByLabelText("Sort")).toHaveValue("distance");

    const refused = fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page });
    renderApp("/?within=0.1");
    await screen.findAllByRole("heading", { name: "Listing 1" });
    await waitFor(() => expect(refused.some((c) => c.url.includes("/subleases/"))).toBe(true));
    expect(refused.some((c) => c.url.includes("within_miles"))).toBe(false);
  });
});

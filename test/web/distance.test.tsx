/** Distance to campus (docs/decisions/019) on cards and the listing page, the browse filter and sort, the form's coordinates. */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDistance } from "@contract/constants";
import { toBrowseParams } from "../../web/features/browse/hooks/use-browse-filters";
import { callsOf, fakeApi, makeOwnerListing, makeUser, mockFetch, renderApp } from "./render";

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
    mockFetch({
      "/api/v1/universities/": universities,
      "/api/v1/subleases/": page([
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
    const calls = mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": page });
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
    const calls = mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": page });
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
    const calls = mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": page });
    renderApp("/?within=5&sort=distance");
    await screen.findByRole("heading", { name: "Listing 1" });
    expect(calls.some((c) => c.url.includes("within_miles=5") && c.url.includes("sort=distance"))).toBe(true);
    expect(screen.getByLabelText("Distance to campus")).toHaveValue("5");
    expect(screen.getByLabelText("Sort")).toHaveValue("distance");

    const refused = mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": page });
    renderApp("/?within=0.1");
    await screen.findAllByRole("heading", { name: "Listing 1" });
    await waitFor(() => expect(refused.some((c) => c.url.includes("/subleases/"))).toBe(true));
    expect(refused.some((c) => c.url.includes("within_miles"))).toBe(false);
  });
});

describe("listing form: the address's coordinates", () => {
  const verified = makeUser({ id: "owner-1", id_verification_status: "verified" });
  const suggestions = {
    data: [
      { description: "1 SW 13th St, Gainesville, FL", lat: 29.6495, lng: -82.3349, location_token: "v1.token-of-1-sw-13th" },
      { description: "13 Elm St, Gainesville, FL", lat: null, lng: null },
      // Coordinates without a token (a server that did not sign them): the server would refuse them.
      { description: "14 Oak St, Gainesville, FL", lat: 29.66, lng: -82.33 },
    ],
  };

  function editPage(listingOverrides: Parameters<typeof makeOwnerListing>[0] = {}) {
    const listing = makeOwnerListing({
      user_id: "owner-1",
      address: "100 Main St, Gainesville, FL",
      latitude: 29.651,
      longitude: -82.325,
      distance_miles: 1.4,
      pictures: ["/api/v1/images/listings/owner-1_a.jpg"],
      thumbnails: ["/api/v1/images/listings/owner-1_a.thumb.jpg"],
      ...listingOverrides,
    });
    const calls = fakeApi({
      [`GET ${API}/universities/`]: universities,
      [`GET ${API}/subleases/l1`]: { data: listing },
      [`GET ${API}/users/profile`]: { data: verified },
      [`GET ${API}/geo/autocomplete`]: suggestions,
      [`PATCH ${API}/subleases/l1`]: ({ body }: { body: Record<string, unknown> }) => ({ data: { ...listing, ...body } }),
    });
    renderApp("/edit/l1", { token: "t", user: verified });
    return calls;
  }
  const address = () => screen.getByRole("combobox", { name: "Address" });
  const patchBody = (calls: ReturnType<typeof fakeApi>) => callsOf(calls, `PATCH ${API}/subleases/l1`)[0]?.body as Record<string, unknown> | undefined;

  it("an edit that leaves the address sends no coordinates: the server keeps the stored ones", async () => {
    const calls = editPage();
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(patchBody(calls)).toBeDefined());
    const body = patchBody(calls)!;
    expect(body).toMatchObject({ address: "100 Main St, Gainesville, FL" });
    expect(body).not.toHaveProperty("latitude");
    expect(body).not.toHaveProperty("longitude");
    expect(body).not.toHaveProperty("location_token");
  });

  it("a picked suggestion sends its coordinates and their token with the address", async () => {
    const calls = editPage();
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    await ui.clear(address());
    await ui.type(address(), "1 SW 13");
    await ui.click(await screen.findByRole("option", { name: "1 SW 13th St, Gainesville, FL" }));
    expect(address()).toHaveValue("1 SW 13th St, Gainesville, FL");
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(patchBody(calls)).toBeDefined());
    expect(patchBody(calls)).toMatchObject({ address: "1 SW 13th St, Gainesville, FL", latitude: 29.6495, longitude: -82.3349, location_token: "v1.token-of-1-sw-13th" });
  });

  it("typing after a pick drops the picked coordinates and their token", async () => {
    const calls = editPage();
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    await ui.clear(address());
    await ui.type(address(), "1 SW 13");
    await ui.click(await screen.findByRole("option", { name: "1 SW 13th St, Gainesville, FL" }));
    await ui.type(address(), " Apt 4");
    expect(address()).toHaveValue("1 SW 13th St, Gainesville, FL Apt 4");
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(patchBody(calls)).toBeDefined());
    expect(patchBody(calls)).toMatchObject({ address: "1 SW 13th St, Gainesville, FL Apt 4", latitude: null, longitude: null, location_token: null });
  });

  it.each([
    ["the geocoder gave without coordinates", "13 Elm", "13 Elm St, Gainesville, FL"],
    ["with coordinates but no token (the server would refuse them)", "14 Oak", "14 Oak St, Gainesville, FL"],
  ])("a suggestion %s sends no coordinates", async (_, typed, option) => {
    const calls = editPage();
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    await ui.clear(address());
    await ui.type(address(), typed);
    await ui.click(await screen.findByRole("option", { name: option }));
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(patchBody(calls)).toBeDefined());
    expect(patchBody(calls)).toMatchObject({ address: option, latitude: null, longitude: null, location_token: null });
  });
});

/** Issue 27: browse's List / Map toggle and pins, the listing page's Location map (jsdom; the plain renderer). */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MapConfig } from "@contract/maps";
import { fitProjection, scaleBar } from "../../web/components/map/geometry";
import { spreadPins } from "../../web/components/map/map-view";
import { makeOwnerListing, makeUser, mockFetch, renderApp } from "./render";

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };
const config: MapConfig = { basemap: { kind: "none" }, campus: { name: "University of Florida", abbreviation: "UF", point: [29.64629, -82.347911] } };
const owner = { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true };
const page = (listings: unknown[]) => ({ data: listings, pagination: { next_token: null, has_more: false } });

/** A listing as the public reads it: no owner-only fields. */
function publicListing(overrides: Parameters<typeof makeOwnerListing>[0] = {}) {
  const { latitude: _lat, longitude: _lng, rejection_reason: _r, stripe_subscription_id: _s, ...rest } = makeOwnerListing(overrides);
  return rest;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("map geometry", () => {
  it("fits the points inside the view and picks a round scale", () => {
    const p = fitProjection([[29.64, -82.35], [29.66, -82.32]], 800, 450);
    for (const point of [[29.64, -82.35], [29.66, -82.32]] as [number, number][]) {
      const [x, y] = p.project(point);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(800);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(450);
    }
    // North is up.
    expect(p.project([29.66, -82.32])[1]).toBeLessThan(p.project([29.64, -82.35])[1]);
    const bar = scaleBar(p.unitsPerMetre, 160);
    expect(bar.units).toBeLessThanOrEqual(160);
    expect(bar.label).toMatch(/^(\d+ ft|[\d.]+ mi)$/);
  });
});

describe("pins that would cover each other", () => {
  it("are moved apart, so every pin stays a whole target (WCAG 2.5.8), even 16 at one point", () => {
    const pins = Array.from({ length: 16 }, (_, i) => ({ id: `p${i}`, point: [29.65, -82.34] as [number, number], label: `$${900 + i}`, name: `$${900 + i}/month` }));
    const placed = spreadPins(pins, () => [400, 225], 800, 450);
    const spots = pins.map((p) => placed.get(p.id)!);
    for (let i = 0; i < spots.length; i++) {
      for (let j = i + 1; j < spots.length; j++) {
        const [a, b] = [spots[i]!, spots[j]!];
        // Far enough apart on one axis at least: no two boxes share any area.
        expect(Math.abs(a[0] - b[0]) >= 40 || Math.abs(a[1] - b[1]) >= 40, `${i} and ${j}`).toBe(true);
      }
    }
  });
});

describe("browse: List / Map", () => {
  const listings = [
    publicListing({ id: "l1", title: "Renovated 3x2", monthly_rent: 1030, approx_point: [29.651, -82.33] }),
    publicListing({ id: "l2", title: "Quiet studio", monthly_rent: 760, approx_point: [29.642, -82.36], promoted: true }),
    publicListing({ id: "l3", title: "No place yet", monthly_rent: 500, approx_point: null }),
  ];

  it("keeps every filter in the URL, shows a pin per listing with its price, featured marked, the campus, and the list below", async () => {
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": page(listings), "/api/v1/maps/config": config });
    const { router } = renderApp("/?university=1&term=fall&max=1200");
    await screen.findByRole("heading", { name: "Renovated 3x2" });
    expect(screen.queryByRole("region", { name: "Map of these listings" })).toBeNull();
    fireEvent.click(screen.getByRole("link", { name: "Map" }));
    await waitFor(() => expect(router.state.location.search).toContain("view=map"));
    const search = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(search)).toEqual({ university: "1", term: "fall", max: "1200", view: "map" });
    const map = await screen.findByRole("region", { name: "Map of these listings" });
    const pin = await within(map).findByRole("button", { name: "$1,030/month, Renovated 3x2" });
    expect(pin).toHaveTextContent("$1,030");
    const featured = within(map).getByRole("button", { name: "$760/month, Quiet studio" });
    expect(featured).toHaveClass("map-pin-featured");
    expect(pin).not.toHaveClass("map-pin-featured");
    expect(within(map).queryByRole("button", { name: /No place yet/ })).toBeNull();
    expect(await within(map).findByRole("img", { name: "UF campus" })).toBeInTheDocument();
    expect(within(map).getByText("Map preview: no basemap configured")).toBeInTheDocument();
    expect(screen.getByText(/1 listing has no location and is only in the list below/)).toBeInTheDocument();
    // The cards are still listed (the map is never the only way).
    expect(screen.getByRole("heading", { name: "No place yet" })).toBeInTheDocument();
    // Back to the list: the filters stay, the map goes.
    fireEvent.click(screen.getByRole("link", { name: "List" }));
    await waitFor(() => expect(router.state.location.search).not.toContain("view=map"));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ university: "1", term: "fall", max: "1200" });
    await waitFor(() => expect(screen.queryByRole("region", { name: "Map of these listings" })).toBeNull());
  });

  it("a pin opens its listing's card in a panel; Escape closes it and focus returns to the pin", async () => {
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": page(listings), "/api/v1/maps/config": config });
    renderApp("/?view=map");
    const map = await screen.findByRole("region", { name: "Map of these listings" });
    const pin = await within(map).findByRole("button", { name: "$1,030/month, Renovated 3x2" });
    fireEvent.click(pin);
    const panel = await within(map).findByRole("group", { name: "Selected listing: $1,030/month, Renovated 3x2" });
    expect(within(panel).getByRole("heading", { name: "Renovated 3x2" })).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: /Renovated 3x2/ })).toHaveAttribute("href", expect.stringContaining("/listing/l1"));
    expect(pin).toHaveAttribute("aria-pressed", "true");
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(within(map).queryByRole("group")).toBeNull());
    await waitFor(() => expect(pin).toHaveFocus());
    // Close does the same.
    fireEvent.click(pin);
    fireEvent.click(await within(map).findByRole("button", { name: "Close" }));
    await waitFor(() => expect(within(map).queryByRole("group")).toBeNull());
  });

  it("draws the plain map without a campus when the config cannot be read", async () => {
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": page(listings) });
    renderApp("/?view=map");
    const map = await screen.findByRole("region", { name: "Map of these listings" });
    expect(await within(map).findByRole("button", { name: "$760/month, Quiet studio" })).toBeInTheDocument();
    expect(within(map).queryByRole("img", { name: "UF campus" })).toBeNull();
  });
});

describe("the listing page's Location", () => {
  const routes = (listing: unknown) => ({ "/api/v1/subleases/l1": { data: listing }, "/api/v1/users/owner-1": { data: owner }, "/api/v1/maps/config": config });

  it("the public sees an area of about 200 m round the approximate point, the campus and the distance", async () => {
    mockFetch(routes(publicListing({ approx_point: [29.6515, -82.3251], distance_miles: 0.6 })));
    renderApp("/listing/l1");
    const section = (await screen.findByRole("heading", { name: "Location" })).closest("section")!;
    expect(within(section).getByText("0.6 mi to UF")).toBeInTheDocument();
    const map = await within(section).findByRole("region", { name: "Map: Listing 1 and campus" });
    await waitFor(() => expect(map.querySelector("[data-testid=map-area]")).not.toBeNull());
    expect(within(map).queryByRole("img", { name: /exact location/ })).toBeNull();
    expect(await within(map).findByRole("img", { name: "UF campus" })).toBeInTheDocument();
    expect(within(section).getByText("The shaded circle shows an area of about 200 m around the place.")).toBeInTheDocument();
  });

  it("the owner sees the exact point, not the circle", async () => {
    mockFetch(routes(makeOwnerListing({ latitude: 29.651234, longitude: -82.325678, approx_point: [29.6515, -82.3251], distance_miles: 0.6 })));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    const section = (await screen.findByRole("heading", { name: "Location" })).closest("section")!;
    const map = await within(section).findByRole("region", { name: "Map: Listing 1 and campus" });
    expect(await within(map).findByRole("img", { name: "Listing 1: exact location" })).toBeInTheDocument();
    expect(map.querySelector("[data-testid=map-area]")).toBeNull();
    expect(within(section).getByText(/The exact point is shown to you and our team only/)).toBeInTheDocument();
  });

  it("a listing without coordinates shows no map, and says so", async () => {
    mockFetch(routes(publicListing({ approx_point: null })));
    renderApp("/listing/l1");
    const section = (await screen.findByRole("heading", { name: "Location" })).closest("section")!;
    expect(within(section).getByText("Location not on the map")).toBeInTheDocument();
    expect(within(section).queryByRole("region")).toBeNull();
  });
});

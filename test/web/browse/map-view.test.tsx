/** Maps (docs/decisions/024): browse's List / Map toggle and pins, the listing page's Location map (jsdom; the plain renderer). */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MapConfig, MapPoint } from "@contract/maps";
import { createQueryClient } from "../../../web/app/providers";
import { cardOf } from "../../../web/components/listing-card";
import { BrowseMap } from "../../../web/components/map/browse-map";
import { clusterName, layoutPins } from "../../../web/components/map/cluster";
import { fitProjection, scaleBar } from "../../../web/components/map/geometry";
import type { MapPin } from "../../../web/components/map/types";
import { ToastProvider } from "../../../web/components/ui/toast";
import { fakeApi, makeOwnerListing, makeUser, notFound, renderApp } from "../render";

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

/** Campuses far apart: Gainesville, Tallahassee, Austin. */
const UF: MapPoint = [29.64629, -82.347911];
const FSU: MapPoint = [30.4419, -84.2985];
const UT: MapPoint = [30.2849, -97.7341];
/** `n` points within about 3 mi of `centre` (a spiral, so none coincide). */
const around = (centre: MapPoint, n: number): MapPoint[] =>
  Array.from({ length: n }, (_, i) => [centre[0] + 0.04 * (i / n) * Math.sin(i * 2.4), centre[1] + 0.04 * (i / n) * Math.cos(i * 2.4)]);
const pinsAt = (points: MapPoint[], area: string, from = 0): MapPin[] =>
  points.map((point, i) => ({ id: `${area}-${from + i}`, point, label: `$${900 + i}`, name: `$${900 + i}/month`, area }));
/** A marker's box in drawing units, as the layout sizes it at 0.75 px a unit. */
const boxOf = (pins: MapPin[]) => (pins.length > 1 ? [Math.max(34, String(pins.length).length * 9 + 22), 34] : [pins[0]!.label.length * 8 + (pins[0]!.featured ? 34 : 22), 34]).map((v) => v / 0.75);

describe("pins that would cover each other", () => {
  it("become one cluster at a national extent, and no pin is moved more than one pin width; no two markers overlap", () => {
    const pins = [...pinsAt(around(UF, 12), "UF"), ...pinsAt(around(FSU, 3), "FSU"), ...pinsAt(around(UT, 1), "UT")];
    const projection = fitProjection(
      pins.map((p) => p.point),
      800,
      450,
      0,
      56,
    );
    const markers = layoutPins(pins, projection.project, [800, 450], 0.75);
    // Every pin is drawn once.
    expect(markers.flatMap((m) => m.pins.map((p) => p.id)).sort()).toEqual(pins.map((p) => p.id).sort());
    const uf = markers.find((m) => m.pins.some((p) => p.area === "UF"))!;
    expect(uf.pins).toHaveLength(12);
    expect(clusterName(uf.pins)).toBe("12 listings near UF");
    // The cluster sits at its pins' mean place: Gainesville, east of Tallahassee, far east of Austin.
    const mean = uf.pins.map((p) => projection.project(p.point)).reduce(([x, y], [a, b]) => [x + a / 12, y + b / 12], [0, 0]);
    expect(Math.hypot(uf.at[0] - mean[0], uf.at[1] - mean[1])).toBeLessThan(1);
    const fsu = markers.find((m) => m.pins.some((p) => p.area === "FSU"))!;
    const ut = markers.find((m) => m.pins.some((p) => p.area === "UT"))!;
    expect(ut.at[0]).toBeLessThan(fsu.at[0]);
    expect(fsu.at[0]).toBeLessThan(uf.at[0]);
    for (const m of markers) {
      if (m.pins.length === 1) {
        const [x, y] = projection.project(m.pins[0]!.point);
        expect(Math.hypot(m.at[0] - x, m.at[1] - y), m.key).toBeLessThanOrEqual(boxOf(m.pins)[0]!);
      }
    }
    expect(clusterName([{ area: "UF" }, { area: "FSU" }])).toBe("2 listings");
  });

  it("close together in a town: slight overlaps are nudged apart (at most one pin width), heavy ones clustered, every marker a whole target", () => {
    // A grid of pins about a pin's height apart, some on top of each other.
    const points: MapPoint[] = Array.from({ length: 30 }, (_, i) => [29.64 + (i % 6) * 0.0012, -82.35 + Math.floor(i / 6) * 0.0009 + (i % 3) * 0.0001]);
    const pins = [...pinsAt(points, "UF"), ...pinsAt([[29.645, -82.345], [29.645, -82.345]], "UF", 30)];
    const projection = fitProjection(
      pins.map((p) => p.point),
      400,
      460,
      0,
      56,
    );
    const markers = layoutPins(pins, projection.project, [400, 460], 0.75);
    expect(markers.flatMap((m) => m.pins)).toHaveLength(32);
    // The two pins at one point cannot both be drawn there: they are (in) a cluster.
    expect(markers.find((m) => m.pins.some((p) => p.id === "UF-30"))!.pins.length).toBeGreaterThan(1);
    for (let i = 0; i < markers.length; i++) {
      const a = markers[i]!;
      const [aw, ah] = boxOf(a.pins);
      // At least 24 x 24 px (0.75 px a unit at the smallest).
      expect(aw! * 0.75).toBeGreaterThanOrEqual(24);
      expect(ah! * 0.75).toBeGreaterThanOrEqual(24);
      if (a.pins.length === 1) {
        const [x, y] = projection.project(a.pins[0]!.point);
        expect(Math.hypot(a.at[0] - x, a.at[1] - y), a.key).toBeLessThanOrEqual(aw!);
      }
      for (let j = i + 1; j < markers.length; j++) {
        const b = markers[j]!;
        const [bw, bh] = boxOf(b.pins);
        const apart = Math.abs(a.at[0] - b.at[0]) >= (aw! + bw!) / 2 || Math.abs(a.at[1] - b.at[1]) >= (ah! + bh!) / 2;
        expect(apart, `${a.key} and ${b.key}`).toBe(true);
      }
    }
  });
});

describe("the campus label", () => {
  it("is kept clear: a cluster whose place is on it is nudged off it, by no more than its own width", () => {
    const pins = [...pinsAt(around(UF, 12), "UF"), ...pinsAt(around(FSU, 3), "FSU")];
    const projection = fitProjection(
      [...pins.map((p) => p.point), UF],
      800,
      450,
      0,
      56,
    );
    const label = "★ UF";
    const box = (m: { pins: MapPin[] }) => boxOf(m.pins);
    const campus = projection.project(UF);
    const campusBox = [(label.length * 8 + 22) / 0.75, 34 / 0.75];
    const covers = (m: { pins: MapPin[]; at: [number, number] }) =>
      Math.abs(m.at[0] - campus[0]) < (box(m)[0]! + campusBox[0]!) / 2 && Math.abs(m.at[1] - campus[1]) < (box(m)[1]! + campusBox[1]!) / 2;
    // Without the label to keep clear the cluster sits on the campus (the pins are around it).
    const plain = layoutPins(pins, projection.project, [800, 450], 0.75);
    expect(plain.filter(covers).map((m) => m.key)).not.toEqual([]);
    const markers = layoutPins(pins, projection.project, [800, 450], 0.75, [{ point: UF, label }]);
    expect(markers.filter(covers).map((m) => m.key)).toEqual([]);
    const uf = markers.find((m) => m.pins.some((p) => p.area === "UF"))!;
    expect(uf.pins).toHaveLength(12);
    const mean = uf.pins.map((p) => projection.project(p.point)).reduce(([x, y], [a, b]) => [x + a / 12, y + b / 12], [0, 0]);
    expect(Math.hypot(uf.at[0] - mean[0], uf.at[1] - mean[1])).toBeLessThanOrEqual(box(uf)[0]! + 0.5);
  });
});

describe("browse: List / Map", () => {
  const listings = [
    publicListing({ id: "l1", title: "Renovated 3x2", monthly_rent: 1030, approx_point: [29.651, -82.33] }),
    publicListing({ id: "l2", title: "Quiet studio", monthly_rent: 760, approx_point: [29.642, -82.36], promoted: true }),
    publicListing({ id: "l3", title: "No place yet", monthly_rent: 500, approx_point: null }),
  ];

  it("keeps every filter in the URL, shows a pin per listing with its price, featured marked, the campus, and the list below", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page(listings), "GET /api/v1/maps/config": config });
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
    expect(screen.getByText("Each pin is within about 200 m of the place. 1 listing has no location and is only in the list below.")).toBeInTheDocument();
    // The cards are still listed (the map is never the only way).
    expect(screen.getByRole("heading", { name: "No place yet" })).toBeInTheDocument();
    // Back to the list: the filters stay, the map goes.
    fireEvent.click(screen.getByRole("link", { name: "List" }));
    await waitFor(() => expect(router.state.location.search).not.toContain("view=map"));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ university: "1", term: "fall", max: "1200" });
    await waitFor(() => expect(screen.queryByRole("region", { name: "Map of these listings" })).toBeNull());
  });

  it("a pin opens its listing's card in a panel; Escape closes it and focus returns to the pin", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page(listings), "GET /api/v1/maps/config": config });
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

  it("with no listings at all, the map shows the campus and no caption (the empty state below speaks)", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page([]), "GET /api/v1/maps/config": config });
    renderApp("/?view=map&university=1");
    const map = await screen.findByRole("region", { name: "Map of these listings" });
    expect(await within(map).findByRole("img", { name: "UF campus" })).toBeInTheDocument();
    expect(await screen.findByText("No listings match your search")).toBeInTheDocument();
    expect(screen.queryByText(/on the map yet|Each pin is within/)).toBeNull();
  });

  it("draws the plain map without a campus when the config cannot be read", async () => {
    fakeApi({ "GET /api/v1/maps/config": notFound, "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": page(listings) });
    renderApp("/?view=map");
    const map = await screen.findByRole("region", { name: "Map of these listings" });
    expect(await within(map).findByRole("button", { name: "$760/month, Quiet studio" })).toBeInTheDocument();
    expect(within(map).queryByRole("img", { name: "UF campus" })).toBeNull();
  });
});

describe("browse map: all universities", () => {
  const noCampus: MapConfig = { basemap: { kind: "none" }, campus: null };
  const listingsAt = (points: MapPoint[], uni: { id: number; abbreviation: string }, from: number) =>
    points.map((point, i) =>
      cardOf(
        publicListing({ id: `${uni.abbreviation}-${from + i}`, title: `${uni.abbreviation} place ${from + i}`, monthly_rent: 700 + i * 10, approx_point: point, university_id: uni.id, university_abbreviation: uni.abbreviation }) as Parameters<typeof cardOf>[0],
      ),
    );
  const all = [...listingsAt(around(UF, 12), { id: 1, abbreviation: "UF" }, 0), ...listingsAt([FSU], { id: 2, abbreviation: "FSU" }, 0), ...listingsAt([UT], { id: 3, abbreviation: "UT" }, 0)];
  const renderMap = (more: boolean) => {
    fakeApi({ "GET /api/v1/maps/config": noCampus });
    return render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <MemoryRouter>
            <BrowseMap listings={all} university={null} back="/?view=map" more={more} />
          </MemoryRouter>
        </ToastProvider>
      </QueryClientProvider>,
    );
  };

  it("groups one campus's listings into a cluster that opens their cards; Escape gives focus back to it", async () => {
    renderMap(false);
    const map = await screen.findByRole("region", { name: "Map of these listings" });
    const cluster = await within(map).findByRole("button", { name: "12 listings near UF" });
    expect(cluster).toHaveTextContent(/^12$/);
    // The other campuses' single pins stay pins.
    expect(within(map).getByRole("button", { name: "$700/month, FSU place 0" })).toBeInTheDocument();
    expect(within(map).getByRole("button", { name: "$700/month, UT place 0" })).toBeInTheDocument();
    expect(within(map).getAllByRole("button")).toHaveLength(3);
    // Placed at the mean of its pins: east of (right of) FSU's pin, which is right of UT's.
    const left = (el: HTMLElement) => parseFloat(el.style.left);
    expect(left(cluster)).toBeGreaterThan(left(within(map).getByRole("button", { name: /FSU place 0/ })));
    expect(left(within(map).getByRole("button", { name: /FSU place 0/ }))).toBeGreaterThan(left(within(map).getByRole("button", { name: /UT place 0/ })));
    // A native button: Enter and Space press it.
    expect(cluster.tagName).toBe("BUTTON");
    fireEvent.click(cluster);
    const panel = await within(map).findByRole("group", { name: "Selected: 12 listings near UF" });
    expect(within(panel).getByText("12 listings near UF")).toBeInTheDocument();
    expect(within(panel).getAllByRole("listitem").filter((li) => li.parentElement?.classList.contains("map-panel-list"))).toHaveLength(12);
    expect(within(panel).getByRole("heading", { name: "UF place 0" })).toBeInTheDocument();
    expect(within(panel).getByRole("heading", { name: "UF place 11" })).toBeInTheDocument();
    expect(within(panel).queryByRole("heading", { name: "FSU place 0" })).toBeNull();
    expect(cluster).toHaveAttribute("aria-pressed", "true");
    fireEvent.keyDown(document, { key: "Escape" });
    await waitFor(() => expect(within(map).queryByRole("group")).toBeNull());
    await waitFor(() => expect(cluster).toHaveFocus());
    // A single pin still opens its one card.
    fireEvent.click(within(map).getByRole("button", { name: "$700/month, FSU place 0" }));
    expect(await within(map).findByRole("group", { name: "Selected listing: $700/month, FSU place 0" })).toBeInTheDocument();
    expect(screen.getByText("Each pin is within about 200 m of the place.")).toBeInTheDocument();
  });

  it("says only the loaded listings are plotted when Load More has more", async () => {
    renderMap(true);
    expect(await screen.findByText("Each pin is within about 200 m of the place. Showing the 14 listings loaded so far; Load More below adds more.")).toBeInTheDocument();
  });
});

describe("the listing page's Location", () => {
  const routes = (listing: unknown) => ({ "GET /api/v1/subleases/l1": { data: listing }, "GET /api/v1/users/owner-1": { data: owner }, "GET /api/v1/maps/config": config });

  it("the public sees an area of about 200 m round the approximate point, the campus and the distance", async () => {
    fakeApi(routes(publicListing({ approx_point: [29.6515, -82.3251], distance_miles: 0.6 })));
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
    fakeApi(routes(makeOwnerListing({ latitude: 29.651234, longitude: -82.325678, approx_point: [29.6515, -82.3251], distance_miles: 0.6 })));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    const section = (await screen.findByRole("heading", { name: "Location" })).closest("section")!;
    const map = await within(section).findByRole("region", { name: "Map: Listing 1 and campus" });
    expect(await within(map).findByRole("img", { name: "Listing 1: exact location" })).toBeInTheDocument();
    expect(map.querySelector("[data-testid=map-area]")).toBeNull();
    expect(
      within(section).getByText("On the map, only you and our team see the exact point; everyone else sees an area of about 200 m and the street without the house number."),
    ).toBeInTheDocument();
  });

  it("a listing without coordinates shows no map, and says so", async () => {
    fakeApi(routes(publicListing({ approx_point: null })));
    renderApp("/listing/l1");
    const section = (await screen.findByRole("heading", { name: "Location" })).closest("section")!;
    expect(within(section).getByText("Location not on the map")).toBeInTheDocument();
    expect(within(section).queryByRole("region")).toBeNull();
  });
});

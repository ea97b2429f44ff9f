import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { OwnerListing } from "@contract/listings";
import { safeBack } from "../../../web/features/listing/components/listing-page";
import { Carousel, PLACEHOLDER_IMAGE } from "../../../web/components/ui/carousel";
import { render } from "@testing-library/react";
import { type ApiCall, fakeApi, makeOwnerListing, makeUser, notFound, renderApp } from "../render";

function makeListing(i: number, overrides: Partial<OwnerListing> = {}): OwnerListing {
  return makeOwnerListing({
    id: `l${i}`,
    title: `Listing ${i}`,
    monthly_rent: 500 + i,
    pictures: [`/api/v1/images/listings/p${i}.jpg`],
    thumbnails: [`/api/v1/images/listings/p${i}.thumb.jpg`],
    ...overrides,
  });
}

const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };

describe("browse page", () => {
  it("shows 12 cards from a first page of 12, fetches the next page ahead, and Load More shows it", async () => {
    const requests: string[] = [];
    fakeApi({
      "GET /api/v1/universities/": universities,
      "GET /api/v1/subleases/": ({ url }: ApiCall) => {
        // The Featured row's call answers nothing promoted here.
        if (url.includes("promoted=only")) return { data: [], pagination: { next_token: null, has_more: false } };
        requests.push(url);
        const second = url.includes("last_evaluated_key=page2");
        const limit = Number(new URL(url, "http://x").searchParams.get("limit"));
        const data = Array.from({ length: second ? 5 : limit }, (_, i) => makeListing(second ? 100 + i : i));
        return { data, pagination: { next_token: second ? null : "page2", has_more: !second } };
      },
    });
    const user = userEvent.setup();
    renderApp("/?university=1&term=fall&parking=true");
    await screen.findByText("Listing 0");
    expect(screen.getAllByRole("article")).toHaveLength(12);
    expect(requests[0]).toContain("university_id=1");
    expect(requests[0]).toContain("lease_term=fall");
    expect(requests[0]).toContain("parking=true");
    // The first page is the first screen (docs/decisions/023); the next, of 40, is fetched ahead when idle.
    expect(requests[0]).toContain("limit=12");
    expect(requests[0]).toContain("promoted=in_order");
    expect(screen.getAllByRole("link", { name: /Listing 0/ })[0]).toHaveAttribute("href", `/listing/l0?back=${encodeURIComponent("/?university=1&term=fall&parking=true")}`);
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]).toContain("last_evaluated_key=page2");
    expect(requests[1]).toContain("limit=40");
    expect(screen.getAllByRole("article")).toHaveLength(12);
    await user.click(screen.getByRole("button", { name: "Load More" }));
    await screen.findByText("Listing 104");
    expect(screen.getAllByRole("article")).toHaveLength(17);
    expect(requests).toHaveLength(2);
    expect(screen.queryByRole("button", { name: "Load More" })).toBeNull();
  });

  it("a card names the street and area the API answered (decision 024)", async () => {
    const card = makeListing(1, { address: "Bleecker St, New York, NY 10003" });
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data: [card], pagination: { next_token: null, has_more: false } } });
    renderApp("/");
    await screen.findByText("Listing 1");
    const [article] = screen.getAllByRole("article");
    expect(within(article!).getByText("Bleecker St, New York, NY 10003")).toHaveClass("listing-card-area");
  });

  it("writes filter changes to the query string and shows a real empty state", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const user = userEvent.setup();
    const { router } = renderApp("/");
    await screen.findByText("No listings match your search");
    await user.selectOptions(screen.getByLabelText("Unit type"), "studio");
    await user.click(screen.getByLabelText("Pets allowed"));
    expect(router.state.location.search).toBe("?unitType=studio&pets=true");
    await user.click(screen.getAllByRole("button", { name: "Clear filters" })[0]!);
    expect(router.state.location.search).toBe("");
  });

  it("Clear filters keeps the map view: it is a view, not a filter", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/maps/config": notFound, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const user = userEvent.setup();
    const { router } = renderApp("/?view=map&pets=true&term=fall");
    await screen.findByText("No listings match your search");
    await user.click(screen.getAllByRole("button", { name: "Clear filters" })[0]!);
    expect(router.state.location.search).toBe("?view=map");
  });
});

describe("listing page", () => {
  const routes = (listing: OwnerListing) => ({
    "GET /api/v1/subleases/l1": { data: listing },
    "GET /api/v1/users/owner-1": { data: { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } },
    "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
  });

  it("visitor: message is locked with the spec's sentence and no favourite button; Back follows ?back", async () => {
    fakeApi(routes(makeListing(1)));
    renderApp("/listing/l1?back=%2F%3Funiversity%3D1");
    await screen.findByRole("heading", { level: 1, name: /Listing 1/ });
    expect(screen.getByText("Create an account or sign in to message others")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add to favorites" })).toBeNull();
    expect(screen.getByRole("link", { name: "← Back" })).toHaveAttribute("href", "/?university=1");
    expect(screen.getByText("$501")).toBeInTheDocument();
  });

  it("signed-in non-owner can message and favourite; the owner sees (You) and no contact buttons", async () => {
    fakeApi(routes(makeListing(1)));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "someone-else" }) });
    expect(await screen.findByRole("link", { name: "Message Jordan" })).toHaveAttribute("href", "/messages?userId=owner-1&listingId=l1");
    expect(await screen.findByRole("button", { name: "Add to favorites" })).toBeInTheDocument();
  });

  it("owner variant", async () => {
    fakeApi(routes(makeListing(1)));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    await screen.findAllByText("(You)");
    expect(screen.queryByRole("link", { name: /Message/ })).toBeNull();
    expect(screen.getByRole("link", { name: "Edit listing" })).toHaveAttribute("href", "/edit/l1");
  });

  it("says 'Listing not found' for an unknown listing", async () => {
    fakeApi({ "GET /api/v1/subleases/missing": notFound });
    renderApp("/listing/missing");
    expect(await screen.findByRole("heading", { level: 1, name: "Listing not found" })).toBeInTheDocument();
  });

  it("never follows a back link off the site", () => {
    expect(safeBack("/?term=fall")).toBe("/?term=fall");
    expect(safeBack("https://evil.example")).toBe("/");
    expect(safeBack("//evil.example")).toBe("/");
    expect(safeBack(null)).toBe("/");
    // Paths browsers read as another host: a backslash, an encoded tab or slash, a control character.
    for (const trick of ["/\\evil.example", "/%09/evil.example", "/%2F/evil.example", "/%5Cevil.example", "/\t/evil.example", "/%E0%A4%A"]) {
      expect(safeBack(trick), trick).toBe("/");
    }
    expect(safeBack("/favorites")).toBe("/favorites");
    expect(safeBack("/?university=4&q=quiet%20room#top")).toBe("/?university=4&q=quiet%20room#top");
  });
});

describe("carousel", () => {
  it("moves with arrow keys (locked for 300 ms) and shows a placeholder for a broken image", () => {
    vi.useFakeTimers();
    render(<Carousel images={["/a.jpg", "/b.jpg", "/c.jpg"]} alt="Room" />);
    const group = screen.getByRole("group");
    expect(group).toHaveAccessibleName("Room: photo 1 of 3");
    act(() => group.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true })));
    expect(group).toHaveAccessibleName("Room: photo 2 of 3");
    act(() => group.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true })));
    expect(group).toHaveAccessibleName("Room: photo 2 of 3");
    act(() => vi.advanceTimersByTime(300));
    act(() => group.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft", bubbles: true })));
    expect(group).toHaveAccessibleName("Room: photo 1 of 3");
    const img = within(group).getByRole("img");
    act(() => img.dispatchEvent(new Event("error")));
    expect(within(group).getByRole("img")).toHaveAttribute("src", PLACEHOLDER_IMAGE);
  });
});

describe("filters", () => {
  it("keep two quick changes made before a re-render", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const { router } = renderApp("/");
    await screen.findByText("No listings match your search");
    const unit = screen.getByLabelText("Unit type") as HTMLSelectElement;
    const sort = screen.getByLabelText("Sort") as HTMLSelectElement;
    // Both change events fire in one task, before React re-renders the filter bar.
    act(() => {
      unit.value = "studio";
      unit.dispatchEvent(new Event("change", { bubbles: true }));
      sort.value = "price_asc";
      sort.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await waitFor(() => expect(router.state.location.search).toBe("?unitType=studio&sort=price_asc"));
  });
});


describe("formatRent", () => {
  it("groups thousands like en-US, without Intl on the first load", async () => {
    const { formatRent } = await import("../../../web/lib/listings-api");
    const dollars = new Intl.NumberFormat("en-US");
    for (const rent of [0, 5, 950, 1030, 12_000, 999_999, 1_234_567]) expect(formatRent(rent)).toBe(`$${dollars.format(rent)}`);
    expect(formatRent(1250.5)).toBe("$1,250.5");
  });
});

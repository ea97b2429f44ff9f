/** Own listings, browse chips and count, the listing page on a phone (the listing form is in listing-form/). */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OwnerListing } from "@contract/listings";
import { resultsCount } from "../../../web/features/browse/components/browse-page";
import { fakeApi, makeOwnerListing, makeUser, renderApp } from "../render";

const universities = { data: [{ id: 1, name: "University of Texas at Austin", abbreviation: "UT Austin" }] };

afterEach(() => vi.unstubAllGlobals());

describe("browse", () => {
  it("shows active filters as chips naming their values; removing one updates the query string", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
    const ui = userEvent.setup();
    const { router } = renderApp("/?university=1&term=summer&pets=true&sort=price_asc");
    const chips = await screen.findByRole("list", { name: "Active filters" });
    await waitFor(() => expect(within(chips).getAllByRole("button").map((b) => b.textContent)).toEqual(["UT Austin ×", "Summer ×", "Pets allowed ×"]));
    await ui.click(screen.getByRole("button", { name: "Remove filter: Summer" }));
    expect(router.state.location.search).toBe("?university=1&pets=true&sort=price_asc");
    await ui.click(screen.getByRole("button", { name: "Remove filter: UT Austin" }));
    await ui.click(screen.getByRole("button", { name: "Remove filter: Pets allowed" }));
    expect(router.state.location.search).toBe("?sort=price_asc");
    expect(screen.queryByRole("list", { name: "Active filters" })).toBeNull();
  });

  it("words the count honestly: a floor while more pages exist, else exact", async () => {
    expect(resultsCount(40, true)).toBe("40+ listings");
    expect(resultsCount(25, false)).toBe("25 listings");
    expect(resultsCount(1, false)).toBe("1 listing");
    const data = Array.from({ length: 40 }, (_, i) => makeOwnerListing({ id: `l${i}`, title: `Listing ${i}` }));
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/subleases/": { data, pagination: { next_token: "p2", has_more: true } } });
    renderApp("/");
    expect(await screen.findByText("40+ listings")).toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).toBeNull();
  });
});

describe("listing page", () => {
  const routes = (listing: OwnerListing) => ({
    "GET /api/v1/subleases/l1": { data: listing },
    "GET /api/v1/users/owner-1": { data: { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } },
    "GET /api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
  });
  const listing = () => makeOwnerListing({ id: "l1", title: "Sunny room", monthly_rent: 845 });
  /** A phone: every `max-width` query matches. */
  const phone = () =>
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("max-width"), media: query, addEventListener() {}, removeEventListener() {} }));

  it("puts '(You)' beside the owner's name on the contact card, not in the title", async () => {
    fakeApi(routes(listing()));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    const heading = await screen.findByRole("heading", { level: 1 });
    expect(heading).toHaveTextContent(/^Sunny room$/);
    expect(within(screen.getByRole("complementary", { name: "Contact" })).getByText("(You)")).toBeInTheDocument();
  });

  it("on a phone, keeps the rent and the one action in a bottom bar: Message, Edit for the owner, the locked Message for visitors", async () => {
    phone();
    fakeApi(routes(listing()));
    const first = renderApp("/listing/l1", { token: "t", user: makeUser({ id: "someone-else" }) });
    let bar = await screen.findByRole("region", { name: "Rent and contact" });
    expect(bar).toHaveClass("listing-sticky-bar");
    expect(bar).toHaveTextContent("$845 / month");
    expect(within(bar).getByRole("link", { name: "Message Jordan" })).toHaveAttribute("href", "/messages?userId=owner-1&listingId=l1");
    // One control per action: the contact card keeps the favourite, not a second Message.
    expect(screen.getAllByRole("link", { name: "Message Jordan" })).toHaveLength(1);
    const card = screen.getByRole("complementary", { name: "Contact" });
    expect(within(card).getByRole("button", { name: /favorites/i })).toBeInTheDocument();
    first.unmount();
    localStorage.clear();

    const owner = renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    bar = await screen.findByRole("region", { name: "Rent and contact" });
    expect(within(bar).getByRole("link", { name: "Edit listing" })).toHaveAttribute("href", "/edit/l1");
    expect(screen.getAllByRole("link", { name: "Edit listing" })).toHaveLength(1);
    owner.unmount();
    localStorage.clear();

    renderApp("/listing/l1");
    bar = await screen.findByRole("region", { name: "Rent and contact" });
    expect(within(bar).getByRole("button", { name: "Message" })).toBeInTheDocument();
    expect(bar).toHaveTextContent("Create an account or sign in to message others");
    expect(screen.getAllByRole("button", { name: "Message" })).toHaveLength(1);
    expect(screen.getAllByText("Create an account or sign in to message others")).toHaveLength(1);
  });

  it("tells the owner why a listing went back to review (the photo check), without the other listing", async () => {
    fakeApi(routes(makeOwnerListing({ id: "l1", title: "Sunny room", verification_status: "pending", review_reason: "Photos match another listing" })));
    const flagged = renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    expect(await screen.findByText(/^Photos match another listing: staff will check them\. Only you can see this listing until our team approves it/)).toBeInTheDocument();
    flagged.unmount();
    fakeApi(routes(makeOwnerListing({ id: "l1", title: "Sunny room", verification_status: "pending" })));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    expect(await screen.findByText(/^Only you can see this listing until our team approves it/)).toBeInTheDocument();
    expect(screen.queryByText(/Photos match another listing/)).toBeNull();
  });

  it("shows a visitor the street and area with why; the owner the whole address and what everyone else sees", async () => {
    const owned = makeOwnerListing({ id: "l1", title: "Sunny room", address: "177 Bleecker St, Apt 4B, New York, NY 10003", address_public: "Bleecker St, New York, NY 10003" });
    // What the API answers anyone else (worker/db/queries/listings.ts toPublicListing).
    const { latitude, longitude, rejection_reason, review_reason, stripe_subscription_id, address_public, ...rest } = owned;
    void [latitude, longitude, rejection_reason, review_reason, stripe_subscription_id];
    fakeApi(routes({ ...rest, address: address_public } as OwnerListing));
    const visitor = renderApp("/listing/l1");
    const details = await screen.findByRole("heading", { name: "Property details" });
    const section = details.closest("section")!;
    expect(within(section).getByText("Bleecker St, New York, NY 10003")).toBeInTheDocument();
    expect(within(section).getByText("Street and area only: the lister shares the exact address with the renter once they accept a request.")).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent("177 Bleecker");
    visitor.unmount();
    localStorage.clear();

    fakeApi(routes(owned));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    const mine = (await screen.findByRole("heading", { name: "Property details" })).closest("section")!;
    expect(within(mine).getByText("177 Bleecker St, Apt 4B, New York, NY 10003")).toBeInTheDocument();
    expect(mine).toHaveTextContent("Only you and our team see the full address.");
    expect(mine).toHaveTextContent("They see: Bleecker St, New York, NY 10003.");
    expect(mine).not.toHaveTextContent("Street and area only");
  });

  it("has no bottom bar on a wide screen", async () => {
    fakeApi(routes(listing()));
    renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("region", { name: "Rent and contact" })).toBeNull();
  });
});

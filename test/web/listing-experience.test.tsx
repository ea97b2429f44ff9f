/** The listing form's first minutes, own listings, browse chips and count, the listing page on a phone. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OwnerListing } from "@contract/listings";
import { resultsCount } from "../../web/features/browse/components/browse-page";
import { makeOwnerListing, makeUser, mockFetch, renderApp } from "./render";

const universities = { data: [{ id: 1, name: "University of Texas at Austin", abbreviation: "UT Austin" }] };

afterEach(() => vi.unstubAllGlobals());

describe("listing form", () => {
  const verified = makeUser({ id_verification_status: "verified" });

  it("keeps a too-long title in the box, flags it until shortened, counts it, and clears a field's error as soon as the value is valid", async () => {
    mockFetch({ "/api/v1/universities/": universities });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const title = await screen.findByLabelText("Title");
    // Never cut silently: no hard limit on the box.
    expect(title).not.toHaveAttribute("maxLength");
    await ui.click(screen.getByRole("button", { name: "Submit listing" }));
    expect(await screen.findByText("Title is required")).toBeInTheDocument();
    expect(screen.getByText("Description is required")).toBeInTheDocument();
    // The refused submit puts focus on the first field to fix (its error was above the screen).
    await waitFor(() => expect(title).toHaveFocus());
    // The university comes before the address: its suggestions are near that campus.
    const university = screen.getByLabelText("University");
    const address = screen.getByLabelText("Address");
    expect(university.compareDocumentPosition(address) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Below 80 % of the limit there is no counter.
    await ui.type(title, "x".repeat(27));
    expect(screen.queryByText(/\/35/)).toBeNull();
    expect(screen.queryByText("Title is required")).toBeNull();
    await ui.type(title, "x");
    expect(screen.getByText("28/35", { exact: false })).toHaveAttribute("aria-live", "polite");
    // A pasted 68-character title stays whole and is flagged.
    await ui.clear(title);
    await ui.click(title);
    await ui.paste("A sunny two-bedroom apartment a short walk from the engineering hall");
    expect(title).toHaveValue("A sunny two-bedroom apartment a short walk from the engineering hall");
    const alert = screen.getByText("Title is 68 characters; the limit is 35. Shorten it to continue.");
    expect(alert).toHaveAttribute("role", "alert");
    expect(title).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("68/35", { exact: false })).toBeInTheDocument();
    // The submit refuses meanwhile (the form's other errors stay too).
    await ui.click(screen.getByRole("button", { name: "Submit listing" }));
    expect(screen.getByText("Title is 68 characters; the limit is 35. Shorten it to continue.")).toBeInTheDocument();
    expect(screen.getByText("Description is required")).toBeInTheDocument();
    await ui.clear(title);
    await ui.type(title, "Sunny two-bedroom by engineering");
    expect(screen.queryByText(/the limit is 35/)).toBeNull();
    expect(title).not.toHaveAttribute("aria-invalid");
    expect(screen.getByText("32/35", { exact: false })).toBeInTheDocument();
  });

  it("counts and flags the description and the address the same way", async () => {
    mockFetch({ "/api/v1/universities/": universities });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const description = await screen.findByLabelText("Description");
    expect(description).not.toHaveAttribute("maxLength");
    await ui.click(description);
    await ui.paste("y".repeat(1005));
    expect(description).toHaveValue("y".repeat(1005));
    expect(screen.getByText("Description is 1005 characters; the limit is 1000. Shorten it to continue.")).toHaveAttribute("role", "alert");
    const address = screen.getByLabelText("Address");
    expect(address).not.toHaveAttribute("maxLength");
    await ui.click(address);
    await ui.paste("z".repeat(301));
    expect(address).toHaveValue("z".repeat(301));
    expect(screen.getByText("Address is 301 characters; the limit is 300. Shorten it to continue.")).toHaveAttribute("role", "alert");
    expect(address).toHaveAttribute("aria-invalid", "true");
  });

  it("says before publishing that the public sees only the street and area, and shows that form of the address typed", async () => {
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/geo/autocomplete": { data: [] } });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const address = await screen.findByLabelText("Address");
    const note = document.getElementById(address.getAttribute("aria-describedby")!.split(" ").pop()!)!;
    expect(note).toHaveTextContent(
      "Only you and our team see the full address. Everyone else sees the street and area, without the house number or unit, until you accept a request.",
    );
    expect(note).not.toHaveTextContent("Shown publicly as");
    await ui.type(address, "177 Bleecker St, Apt 4B, New York, NY 10003");
    expect(note).toHaveTextContent("Shown publicly as: Bleecker St, New York, NY 10003");
    expect(note).not.toHaveTextContent("177");
  });

  it("refuses a non-image, a HEIC photo and an undecodable file when picked, naming each; adds a readable photo", async () => {
    mockFetch({ "/api/v1/universities/": universities });
    vi.stubGlobal("createImageBitmap", async (file: File) => {
      if (file.name === "broken.jpg") throw new Error("decode failed");
      return { close() {} };
    });
    URL.createObjectURL = () => "blob:preview";
    URL.revokeObjectURL = () => {};
    const ui = userEvent.setup({ applyAccept: false });
    renderApp("/create", { token: "t", user: verified });
    const input = (await screen.findByLabelText("Add photos")) as HTMLInputElement;

    await ui.upload(input, new File(["hello"], "notes.txt", { type: "text/plain" }));
    expect(await screen.findByText(/^notes\.txt is not an image\./)).toHaveAttribute("role", "alert");
    await ui.upload(input, new File(["ftyp"], "IMG_1234.HEIC", { type: "" }));
    expect(await screen.findByText(/^IMG_1234\.HEIC is a HEIC photo, which browsers can't read\. On iPhone, choose Most Compatible/)).toBeInTheDocument();
    await ui.upload(input, new File(["not really"], "broken.jpg", { type: "image/jpeg" }));
    expect(await screen.findByText(/^broken\.jpg could not be opened as an image/)).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: /Photo 1/ })).toBeNull();

    await ui.upload(input, new File(["jpeg"], "room.jpg", { type: "image/jpeg" }));
    expect(await screen.findByRole("img", { name: "Photo 1 (primary)" })).toBeInTheDocument();
    expect(screen.queryByText(/could not be opened/)).toBeNull();
  });

  it("states the photo limits the upload enforces: 10 photos, 10MB each (it once said 5MB)", async () => {
    mockFetch({ "/api/v1/universities/": universities });
    renderApp("/create", { token: "t", user: verified });
    expect(await screen.findByText("Up to 10 photos, maximum 10MB each. The first photo is the primary one.")).toHaveClass("field-hint");
  });
});

describe("browse", () => {
  it("shows active filters as chips naming their values; removing one updates the query string", async () => {
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": { data: [], pagination: { next_token: null, has_more: false } } });
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
    mockFetch({ "/api/v1/universities/": universities, "/api/v1/subleases/": { data, pagination: { next_token: "p2", has_more: true } } });
    renderApp("/");
    expect(await screen.findByText("40+ listings")).toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).toBeNull();
  });
});

describe("listing page", () => {
  const routes = (listing: OwnerListing) => ({
    "/api/v1/subleases/l1": { data: listing },
    "/api/v1/users/owner-1": { data: { id: "owner-1", first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } },
    "/api/v1/favorites": { favorites: [], pagination: { next_token: null, has_more: false } },
  });
  const listing = () => makeOwnerListing({ id: "l1", title: "Sunny room", monthly_rent: 845 });
  /** A phone: every `max-width` query matches. */
  const phone = () =>
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("max-width"), media: query, addEventListener() {}, removeEventListener() {} }));

  it("puts '(You)' beside the owner's name on the contact card, not in the title", async () => {
    mockFetch(routes(listing()));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    const heading = await screen.findByRole("heading", { level: 1 });
    expect(heading).toHaveTextContent(/^Sunny room$/);
    expect(within(screen.getByRole("complementary", { name: "Contact" })).getByText("(You)")).toBeInTheDocument();
  });

  it("on a phone, keeps the rent and the one action in a bottom bar: Message, Edit for the owner, the locked Message for visitors", async () => {
    phone();
    mockFetch(routes(listing()));
    const first = renderApp("/listing/l1", { token: "t", user: makeUser({ id: "someone-else" }) });
    let bar = await screen.findByRole("region", { name: "Rent and contact" });
    expect(bar).toHaveClass("listing-sticky-bar");
    expect(bar).toHaveTextContent("$845 / month");
    expect(within(bar).getByRole("link", { name: "Message Jordan" })).toHaveAttribute("href", "/messages?userId=owner-1&listingId=l1");
    first.unmount();
    localStorage.clear();

    const owner = renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    bar = await screen.findByRole("region", { name: "Rent and contact" });
    expect(within(bar).getByRole("link", { name: "Edit listing" })).toHaveAttribute("href", "/edit/l1");
    owner.unmount();
    localStorage.clear();

    renderApp("/listing/l1");
    bar = await screen.findByRole("region", { name: "Rent and contact" });
    expect(within(bar).getByRole("button", { name: "Message" })).toBeInTheDocument();
    expect(bar).toHaveTextContent("Create an account or sign in to message others");
  });

  it("shows a visitor the street and area with why; the owner the whole address and what everyone else sees", async () => {
    const owned = makeOwnerListing({ id: "l1", title: "Sunny room", address: "177 Bleecker St, Apt 4B, New York, NY 10003", address_public: "Bleecker St, New York, NY 10003" });
    // What the API answers anyone else (worker/db/queries/listings.ts toPublicListing).
    const { latitude, longitude, rejection_reason, stripe_subscription_id, address_public, ...rest } = owned;
    void [latitude, longitude, rejection_reason, stripe_subscription_id];
    mockFetch(routes({ ...rest, address: address_public } as OwnerListing));
    const visitor = renderApp("/listing/l1");
    const details = await screen.findByRole("heading", { name: "Property details" });
    const section = details.closest("section")!;
    expect(within(section).getByText("Bleecker St, New York, NY 10003")).toBeInTheDocument();
    expect(within(section).getByText("Street and area only: the lister shares the exact address with the renter once they accept a request.")).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent("177 Bleecker");
    visitor.unmount();
    localStorage.clear();

    mockFetch(routes(owned));
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: "owner-1" }) });
    const mine = (await screen.findByRole("heading", { name: "Property details" })).closest("section")!;
    expect(within(mine).getByText("177 Bleecker St, Apt 4B, New York, NY 10003")).toBeInTheDocument();
    expect(mine).toHaveTextContent("Only you and our team see the full address.");
    expect(mine).toHaveTextContent("They see: Bleecker St, New York, NY 10003.");
    expect(mine).not.toHaveTextContent("Street and area only");
  });

  it("has no bottom bar on a wide screen", async () => {
    mockFetch(routes(listing()));
    renderApp("/listing/l1");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("region", { name: "Rent and contact" })).toBeNull();
  });
});

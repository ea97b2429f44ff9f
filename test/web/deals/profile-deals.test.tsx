/** The profile's Deals: as renter and as lister, each deal's status and next step, linking to its page; loading, empty, error. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, notFound, publicUserRoute, renderApp } from "../render";
import { acceptedDeal, json, LISTER, makeDeal, RENTER, sessionOf, viewedBy } from "./fixtures";
import { formatStay } from "@contract/dates";

const API = "/api/v1";
const page = (data: unknown[]) => ({ data, pagination: { next_token: null, has_more: false } });
const base = (session: ReturnType<typeof sessionOf>) => ({
  ...publicUserRoute(session.user.id),
  [`GET ${API}/universities/`]: { data: [] },
  [`GET ${API}/users/profile`]: { data: session.user },
  [`GET ${API}/users/listings`]: { data: [] },
  // The profile's other sections, empty here.
  [`GET ${API}/saved-searches/`]: notFound,
  [`GET ${API}/users/blocks`]: notFound,
  [`GET ${API}/payouts/status`]: { data: { status: "none", requirements_due: [] } },
});

describe("Deals in the profile", () => {
  it("lists my deals as renter and as lister with status and next step, each linking to its page", async () => {
    const me = sessionOf(RENTER);
    const asLister = viewedBy(makeDeal({ id: "d2", listing_title: "My own studio", renter: { id: "x", first_name: "Ana", last_name: "Ruiz" }, lister: RENTER }), "lister");
    fakeApi({ ...base(me), [`GET ${API}/deals`]: page([acceptedDeal({ landlord_consent: { status: "not_needed" } }), asLister]) });
    renderApp("/profile", me);
    const section = await screen.findByRole("region", { name: "Deals" });
    const renting = (await within(section).findByRole("heading", { name: "As renter" })).parentElement!;
    const listing = within(section).getByRole("heading", { name: "As lister" }).parentElement!;
    expect(within(renting).getByRole("link", { name: "Sunny 2x2 near campus" })).toHaveAttribute("href", "/deals/d1");
    expect(renting).toHaveTextContent("Accepted");
    expect(renting).toHaveTextContent(`${formatStay("2027-06-01", "2027-08-15")} · with Jordan`);
    expect(renting).toHaveTextContent("Your step: Read and sign the agreement.");
    expect(within(listing).getByRole("link", { name: "My own studio" })).toHaveAttribute("href", "/deals/d2");
    expect(listing).toHaveTextContent("Your step: Accept or decline this request");
  });

  it("says when there are none, and when they cannot be loaded (with Try again)", async () => {
    const me = sessionOf(LISTER);
    let fail = true;
    fakeApi({ ...base(me), [`GET ${API}/deals`]: () => (fail ? json({ detail: "Server error. Please try again later." }, 500) : page([])) });
    const ui = userEvent.setup();
    renderApp("/profile", me);
    const section = await screen.findByRole("region", { name: "Deals" });
    expect(within(section).getByText("Loading your deals…")).toBeInTheDocument();
    const error = await within(section).findByRole("alert", {}, { timeout: 15_000 });
    expect(error).toHaveTextContent("Could not load your deals: Server error. Please try again later.");
    fail = false;
    await ui.click(within(error).getByRole("button", { name: "Try again" }));
    expect(await within(section).findByText(/No deals yet/)).toBeInTheDocument();
  });
});

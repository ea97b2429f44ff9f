/**
 * The address field resolves a suggestion that has a place id but no coordinates
 * (Google) before the form takes it, with one session token for the typing session and its resolve,
 * and says when an address is off the map.
 */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callsOf, fakeApi, makeOwnerListing, makeUser, renderApp } from "../render";

const API = "/api/v1";
const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };
const verified = makeUser({ id: "owner-1", id_verification_status: "verified" });
const NOT_PLACED = "We could not place this address on the map; students searching by distance will not see it.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const suggestions = {
  data: [
    { description: "1 Main St, Gainesville, FL, USA", lat: null, lng: null, place_id: "ChIJ_one" },
    { description: "1 Main St, Alachua, FL, USA", lat: null, lng: null, place_id: "ChIJ_two" },
  ],
};
const resolved = { description: "1 Main St, Gainesville, FL 32601, USA", lat: 29.6521, lng: -82.3302, location_token: "v1.token-of-1-main" };

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The edit page of a placed listing, with the geocoder's answers given; `place` answers geo/place. */
function editPage(place: (call: { url: string }) => unknown, autocomplete: unknown = suggestions) {
  const listing = makeOwnerListing({
    user_id: "owner-1",
    university_id: 1,
    address: "100 Main St, Gainesville, FL",
    latitude: 29.651,
    longitude: -82.325,
    distance_miles: 1.4,
    pictures: ["/api/v1/images/listings/owner-1_a.jpg"],
    thumbnails: ["/api/v1/images/listings/owner-1_a.thumb.jpg"],
  });
  const calls = fakeApi({
    [`GET ${API}/universities/`]: universities,
    [`GET ${API}/subleases/l1`]: { data: listing },
    [`GET ${API}/users/profile`]: { data: verified },
    [`GET ${API}/geo/autocomplete`]: autocomplete,
    [`GET ${API}/geo/place`]: place,
    [`PATCH ${API}/subleases/l1`]: ({ body }: { body: Record<string, unknown> }) => ({ data: { ...listing, ...body } }),
  });
  renderApp("/edit/l1", { token: "t", user: verified });
  return calls;
}
const address = () => screen.getByRole("combobox", { name: "Address" });
const params = (url: string) => new URL(url, "http://localhost").searchParams;

describe("the address field's resolve step", () => {
  it("resolves a picked place (Locating…), fills the resolved address and sends its coordinates and token", async () => {
    let answer!: (value: unknown) => void;
    const calls = editPage(() => new Promise((resolve) => (answer = resolve)));
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    // A placed listing says nothing about the map.
    expect(screen.queryByText(NOT_PLACED)).toBeNull();
    await ui.clear(address());
    await ui.type(address(), "1 Main");
    await ui.click(await screen.findByRole("option", { name: "1 Main St, Gainesville, FL, USA" }));

    expect(await screen.findByText("Locating this address on the map…")).toBeInTheDocument();
    expect(address()).toHaveAttribute("aria-busy", "true");
    answer({ data: resolved });
    await waitFor(() => expect(address()).toHaveValue(resolved.description));
    expect(screen.queryByText("Locating this address on the map…")).toBeNull();
    expect(screen.queryByText(NOT_PLACED)).toBeNull();

    // One session token for the typing session's autocomplete calls and the resolve; the campus bias.
    const searches = callsOf(calls, `GET ${API}/geo/autocomplete`);
    const [resolve] = callsOf(calls, `GET ${API}/geo/place`);
    expect(searches.length).toBeGreaterThan(0);
    const session = params(searches[0]!.url).get("session")!;
    expect(session).toMatch(UUID);
    for (const s of searches) expect(params(s.url).get("session")).toBe(session);
    expect(params(searches.at(-1)!.url).get("university_id")).toBe("1");
    expect(params(resolve!.url).get("place_id")).toBe("ChIJ_one");
    expect(params(resolve!.url).get("session")).toBe(session);
    // Geocoding is for verified users: every call carries the session's bearer token.
    for (const c of [...searches, resolve!]) expect(c.authorization).toBe("Bearer t");
    // The resolved address is picked: no new search for it.
    expect(callsOf(calls, `GET ${API}/geo/autocomplete`).length).toBe(searches.length);

    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsOf(calls, `PATCH ${API}/subleases/l1`)).toHaveLength(1));
    expect(callsOf(calls, `PATCH ${API}/subleases/l1`)[0]!.body).toMatchObject({
      address: resolved.description,
      latitude: resolved.lat,
      longitude: resolved.lng,
      location_token: resolved.location_token,
    });

    // The next typing session gets another token.
    await ui.type(address(), " Apt 2");
    await waitFor(() => expect(callsOf(calls, `GET ${API}/geo/autocomplete`).length).toBeGreaterThan(searches.length));
    expect(params(callsOf(calls, `GET ${API}/geo/autocomplete`).at(-1)!.url).get("session")).not.toBe(session);
  });

  it("a refused suggestion call (daily cap) pauses suggestions with the reason, and the typed address still saves", async () => {
    const capped = "You have used today's address suggestions. Type the full address; the listing saves without a distance to campus.";
    const calls = editPage(
      () => ({ data: resolved }),
      () => new Response(JSON.stringify({ detail: capped, retry_after: 3600 }), { status: 429, headers: { "Content-Type": "application/json" } }),
    );
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    await ui.clear(address());
    await ui.type(address(), "12 Oak Street");
    expect(await screen.findByText(capped)).toBeInTheDocument();
    expect(screen.queryByRole("listbox")).toBeNull();
    const asked = callsOf(calls, `GET ${API}/geo/autocomplete`).length;
    expect(asked).toBeGreaterThan(0);
    // No more calls while the owner types on: the field is plain text.
    await ui.type(address(), ", Gainesville");
    await ui.tab();
    expect(callsOf(calls, `GET ${API}/geo/autocomplete`)).toHaveLength(asked);
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsOf(calls, `PATCH ${API}/subleases/l1`)).toHaveLength(1));
    expect(callsOf(calls, `PATCH ${API}/subleases/l1`)[0]!.body).toMatchObject({ address: "12 Oak Street, Gainesville", latitude: null, longitude: null, location_token: null });
  });

  it("says plainly when the place cannot be found, keeps the picked address and sends no coordinates", async () => {
    const calls = editPage(() => new Response(JSON.stringify({ detail: "This address could not be found on the map. Pick another suggestion, or keep the address as typed." }), { status: 404, headers: { "Content-Type": "application/json" } }));
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    await ui.clear(address());
    await ui.type(address(), "1 Main");
    await ui.click(await screen.findByRole("option", { name: "1 Main St, Alachua, FL, USA" }));
    const note = await screen.findByText(/We could not place this address on the map/);
    expect(note).toHaveTextContent(`This address could not be found on the map. Pick another suggestion, or keep the address as typed. ${NOT_PLACED}`);
    expect(note.closest("[role=status]")).not.toBeNull();
    expect(address()).toHaveValue("1 Main St, Alachua, FL, USA");
    expect(address()).toHaveAccessibleDescription(expect.stringContaining(NOT_PLACED));

    // Not blocking: the listing saves, without coordinates.
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(callsOf(calls, `PATCH ${API}/subleases/l1`)).toHaveLength(1));
    expect(callsOf(calls, `PATCH ${API}/subleases/l1`)[0]!.body).toMatchObject({ address: "1 Main St, Alachua, FL, USA", latitude: null, longitude: null, location_token: null });
  });

  it("a typed address is said to be off the map once the owner leaves the field, not while typing", async () => {
    editPage(() => ({ data: resolved }));
    const ui = userEvent.setup();
    await waitFor(() => expect(address()).toHaveValue("100 Main St, Gainesville, FL"));
    await ui.clear(address());
    await ui.type(address(), "77 Nowhere Road");
    expect(screen.queryByText(NOT_PLACED)).toBeNull();
    await ui.tab();
    // Suggestions were offered and none picked: the note says to pick one.
    expect(await screen.findByText(/Pick one of the suggestions to place this address on the map/)).toBeInTheDocument();
    // Picking a placed suggestion takes it away.
    await ui.clear(address());
    await ui.type(address(), "1 Main");
    await ui.click(await screen.findByRole("option", { name: "1 Main St, Gainesville, FL, USA" }));
    await waitFor(() => expect(address()).toHaveValue(resolved.description));
    await ui.tab();
    expect(screen.queryByText(NOT_PLACED)).toBeNull();
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

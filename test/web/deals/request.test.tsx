/** Request to sublease: on the listing page and in its conversation; the stay's rules; errors in the server's words. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { initialStay, localToday } from "../../../web/features/deals/components/request-deal-dialog";
import { stayProblem } from "../../../web/features/deals/lib/stay";
import { callsOf, fakeApi, makeOwnerListing, makeUser, renderApp } from "../render";
import { LISTER, json, makeDeal, RENTER, sessionOf } from "./fixtures";

const API = "/api/v1";
const listing = (overrides = {}) =>
  makeOwnerListing({ id: "l1", user_id: LISTER.id, title: "Sunny 2x2 near campus", monthly_rent: 850, available_from: "2027-06-01", available_to: "2027-08-15", ...overrides });
const owner = { data: { id: LISTER.id, first_name: "Jordan", last_name: "Kim", avatar_url: null, university: "UF", created_at: "2026-01-01T00:00:00Z", id_verified: true } };

function listingApi(extra: Record<string, unknown> = {}) {
  return fakeApi({ [`GET ${API}/favorites`]: { favorites: [] }, [`GET ${API}/subleases/l1`]: { data: listing() }, [`GET ${API}/users/${LISTER.id}`]: owner, ...extra });
}

describe("the stay's rules", () => {
  const dated = { available_from: "2027-06-01", available_to: "2027-08-15" };
  it("takes the listing's dates or a stay within them, from today on, the end after the start", () => {
    expect(stayProblem({ move_in: "2027-06-01", move_out: "2027-08-15" }, dated, "2026-11-28")).toBeNull();
    expect(stayProblem({ move_in: "2027-06-10", move_out: "2027-07-10" }, dated, "2026-11-28")).toBeNull();
    expect(stayProblem({ move_in: "2027-05-31", move_out: "2027-07-10" }, dated, "2026-11-28")).toMatch(/on or after the listing's first day/);
    expect(stayProblem({ move_in: "2027-06-10", move_out: "2027-08-16" }, dated, "2026-11-28")).toMatch(/on or before the listing's last day/);
    expect(stayProblem({ move_in: "2027-07-10", move_out: "2027-07-10" }, dated, "2026-11-28")).toMatch(/must be after/);
    expect(stayProblem({ move_in: "2027-06-02", move_out: "" }, dated, "2026-11-28")).toMatch(/both dates/);
    expect(stayProblem({ move_in: "2027-02-30", move_out: "2027-07-10" }, dated, "2026-11-28")).toMatch(/real dates/);
    // A listing already available: the stay starts today at the earliest.
    expect(stayProblem({ move_in: "2026-11-27", move_out: "2027-01-10" }, { available_from: "2026-09-01", available_to: "2027-08-15" }, "2026-11-28")).toMatch(/past/);
    // Without dates: at most 12 months from the request.
    const open = { available_from: null, available_to: null };
    expect(stayProblem({ move_in: "2026-12-01", move_out: "2027-11-28" }, open, "2026-11-28")).toBeNull();
    expect(stayProblem({ move_in: "2026-12-01", move_out: "2027-11-29" }, open, "2026-11-28")).toMatch(/12 months/);
  });

  it("refuses a stay that overlaps one already taken, naming it; a move-out day can be the next move-in", () => {
    const taken = { ...dated, taken_stays: [{ move_in: "2027-06-01", move_out: "2027-06-30" }] };
    expect(stayProblem({ move_in: "2027-06-15", move_out: "2027-07-15" }, taken, "2026-11-28")).toBe(
      "Jun 1 - Jun 30, 2027 is already taken. Please choose dates outside it (a move-out day can be the next move-in).",
    );
    expect(stayProblem({ move_in: "2027-06-30", move_out: "2027-08-15" }, taken, "2026-11-28")).toBeNull();
    expect(stayProblem({ move_in: "2027-06-01", move_out: "2027-08-15" }, taken, "2026-11-28")).toMatch(/already taken/);
  });

  it("starts with the listing's dates, from today when they have begun", () => {
    expect(initialStay(listing(), "2026-11-28")).toEqual({ move_in: "2027-06-01", move_out: "2027-08-15" });
    expect(initialStay(listing({ available_from: "2026-09-01" }), "2026-11-28")).toEqual({ move_in: "2026-11-28", move_out: "2027-08-15" });
    expect(initialStay(listing({ available_from: null, available_to: null }), "2026-11-28")).toEqual({ move_in: "", move_out: "" });
    expect(localToday(new Date(2026, 10, 5))).toBe("2026-11-05");
    // Around the stays already taken: after the one it would start in, up to the next one.
    const takenTwice = listing({ taken_stays: [{ move_in: "2027-07-10", move_out: "2027-07-20" }, { move_in: "2027-06-01", move_out: "2027-06-15" }] });
    expect(initialStay(takenTwice, "2026-11-28")).toEqual({ move_in: "2027-06-15", move_out: "2027-07-10" });
  });
});

describe("request to sublease on the listing page", () => {
  // The form's "today" is the renter's date: fixed, so the listing's 2027 dates stay in the future.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-28T12:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("sends the chosen stay with an Idempotency-Key; a refusal shows the server's detail and keeps the dates; the same stay again reuses the key", async () => {
    let answer: Response = json({ detail: "These dates are already taken by an accepted request." }, 409);
    const calls = listingApi({ [`POST ${API}/deals`]: () => answer });
    const ui = userEvent.setup();
    renderApp("/listing/l1", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "Request to sublease" }));
    const dialog = await screen.findByRole("dialog", { name: "Request to sublease" });
    const moveIn = within(dialog).getByLabelText("Move in");
    const moveOut = within(dialog).getByLabelText("Move out");
    expect(moveIn).toHaveValue("2027-06-01");
    expect(moveOut).toHaveValue("2027-08-15");

    // Outside the listing's dates: said at once, nothing sent.
    await ui.clear(moveOut);
    await ui.type(moveOut, "2027-09-01");
    await ui.click(within(dialog).getByRole("button", { name: "Send request" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("on or before the listing's last day");
    expect(moveOut).toHaveAttribute("aria-invalid", "true");
    expect(callsOf(calls, `POST ${API}/deals`)).toHaveLength(0);

    await ui.clear(moveOut);
    await ui.type(moveOut, "2027-07-31");
    await ui.click(within(dialog).getByRole("button", { name: "Send request" }));
    expect(await within(dialog).findByText("These dates are already taken by an accepted request.")).toBeInTheDocument();
    const [first] = callsOf(calls, `POST ${API}/deals`);
    expect(first!.body).toEqual({ listing_id: "l1", move_in: "2027-06-01", move_out: "2027-07-31" });
    const key = first!.headers.get("Idempotency-Key");
    expect(key).toMatch(/^deal-/);
    expect(moveOut).toHaveValue("2027-07-31");

    answer = json({ data: makeDeal({ move_out: "2027-07-31" }) }, 201);
    await ui.click(within(dialog).getByRole("button", { name: "Send request" }));
    const sent = await screen.findByRole("dialog", { name: "Request sent" });
    expect(callsOf(calls, `POST ${API}/deals`)[1]!.headers.get("Idempotency-Key")).toBe(key);
    expect(within(sent).getByText(/Jun 1 - Jul 31/)).toBeInTheDocument();
    const open = within(sent).getByRole("link", { name: "Open the conversation" });
    expect(open).toHaveAttribute("href", `/messages?userId=${LISTER.id}&listingId=l1`);
    await waitFor(() => expect(open).toHaveFocus());
    expect(within(sent).getByRole("link", { name: "See the deal" })).toHaveAttribute("href", "/deals/d1");
  });

  it("another stay gets a new key", async () => {
    const calls = listingApi({ [`POST ${API}/deals`]: json({ detail: "Listing not found" }, 404) });
    const ui = userEvent.setup();
    renderApp("/listing/l1", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "Request to sublease" }));
    const dialog = await screen.findByRole("dialog", { name: "Request to sublease" });
    await ui.click(within(dialog).getByRole("button", { name: "Send request" }));
    await within(dialog).findByText("Listing not found");
    const moveOut = within(dialog).getByLabelText("Move out");
    await ui.clear(moveOut);
    await ui.type(moveOut, "2027-07-01");
    await ui.click(within(dialog).getByRole("button", { name: "Send request" }));
    await waitFor(() => expect(callsOf(calls, `POST ${API}/deals`)).toHaveLength(2));
    const [a, b] = callsOf(calls, `POST ${API}/deals`).map((c) => c.headers.get("Idempotency-Key"));
    expect(a).not.toBe(b);
  });

  it("shows the stays already taken, and refuses a request that overlaps one before sending it", async () => {
    const calls = listingApi({
      [`GET ${API}/subleases/l1`]: { data: { ...listing(), rent_below_typical: false, taken_stays: [{ move_in: "2027-06-01", move_out: "2027-06-30" }] } },
      [`POST ${API}/deals`]: json({ data: makeDeal({ move_in: "2027-06-30" }) }, 201),
    });
    const ui = userEvent.setup();
    renderApp("/listing/l1", sessionOf(RENTER));
    const taken = await screen.findByRole("list", { name: "Taken stays" });
    expect(within(taken).getByRole("listitem")).toHaveTextContent("Taken Jun 1 - Jun 30, 2027");
    await ui.click(screen.getByRole("button", { name: "Request to sublease" }));
    const dialog = await screen.findByRole("dialog", { name: "Request to sublease" });
    expect(dialog).toHaveTextContent("Already taken: Jun 1 - Jun 30, 2027.");
    // The form starts after it; a stay typed over it is refused.
    const moveIn = within(dialog).getByLabelText("Move in");
    expect(moveIn).toHaveValue("2027-06-30");
    await ui.clear(moveIn);
    await ui.type(moveIn, "2027-06-10");
    await ui.click(within(dialog).getByRole("button", { name: "Send request" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Jun 1 - Jun 30, 2027 is already taken. Please choose dates outside it");
    expect(within(dialog).getByLabelText("Move in")).toHaveAttribute("aria-invalid", "true");
    expect(callsOf(calls, `POST ${API}/deals`)).toHaveLength(0);
    await ui.clear(moveIn);
    await ui.type(moveIn, "2027-06-30");
    await ui.click(within(dialog).getByRole("button", { name: "Send request" }));
    expect(await screen.findByRole("dialog", { name: "Request sent" })).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals`)[0]!.body).toEqual({ listing_id: "l1", move_in: "2027-06-30", move_out: "2027-08-15" });
  });

  it("is not offered to the listing's owner", async () => {
    listingApi();
    renderApp("/listing/l1", { token: "t", user: makeUser({ id: LISTER.id }) });
    expect(await screen.findByRole("link", { name: "Edit listing" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Request to sublease" })).toBeNull();
  });
});

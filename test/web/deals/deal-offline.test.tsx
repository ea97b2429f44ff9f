/**
 * The deal page offline (docs/decisions/042): an active deal visited (or listed) online is read from
 * this device offline (terms, address, receipt, contact, agreement, signed PDF), only by the account
 * that saved it; a page never saved says so plainly; the banner comes and goes with the connection;
 * sign-out in another tab clears what was kept.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Deal } from "@contract/deals";
import { SAVED_DEALS_CACHE } from "../../../web/lib/auth-store";
import { OFFLINE_NOT_SAVED } from "../../../web/lib/online";
import { axeViolations } from "../axe";
import { installCacheStorage } from "../cache-storage";
import { afterTheKeysRoutes, callsOf, fakeApi, notFound, publicUserRoute, renderApp } from "../render";
import { LISTER, makeDeal, paidDeal, RENTER, sessionOf, viewedBy } from "./fixtures";

const API = "/api/v1";
const ADDRESS = "12 Bleecker St, Apt 4B, New York, NY 10003";
const agreement = { data: { version: 1, text: "SUBLEASE AGREEMENT between Maya Lopez and Jordan Kim", sha256: "a".repeat(64), events: [] } };
const PDF = "%PDF-1.7 the signed agreement";

let online = true;
let store: ReturnType<typeof installCacheStorage>;
const goOffline = () => {
  online = false;
  // Every call fails as a browser's fetch does without a connection.
  globalThis.fetch = (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch;
  window.dispatchEvent(new Event("offline"));
};
const goOnline = () => {
  online = true;
  window.dispatchEvent(new Event("online"));
};

beforeEach(() => {
  online = true;
  vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
  store = installCacheStorage();
});
afterEach(() => {
  goOnline();
  store.remove();
});

/** The API of one deal's page, as its party reads it. */
const dealApi = (deal: Deal) => ({
  ...afterTheKeysRoutes(deal.id),
  [`GET ${API}/deals/${deal.id}`]: { data: deal },
  [`GET ${API}/deals/${deal.id}/agreement`]: agreement,
  [`GET ${API}/deals/${deal.id}/agreement.pdf`]: () => new Response(PDF, { status: 200, headers: { "content-type": "application/pdf" } }),
});
const saved = (owner: string, dealId: string) => ["agreement", "agreement.pdf", "deal"].map((part) => `/saved-deals/${owner}/${dealId}/${part}`);
const term = (name: string) => screen.getByText(name, { selector: "dt" }).nextElementSibling?.textContent;

/** Visits the deal page online and waits until its deal, agreement and signed PDF are kept. */
async function visitOnline(deal: Deal, who = RENTER) {
  const calls = fakeApi(dealApi(deal));
  const view = renderApp(`/deals/${deal.id}`, sessionOf(who));
  await screen.findByText(agreement.data.text);
  await waitFor(() => expect(store.paths(SAVED_DEALS_CACHE)).toEqual(saved(who.id, deal.id)));
  view.unmount();
  return calls;
}

describe("an active deal offline", () => {
  it("opens from this device after a visit: terms, address, receipt, contact, agreement and its signed PDF, with the banner", async () => {
    const deal = paidDeal();
    await visitOnline(deal);

    goOffline();
    renderApp("/deals/d1", sessionOf(RENTER));
    expect(await screen.findByRole("heading", { name: "Sunny 2x2 near campus" })).toBeInTheDocument();
    expect(term("Address")).toBe(ADDRESS);
    expect(within(screen.getByRole("region", { name: "Receipt" })).getByText("Total paid")).toBeInTheDocument();
    const contact = screen.getByRole("region", { name: "Your contact" });
    expect(contact).toHaveTextContent("Jordan Kim, the lister (tenant) who sublets to you");
    expect(contact).toHaveTextContent("Messages need a connection");
    expect(await screen.findByText(agreement.data.text)).toBeInTheDocument();
    expect(screen.getByText(/^Saved on this device on .+; it updates when you're back online\.$/)).toBeInTheDocument();
    expect(document.querySelector(".offline-banner")).toHaveTextContent(/^You're offline\./);

    // The signed PDF comes from the device.
    const createObjectURL = vi.fn((_blob: Blob) => "blob:pdf");
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    await userEvent.setup().click(screen.getByRole("button", { name: "Download the signed PDF" }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe(PDF);
    expect(within(screen.getByRole("region", { name: "The sublease agreement" })).queryByRole("alert")).not.toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });

  it("is kept from the deals list before it is ever opened (its agreement and signed PDF too)", async () => {
    const me = sessionOf(RENTER);
    const deal = paidDeal();
    const calls = fakeApi({
      ...dealApi(deal),
      [`GET ${API}/universities/`]: { data: [] },
      [`GET ${API}/users/profile`]: { data: me.user },
      // The profile's own review summaries.
      ...publicUserRoute(RENTER.id),
      [`GET ${API}/users/listings`]: { data: [] },
      [`GET ${API}/saved-searches/`]: notFound,
      [`GET ${API}/users/blocks`]: notFound,
      [`GET ${API}/payouts/status`]: { data: { status: "none", requirements_due: [] } },
      // A requested deal (no address yet) and a cancelled one are not kept.
      [`GET ${API}/deals`]: { data: [deal, makeDeal({ id: "d-requested" }), paidDeal({ id: "d-cancelled", status: "cancelled" }, { status: "refunded" })], pagination: { next_token: null, has_more: false } },
    });
    const view = renderApp("/profile", me);
    await waitFor(() => expect(store.paths(SAVED_DEALS_CACHE)).toEqual(saved(RENTER.id, "d1")));
    expect(callsOf(calls, `GET ${API}/deals/d1/agreement.pdf`)).toHaveLength(1);
    view.unmount();

    goOffline();
    renderApp("/deals/d1", me);
    expect(await screen.findByRole("heading", { name: "Sunny 2x2 near campus" })).toBeInTheDocument();
    expect(term("Address")).toBe(ADDRESS);
    expect(await screen.findByText(agreement.data.text)).toBeInTheDocument();
  });

  it("a deal never saved says so plainly at once, and loads when the connection is back", async () => {
    goOffline();
    renderApp("/deals/d2", sessionOf(RENTER));
    expect(await screen.findByRole("heading", { name: "You're offline" })).toBeInTheDocument();
    expect(screen.getByText(OFFLINE_NOT_SAVED).closest("[role=alert]")).toBeInTheDocument();
    expect(screen.queryByText(/Something went wrong/)).not.toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);

    fakeApi(dealApi(paidDeal({ id: "d2" })));
    goOnline();
    expect(await screen.findByRole("heading", { name: "Sunny 2x2 near campus" })).toBeInTheDocument();
    expect(screen.queryByText(/You're offline/)).not.toBeInTheDocument();
  });

  it("a copy kept for one account is never shown to another signed in later on the device", async () => {
    await visitOnline(paidDeal());
    goOffline();
    renderApp("/deals/d1", sessionOf({ id: "stranger-1", first_name: "Sam", last_name: "Lee" }));
    expect(await screen.findByRole("heading", { name: "You're offline" })).toBeInTheDocument();
    expect(screen.queryByText(ADDRESS)).not.toBeInTheDocument();
  });

  it("each party keeps their own copy of the same deal", async () => {
    await visitOnline(paidDeal());
    const forLister = viewedBy(paidDeal(), "lister");
    fakeApi(dealApi(forLister));
    const view = renderApp("/deals/d1", sessionOf(LISTER));
    await screen.findByText(agreement.data.text);
    await waitFor(() => expect(store.paths(SAVED_DEALS_CACHE)).toEqual([...saved(LISTER.id, "d1"), ...saved(RENTER.id, "d1")].sort()));
    view.unmount();
    goOffline();
    renderApp("/deals/d1", sessionOf(LISTER));
    expect(await screen.findByRole("region", { name: "Your contact" })).toHaveTextContent("Maya Lopez, your renter (subtenant)");
  });

  it("a deal that ended is not kept, and what was kept of it goes", async () => {
    await visitOnline(paidDeal());
    fakeApi(dealApi(paidDeal({ status: "cancelled", status_reason: "cancelled_by_lister" }, { status: "refunded", refunded_cents: 89250 })));
    const view = renderApp("/deals/d1", sessionOf(RENTER));
    await screen.findByRole("region", { name: "Receipt" });
    await waitFor(() => expect(store.paths(SAVED_DEALS_CACHE)).toEqual([]));
    view.unmount();
    // A stay that is over is not kept either.
    fakeApi(dealApi(paidDeal({ id: "d-past", move_in: "2026-01-05", move_out: "2026-02-05" })));
    renderApp("/deals/d-past", sessionOf(RENTER));
    await screen.findByText(agreement.data.text);
    expect(store.paths(SAVED_DEALS_CACHE)).toEqual([]);
  });

  it("signing out in another tab forgets every saved deal here; back offline the deal is not saved", async () => {
    await visitOnline(paidDeal());
    fakeApi(dealApi(paidDeal()));
    renderApp("/deals/d1", sessionOf(RENTER));
    await screen.findByText(agreement.data.text);

    // The other tab cleared the session from the shared storage; this tab hears the storage event.
    localStorage.removeItem("auth_token");
    localStorage.removeItem("user_data");
    window.dispatchEvent(new StorageEvent("storage", { key: "auth_token" }));
    await waitFor(() => expect(store.paths(SAVED_DEALS_CACHE)).toEqual([]));
    expect(await screen.findByText("Please log in to see this deal.")).toBeInTheDocument();
  });
});

describe("the offline banner", () => {
  it("appears when the connection goes and goes when it comes back", async () => {
    fakeApi(dealApi(paidDeal()));
    renderApp("/deals/d1", sessionOf(RENTER));
    await screen.findByText(agreement.data.text);
    const banner = document.querySelector(".offline-banner")!;
    expect(banner).toHaveAttribute("role", "status");
    expect(banner).toBeEmptyDOMElement();
    goOffline();
    await waitFor(() => expect(banner).toHaveTextContent("You're offline. What this device saved still opens; the rest loads when you're back online."));
    goOnline();
    await waitFor(() => expect(banner).toBeEmptyDOMElement());
  });

  it("takes over the service worker's banner on a page served offline, with the time it was seen, and removes it once online", async () => {
    const worker = document.createElement("div");
    worker.id = "sw-offline-banner";
    worker.className = "offline-banner";
    worker.setAttribute("role", "status");
    worker.dataset.savedAt = "2026-11-20T09:05:00";
    worker.textContent = "You're offline: this is what you saw at 09:05.";
    document.body.prepend(worker);
    goOffline();
    renderApp("/deals/d1", sessionOf(RENTER));
    await waitFor(() => expect(document.getElementById("sw-offline-banner")).toBeNull());
    const banner = document.querySelector(".offline-banner")!;
    expect(banner).toHaveTextContent("You're offline: this is what you saw at 09:05.");
    goOnline();
    await waitFor(() => expect(banner).toBeEmptyDOMElement());
  });
});

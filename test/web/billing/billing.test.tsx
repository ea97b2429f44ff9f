import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Deal } from "@contract/deals";
import type { BillingHistoryEntry, PromotedListing, PromotionState } from "@contract/promotions";
import { LISTER, makeDeal, paidDeal, RENTER, sessionOf } from "../deals/fixtures";
import { axeViolations } from "../axe";
import { callsOf, fakeApi, makeOwnerListing, makeUser, renderApp, type ApiCall } from "../render";

const user = makeUser({ id: "u1", id_verification_status: "verified" });
const session = { token: "t", user };

const promoted = (id: string, state: PromotionState, end: string | null): PromotedListing => ({
  ...makeOwnerListing({ id, user_id: "u1", title: `Room ${id}`, promoted: state !== "none" && state !== "awaiting_approval", promotion_end: end }),
  promotion_state: state,
});

const LIST = "GET /api/v1/users/promoted-listings";
const DEALS = "GET /api/v1/deals";
const dealsPage = (data: Deal[] = []) => ({ data, pagination: { next_token: null, has_more: false } });
const fourStates = () => [
  promoted("p1", "promoted", "2026-12-07T12:00:00.000Z"),
  promoted("c1", "cancelled", "2026-12-03T12:00:00.000Z"),
  promoted("d1", "past_due", "2026-11-30T12:00:00.000Z"),
  promoted("a1", "awaiting_approval", null),
];
const row = (title: string) => screen.getByRole("link", { name: title }).closest("li")!;

describe("billing page", () => {
  it("tells a visitor to log in, with Sign In, and stays on /billing (like every locked page)", async () => {
    fakeApi({ [DEALS]: dealsPage(), [LIST]: { data: fourStates() } });
    const { router } = renderApp("/billing");
    expect(await screen.findByText("Please log in to see your promotions and billing.")).toBeInTheDocument();
    expect(within(screen.getByRole("main")).getByRole("button", { name: "Sign In" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/billing");
  });

  it("shows each promoted listing with its state and date: Promoted renews, Cancelled expires, Payment failed, Starts when approved", async () => {
    fakeApi({ [DEALS]: dealsPage(), [LIST]: { data: fourStates() } });
    renderApp("/billing?listing_id=c1", session);
    await screen.findByRole("link", { name: "Room p1" });

    expect(within(row("Room p1")).getByText("Promoted")).toBeInTheDocument();
    expect(row("Room p1")).toHaveTextContent("Renews on Dec 7, 2026");
    expect(within(row("Room c1")).getByText("Cancelled")).toBeInTheDocument();
    expect(row("Room c1")).toHaveTextContent("Expires on Dec 3, 2026");
    expect(within(row("Room d1")).getByText("Payment failed")).toBeInTheDocument();
    expect(within(row("Room a1")).getByText("Starts when approved")).toBeInTheDocument();

    // Only subscriptions that still renew can be cancelled; every row has its history.
    expect(within(row("Room p1")).getByRole("button", { name: "Cancel Subscription" })).toBeInTheDocument();
    expect(within(row("Room d1")).getByRole("button", { name: "Cancel Subscription" })).toBeInTheDocument();
    expect(within(row("Room c1")).queryByRole("button", { name: "Cancel Subscription" })).toBeNull();
    expect(screen.getAllByRole("button", { name: "Billing history" })).toHaveLength(4);
    // ?listing_id= highlights that row.
    expect(row("Room c1")).toHaveAttribute("aria-current", "true");
    expect(row("Room p1")).not.toHaveAttribute("aria-current");
  });

  it("Cancel Subscription asks to confirm, posts, and the row then reads Cancelled", async () => {
    // After the cancel, the server holds the cancelled promotion (it runs to promotion_end).
    let cancelled = false;
    const calls = fakeApi({
      [DEALS]: dealsPage(),
      [LIST]: () => ({ data: [promoted("p1", cancelled ? "cancelled" : "promoted", "2026-12-07T12:00:00.000Z")] }),
      "POST /api/v1/promotions/cancel/p1": () => {
        cancelled = true;
        return { data: { promoted: true, promotion_start: null, promotion_end: "2026-12-07T12:00:00.000Z", days_remaining: 5, auto_renew: false, state: "cancelled" } };
      },
    });
    const ui = userEvent.setup();
    renderApp("/billing", session);
    await screen.findByRole("link", { name: "Room p1" });

    // Keeping it sends nothing.
    await ui.click(within(row("Room p1")).getByRole("button", { name: "Cancel Subscription" }));
    let dialog = screen.getByRole("dialog", { name: "Cancel this subscription?" });
    expect(dialog).toHaveTextContent("It stays promoted until Dec 7, 2026");
    await ui.click(within(dialog).getByRole("button", { name: "Keep subscription" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(callsOf(calls, "POST /api/v1/promotions/cancel/p1")).toHaveLength(0);

    await ui.click(within(row("Room p1")).getByRole("button", { name: "Cancel Subscription" }));
    dialog = screen.getByRole("dialog", { name: "Cancel this subscription?" });
    await ui.click(within(dialog).getByRole("button", { name: "Cancel Subscription" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(callsOf(calls, "POST /api/v1/promotions/cancel/p1")).toHaveLength(1);
    await waitFor(() => expect(within(row("Room p1")).getByText("Cancelled")).toBeInTheDocument());
    expect(row("Room p1")).toHaveTextContent("Expires on Dec 7, 2026");
    expect(within(row("Room p1")).queryByRole("button", { name: "Cancel Subscription" })).toBeNull();
  });

  it("a failed cancel says 'Failed to cancel subscription' and the row stays Promoted", async () => {
    fakeApi({
      [DEALS]: dealsPage(),
      [LIST]: { data: [promoted("p1", "promoted", "2026-12-07T12:00:00.000Z")] },
      "POST /api/v1/promotions/cancel/p1": new Response("{}", { status: 500 }),
    });
    const ui = userEvent.setup();
    renderApp("/billing", session);
    await ui.click(within((await screen.findByRole("link", { name: "Room p1" })).closest("li")!).getByRole("button", { name: "Cancel Subscription" }));
    const dialog = screen.getByRole("dialog");
    await ui.click(within(dialog).getByRole("button", { name: "Cancel Subscription" }));
    expect(await within(dialog).findByText("Failed to cancel subscription")).toBeInTheDocument();
    expect(within(row("Room p1")).getByText("Promoted")).toBeInTheDocument();
  });

  it("the billing history modal lists each payment: date, period, amount from minor units in its currency, status", async () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    const entries: BillingHistoryEntry[] = [
      {
        id: "in_2",
        amount: 500,
        currency: "usd",
        period_start: at("2026-11-30T12:00:00Z"),
        period_end: at("2026-12-07T12:00:00Z"),
        created: at("2026-11-30T12:00:00Z"),
        status: "paid",
      },
      {
        id: "in_1",
        amount: 1250,
        currency: "eur",
        period_start: at("2026-11-23T12:00:00Z"),
        period_end: at("2026-11-30T12:00:00Z"),
        created: at("2026-11-23T12:00:00Z"),
        status: "open",
      },
    ];
    const calls = fakeApi({ [DEALS]: dealsPage(), [LIST]: { data: [promoted("p1", "promoted", "2026-12-07T12:00:00.000Z")] }, "GET /api/v1/promotions/billing-history/p1": { data: entries } });
    const ui = userEvent.setup();
    renderApp("/billing", session);
    await screen.findByRole("link", { name: "Room p1" });
    expect(callsOf(calls, "GET /api/v1/promotions/billing-history/p1")).toHaveLength(0);
    await ui.click(screen.getByRole("button", { name: "Billing history" }));
    const dialog = screen.getByRole("dialog", { name: "Billing history" });
    const rows = await within(dialog).findAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent("Nov 30, 2026");
    expect(rows[1]).toHaveTextContent("Nov 30, 2026 – Dec 7, 2026");
    expect(rows[1]).toHaveTextContent("$5.00");
    expect(rows[1]).toHaveTextContent("Paid");
    expect(rows[2]).toHaveTextContent("€12.50");
    expect(rows[2]).toHaveTextContent("Open");
    // Under 600 px each row is a card whose lines are named by these (styles.css).
    expect([...rows[1]!.querySelectorAll("td")].map((td) => td.dataset.label)).toEqual(["Date", "Period", "Amount", "Status"]);
    await ui.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("without promoted listings says so and links to the profile; a failed load says 'Failed to fetch promoted listings'", async () => {
    fakeApi({ [DEALS]: dealsPage(), [LIST]: { data: [] } });
    const first = renderApp("/billing", session);
    expect(await screen.findByText(/You have not promoted a listing yet/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "your profile" })).toHaveAttribute("href", "/profile");
    first.unmount();

    fakeApi({ [DEALS]: dealsPage(), [LIST]: new Response(JSON.stringify({ detail: "Forbidden" }), { status: 403 }) });
    renderApp("/billing", session);
    expect(await screen.findByText(/Failed to fetch promoted listings/)).toBeInTheDocument();
  });

  it("shows a deleted listing's promotion and billing history: no link to the listing, no Cancel, its history still opens", async () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    const gone: PromotedListing = { ...promoted("g1", "cancelled", "2026-12-07T12:00:00.000Z"), deleted: true };
    const entry: BillingHistoryEntry = { id: "in_1", amount: 500, currency: "usd", period_start: at("2026-11-30T12:00:00Z"), period_end: at("2026-12-07T12:00:00Z"), created: at("2026-11-30T12:00:00Z"), status: "paid" };
    const calls = fakeApi({ [DEALS]: dealsPage(), [LIST]: { data: [gone] }, "GET /api/v1/promotions/billing-history/g1": { data: [entry] } });
    const ui = userEvent.setup();
    renderApp("/billing", session);
    const item = (await screen.findByText("Room g1")).closest("li")!;
    expect(within(item).queryByRole("link")).toBeNull();
    expect(item).toHaveTextContent("Deleted listing");
    expect(item).toHaveTextContent("You deleted this listing; its promotion does not renew. Paid through Dec 7, 2026.");
    expect(within(item).queryByRole("button", { name: "Cancel Subscription" })).toBeNull();
    expect(screen.queryByText(/You have not promoted a listing yet/)).toBeNull();
    await ui.click(within(item).getByRole("button", { name: "Billing history" }));
    const rows = await within(screen.getByRole("dialog", { name: "Billing history" })).findAllByRole("row");
    expect(rows[1]).toHaveTextContent("$5.00");
    expect(callsOf(calls, "GET /api/v1/promotions/billing-history/g1")).toHaveLength(1);
  });
});

describe("billing: deal receipts", () => {
  it("lists the deals paid, as renter and as lister, with what was paid and when, each linking to its receipt; unpaid deals are left out", async () => {
    const paidOn = new Date(2026, 10, 25, 14, 30).toISOString();
    const deals = [
      paidDeal({ id: "d1" }, { paid_at: paidOn }),
      makeDeal({ id: "d2", listing_title: "Not paid yet" }),
      paidDeal({ id: "d3", listing_title: "My own studio", renter: { id: "ana", first_name: "Ana", last_name: "Ruiz" }, lister: RENTER }, { status: "released", paid_at: paidOn, refunded_cents: 20000, transferred_cents: 65000 }),
    ];
    fakeApi({ [DEALS]: dealsPage(deals), [LIST]: { data: [] } });
    renderApp("/billing", sessionOf(RENTER));
    const receipts = await screen.findByRole("list", { name: "Deal receipts" });
    const rows = within(receipts).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("Sunny 2x2 near campus");
    expect(rows[0]).toHaveTextContent("Jun 1 - Aug 15, 2027");
    expect(rows[0]).toHaveTextContent("You paid $892.50 (first month's rent $850.00 and service fee $42.50) on Nov 25, 2026. $892.50 held by CampusNest; nothing to Jordan yet.");
    expect(within(rows[0]!).getByRole("link", { name: "Receipt" })).toHaveAttribute("href", "/deals/d1#receipt");
    // The lister reads what reached them (payment.transferred_cents), what went back, and the fee.
    expect(rows[1]).toHaveTextContent("Ana paid the first month's rent, $850.00, on Nov 25, 2026. $200.00 refunded to Ana, $650.00 to you, CampusNest fee $42.50 kept.");
    expect(within(rows[1]!).getByRole("link", { name: "Receipt" })).toHaveAttribute("href", "/deals/d3#receipt");
    expect(screen.queryByText("Not paid yet")).toBeNull();
    // Promotions keep their own part of the page.
    expect(screen.getByRole("heading", { name: "Promotions" })).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });

  it("says when there is none yet, and offers the next page when there are more deals", async () => {
    fakeApi({ [DEALS]: dealsPage([makeDeal()]), [LIST]: { data: [] } });
    renderApp("/billing", sessionOf(LISTER));
    expect(await screen.findByText(/No deal receipts yet/)).toBeInTheDocument();

    const calls = fakeApi({
      [DEALS]: (call: ApiCall) =>
        call.url.includes("last_evaluated_key") ? dealsPage([paidDeal({ id: "old" })]) : { data: [makeDeal()], pagination: { next_token: "next", has_more: true } },
      [LIST]: { data: [] },
    });
    const ui = userEvent.setup();
    renderApp("/billing", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "Show older deals" }));
    expect(await screen.findByRole("link", { name: "Receipt" })).toHaveAttribute("href", "/deals/old#receipt");
    expect(callsOf(calls, DEALS)).toHaveLength(2);
  });

  it("a failed load says so and Try again reads the deals again, while promotions still show", async () => {
    let fail = true;
    const calls = fakeApi({
      [DEALS]: () => (fail ? new Response(JSON.stringify({ detail: "Server error" }), { status: 500 }) : dealsPage([paidDeal({ id: "d1" })])),
      [LIST]: { data: [promoted("p1", "promoted", "2026-12-07T12:00:00.000Z")] },
    });
    const ui = userEvent.setup();
    renderApp("/billing", sessionOf(RENTER));
    const alert = await screen.findByText(/Could not load your deal receipts/);
    expect(screen.getByRole("link", { name: "Room p1" })).toBeInTheDocument();
    fail = false;
    await ui.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("link", { name: "Receipt" })).toHaveAttribute("href", "/deals/d1#receipt");
    expect(callsOf(calls, DEALS).length).toBeGreaterThanOrEqual(2);
  });
});

/**
 * Paying the first month: whose step holds it (the lister's payouts), the amounts, the fee's percentage
 * and the policy before paying, "Pay" (one Idempotency-Key per deal), the way back from the payment
 * page (bounded reads until the payment shows), a cancellation after payment and the lister's decision.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dealMoment } from "@contract/deal-process";
import { DEAL_CANCELLATION_POLICY, DEAL_CANCELLATION_POLICY_FOR_LISTER, type Deal } from "@contract/deals";
import { checkoutPage } from "../../../web/features/deals/api/deals-api";
import { paymentWatch } from "../../../web/features/deals/components/checkout-return";
import { cancelText } from "../../../web/features/deals/components/deal-actions";
import { dealTime, nextStep, parseDollars } from "../../../web/lib/deal-status";
import { axeViolations } from "../axe";
import { callsOf, fakeApi, IdleWebSocket, makeOwnerListing, notFound, participantRoutes, renderApp, afterTheKeysRoutes, publicUserRoute } from "../render";
import { dealMessage, json, LISTER, makeDeal, page, paidDeal, RENTER, sessionOf, signedDeal, statusLine, viewedBy } from "./fixtures";

const API = "/api/v1";
const agreement = { data: { version: 1, text: "SUBLEASE AGREEMENT", sha256: "a".repeat(64), events: [] } };

function dealApi(deal: () => Deal | Response, extra: Record<string, unknown> = {}) {
  return fakeApi({ ...afterTheKeysRoutes("d1"),
    [`GET ${API}/deals/d1`]: () => {
      const d = deal();
      return d instanceof Response ? d : { data: d };
    },
    [`GET ${API}/deals/d1/agreement`]: agreement,
    ...extra,
  });
}

const realWatch = { ...paymentWatch };
afterEach(() => {
  Object.assign(paymentWatch, realWatch);
  vi.unstubAllGlobals();
});

describe("whose step holds the payment", () => {
  it("asks the lister to set up payouts, linking to the profile's Payouts section (which comes back to this deal)", async () => {
    dealApi(() => viewedBy(signedDeal({}, { payable: false, waiting_for: "lister_payouts" }), "lister"));
    renderApp("/deals/d1", sessionOf(LISTER));
    await waitFor(() => expect(statusLine()).toHaveTextContent("Your step: Set up payouts so Maya can pay."));
    expect(screen.getByRole("link", { name: "Set up payouts to get paid" })).toHaveAttribute("href", "/profile?payouts_for=d1#payouts");
    expect(screen.queryByRole("button", { name: /^Pay / })).toBeNull();
    expect(await axeViolations()).toEqual([]);
  });

  it("tells the renter whose step it is, with no Pay button", async () => {
    dealApi(() => signedDeal({}, { payable: false, waiting_for: "lister_payouts" }));
    renderApp("/deals/d1", sessionOf(RENTER));
    await waitFor(() => expect(statusLine()).toHaveTextContent("Next: Waiting for Jordan to set up payouts."));
    expect(screen.queryByRole("link", { name: /Set up payouts/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Pay / })).toBeNull();
    // The amounts and the policy are there to read before it is payable.
    const terms = screen.getByRole("region", { name: "The terms" });
    expect(terms).toHaveTextContent("Total$892.50");
    expect(terms).toHaveTextContent(DEAL_CANCELLATION_POLICY[1]!);
  });
});

describe("paying", () => {
  it("shows the amounts, the fee's percentage and the policy first; Pay opens the payment page with the deal's own Idempotency-Key; a refusal shows the detail", async () => {
    let refuse = true;
    const calls = dealApi(() => signedDeal(), {
      [`POST ${API}/deals/d1/checkout`]: () =>
        refuse ? json({ detail: "Jordan has not finished setting up payouts yet" }, 409) : { data: { checkout_url: "https://checkout.stripe.test/c/cs_1", session_id: "cs_1" } },
    });
    const open = vi.spyOn(checkoutPage, "open").mockImplementation(() => {});
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    const pay = await screen.findByRole("button", { name: "Pay $892.50 for Sunny 2x2 near campus" });
    const box = pay.closest(".deal-pay") as HTMLElement;
    const amounts = within(box).getAllByRole("definition").map((d) => d.textContent);
    expect(within(box).getByText("First month's rent")).toBeInTheDocument();
    expect(within(box).getByText("Service fee (5%)")).toBeInTheDocument();
    expect(within(box).getByText("Total to pay now")).toBeInTheDocument();
    expect(amounts).toEqual(["$850.00", "$42.50", "$892.50"]);
    for (const line of DEAL_CANCELLATION_POLICY) expect(within(box).getByText(line)).toBeInTheDocument();
    expect(statusLine()).toHaveTextContent("Your step: Pay the first month through CampusNest");
    expect(await axeViolations()).toEqual([]);

    await ui.click(pay);
    expect(await within(box).findByText("Jordan has not finished setting up payouts yet")).toHaveAttribute("role", "alert");
    expect(open).not.toHaveBeenCalled();
    refuse = false;
    await ui.click(screen.getByRole("button", { name: "Pay $892.50 for Sunny 2x2 near campus" }));
    await waitFor(() => expect(open).toHaveBeenCalledWith("https://checkout.stripe.test/c/cs_1"));
    // Busy until the browser leaves: a second tap sends nothing.
    expect(within(box).getByRole("button", { name: "Opening the payment page…" })).toBeDisabled();
    const checkouts = callsOf(calls, `POST ${API}/deals/d1/checkout`);
    expect(checkouts).toHaveLength(2);
    // Both tries (and any other tab) send the deal's key: the server answers the same open session.
    expect(checkouts.map((c) => c.headers.get("Idempotency-Key"))).toEqual(["deal-checkout-d1", "deal-checkout-d1"]);
  });

  it("tells the lister the renter can pay now, and offers them no Pay button", async () => {
    dealApi(() => viewedBy(signedDeal(), "lister"));
    renderApp("/deals/d1", sessionOf(LISTER));
    expect(await screen.findByText(/Maya can pay \$892\.50 now\. CampusNest holds the rent until 48 hours after move-in/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Pay / })).toBeNull();
    expect(statusLine()).toHaveTextContent("Next: Waiting for Maya to pay the first month.");
  });
});

describe("back from the payment page", () => {
  /** The waits between reads, released by the test (no real clock). */
  function controlledWaits() {
    const waits: (() => void)[] = [];
    paymentWatch.wait = () => new Promise<void>((resolve) => waits.push(resolve));
    const next = async () => {
      await waitFor(() => expect(waits.length).toBeGreaterThan(0));
      act(() => waits.shift()!());
    };
    return { waits, next };
  }

  it("says the payment was received and reads the deal until it shows as held, then stops", async () => {
    const { waits, next } = controlledWaits();
    let current: Deal = signedDeal();
    const calls = dealApi(() => current);
    renderApp("/deals/d1?paid=1", sessionOf(RENTER));
    expect(await screen.findByText("Payment received. Confirming it with the card company…")).toBeInTheDocument();
    const reads = () => callsOf(calls, `GET ${API}/deals/d1`).length;
    await next();
    await waitFor(() => expect(reads()).toBe(2));
    // The payment's event landed.
    current = paidDeal();
    await next();
    expect(await screen.findByText(`Payment received. CampusNest holds it until ${dealTime(paidDeal().payment.held_until!)}. Your receipt is below.`)).toBeInTheDocument();
    expect(reads()).toBe(3);
    expect(screen.getByRole("region", { name: "Receipt" })).toBeInTheDocument();
    // No more reads are waiting.
    await new Promise((r) => setTimeout(r, 0));
    expect(waits).toHaveLength(0);
  });

  it("reads a bounded number of times, then says it is taking longer, with Check again", async () => {
    const { next } = controlledWaits();
    paymentWatch.attempts = 2;
    const calls = dealApi(() => signedDeal());
    const ui = userEvent.setup();
    renderApp("/deals/d1?paid=1", sessionOf(RENTER));
    await screen.findByText("Payment received. Confirming it with the card company…");
    await next();
    await next();
    expect(await screen.findByText(/This is taking longer than usual\. Nothing more to pay/)).toBeInTheDocument();
    expect(callsOf(calls, `GET ${API}/deals/d1`)).toHaveLength(3);
    await ui.click(screen.getByRole("button", { name: "Check again" }));
    await next();
    await waitFor(() => expect(callsOf(calls, `GET ${API}/deals/d1`)).toHaveLength(4));
  });

  it("says nothing was charged when the payment page was left", async () => {
    dealApi(() => signedDeal());
    renderApp("/deals/d1?checkout=cancelled", sessionOf(RENTER));
    expect(await screen.findByText("You were not charged. You can pay whenever you are ready, before move-in.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pay $892.50 for Sunny 2x2 near campus" })).toBeEnabled();
  });
});

describe("cancelling after payment", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2027-05-25T12:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("says what the policy gives back, by role (the server applies it; the dialog states the policy and the amounts)", () => {
    const deal = paidDeal();
    expect(cancelText(deal, "lister")).toBe("Maya gets everything back at once: $892.50, the service fee included. This cannot be undone.");
    expect(cancelText(deal, "renter")).toBe(`${DEAL_CANCELLATION_POLICY[1]} ${DEAL_CANCELLATION_POLICY[2]} You paid $850.00 rent and a $42.50 service fee. This cannot be undone.`);
    expect(cancelText(makeDeal(), "renter")).toBe("This cannot be undone: the request, the agreement and any signatures end here.");
  });

  it("confirms the renter's late cancellation with the lister's decision to come, then shows who decides by when", async () => {
    let current = paidDeal();
    const decideBy = "2027-05-28T12:00:00.000Z";
    const calls = dealApi(() => current, {
      [`POST ${API}/deals/d1/cancel`]: () => {
        current = paidDeal({ cancellation: { requested_at: "2027-05-25T12:00:00.000Z", decide_by: decideBy } });
        return { data: current };
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    expect(await screen.findByText("Paid")).toHaveClass("deal-badge");
    await ui.click(await screen.findByRole("button", { name: "Cancel deal" }));
    const dialog = screen.getByRole("alertdialog", { name: "Cancel this deal?" });
    expect(dialog).toHaveTextContent("the lister decides within 72 hours how much of the rent goes back");
    await ui.click(within(dialog).getByRole("button", { name: "Cancel deal" }));
    await waitFor(() => expect(statusLine()).toHaveTextContent(`You cancelled. Jordan decides how much of the rent goes back by ${dealMoment(decideBy, "America/New_York")}; without an answer, all of it does.`));
    expect(callsOf(calls, `POST ${API}/deals/d1/cancel`)).toHaveLength(1);
    // Not "Paid" while the lister decides: the badge says what the deal waits for.
    expect(screen.queryByText("Paid")).toBeNull();
    expect(screen.getByText("Cancelling: waiting for Jordan's refund decision")).toHaveClass("deal-badge");
    // Nothing more to cancel, no keys to confirm while the lister decides.
    expect(screen.queryByRole("button", { name: /Cancel deal/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /I have the keys/ })).toBeNull();
  });

  it("words the cancellation policy for its reader: the renter's \"you\" lines, the lister's own", async () => {
    dealApi(() => viewedBy(paidDeal(), "lister"));
    const { unmount } = renderApp("/deals/d1", sessionOf(LISTER));
    const listerPolicy = (await screen.findByRole("heading", { name: "If plans change" })).parentElement!;
    expect(within(listerPolicy).getAllByRole("listitem").map((li) => li.textContent)).toEqual([...DEAL_CANCELLATION_POLICY_FOR_LISTER]);
    expect(listerPolicy).toHaveTextContent("you decide within 72 hours how much of the rent goes back; the rest is released to you");
    expect(listerPolicy).not.toHaveTextContent("If the lister cancels after you pay");
    unmount();
    dealApi(() => paidDeal());
    renderApp("/deals/d1", sessionOf(RENTER));
    const renterPolicy = (await screen.findByRole("heading", { name: "If plans change" })).parentElement!;
    expect(within(renterPolicy).getAllByRole("listitem").map((li) => li.textContent)).toEqual([...DEAL_CANCELLATION_POLICY]);
  });

  it("tells the lister cancelling after payment that the renter gets everything back", async () => {
    dealApi(() => viewedBy(paidDeal(), "lister"));
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(LISTER));
    await ui.click(await screen.findByRole("button", { name: "Cancel deal" }));
    expect(screen.getByRole("alertdialog", { name: "Cancel this deal?" })).toHaveTextContent("Maya gets everything back at once: $892.50, the service fee included.");
  });

  it("lets the lister decide how much rent goes back: dollars and cents from 0 to the rent, a reason, confirmed in a dialog with each side's amount; what was typed kept, the server's detail shown", async () => {
    const decideBy = "2027-05-28T12:00:00.000Z";
    let current = viewedBy(paidDeal({ cancellation: { requested_at: "2027-05-25T12:00:00.000Z", decide_by: decideBy } }), "lister");
    let refuse = true;
    const calls = dealApi(() => current, {
      [`POST ${API}/deals/d1/cancellation-refund`]: () => {
        if (refuse) return json({ detail: "The 72 hours to decide have passed: the rent goes back in full" }, 409);
        current = viewedBy(
          paidDeal(
            { status: "cancelled", status_reason: "cancelled_by_renter", decision: { by: "lister", refund_cents: 42550, transfer_cents: 42450, reason: "Found a subtenant for July", at: "2027-05-26T12:00:00.000Z" } },
            { status: "released", refunded_cents: 42550, transferred_cents: 42450 },
          ),
          "lister",
        );
        return { data: current };
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(LISTER));
    const form = await screen.findByRole("form", { name: "How much of the rent goes back to Maya?" });
    expect(form).toHaveTextContent(`Decide by ${dealTime(decideBy)}.`);
    expect(statusLine()).toHaveTextContent(`Your step: Maya cancelled. Decide how much of the rent goes back by ${dealMoment(decideBy, "America/New_York")}`);
    expect(screen.getByText("Cancelling: waiting for your refund decision")).toHaveClass("deal-badge");
    const amount = within(form).getByLabelText("Rent to give back to Maya (USD)");
    const review = within(form).getByRole("button", { name: "Review my decision" });
    await ui.click(review);
    expect(within(form).getByText("Please enter an amount, 0 or more.")).toBeInTheDocument();
    await ui.type(amount, "12.345");
    await ui.click(review);
    expect(within(form).getByText("Please enter dollars and cents, like 425 or 425.50.")).toBeInTheDocument();
    expect(amount).toHaveValue("12.345");
    await ui.clear(amount);
    await ui.type(amount, "850.01");
    expect(within(form).getByText("At most $850.00.")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/cancellation-refund`)).toHaveLength(0);
    await ui.clear(amount);
    await ui.type(amount, "$425.5");
    await ui.type(within(form).getByLabelText(/Why \(optional/), "Found a subtenant for July");
    expect(within(form).getByText("Maya gets $425.50 back; you get $424.50.")).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
    // Nothing is sent before the confirmation, which states each side's amount and the reason.
    await ui.click(review);
    const dialog = screen.getByRole("alertdialog", { name: "Send your decision?" });
    expect(dialog).toHaveTextContent("Maya gets $425.50 of the rent back; $424.50 is released to you. The service fee ($42.50) is kept.");
    expect(dialog).toHaveTextContent("Found a subtenant for July");
    await ui.click(within(dialog).getByRole("button", { name: "Go back" }));
    expect(callsOf(calls, `POST ${API}/deals/d1/cancellation-refund`)).toHaveLength(0);
    await ui.click(review);
    await ui.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Send: $425.50 back, $424.50 to me" }));
    expect(await within(screen.getByRole("alertdialog")).findByText("The 72 hours to decide have passed: the rent goes back in full")).toBeInTheDocument();
    expect(amount).toHaveValue("$425.5");
    refuse = false;
    await ui.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Send: $425.50 back, $424.50 to me" }));
    // Done: the decision, each side's amount and the reason are on the page for both.
    expect(await screen.findByText(/You decided on/)).toHaveTextContent("Reason: Found a subtenant for July");
    expect(statusLine()).toHaveTextContent("The renter cancelled. $425.50 refunded to Maya, $424.50 to you, CampusNest fee $42.50 kept.");
    expect(callsOf(calls, `POST ${API}/deals/d1/cancellation-refund`).map((c) => c.body)).toEqual([
      { refund_cents: 42550, reason: "Found a subtenant for July" },
      { refund_cents: 42550, reason: "Found a subtenant for July" },
    ]);
    expect(screen.queryByRole("form", { name: /How much of the rent/ })).toBeNull();
  });

  it("reads dollars and cents as typed", () => {
    expect(parseDollars("0", 85000)).toEqual({ cents: 0 });
    expect(parseDollars("850", 85000)).toEqual({ cents: 85000 });
    expect(parseDollars(" $1,0.5 ", 85000)).toEqual({ cents: 1050 });
    expect(parseDollars("-1", 85000)).toEqual({ error: "Please enter dollars and cents, like 425 or 425.50." });
    expect(parseDollars("1e3", 85000)).toEqual({ error: "Please enter dollars and cents, like 425 or 425.50." });
  });
});

describe("the money on the card in the thread and in the profile", () => {
  beforeEach(() => vi.stubGlobal("WebSocket", IdleWebSocket));

  const conversation = {
    id: "c1",
    participant_id: LISTER.id,
    participant_name: "Jordan Kim",
    participant_avatar: null,
    latest_message_preview: "Request to sublease",
    last_message_timestamp: "2026-11-20T15:00:00.000Z",
    updated_at: "2026-11-20T15:00:00.000Z",
    unread_count: 0,
    listing_id: "l1",
    listing_title: "Sunny 2x2 near campus",
    listing_photo: null,
  };
  const thread = (deal: Deal, extra: Record<string, unknown> = {}) =>
    fakeApi({ ...afterTheKeysRoutes("d1"),
      [`GET ${API}/messages/conversations/enriched`]: { data: [conversation], pagination: { next_token: null, has_more: false } },
      [`GET ${API}/messages/conversations/c1`]: { data: conversation, reply: "open" },
      [`GET ${API}/messages/conversations/c1/messages`]: { messages: [dealMessage()], pagination: { next_token: null, has_more: false } },
      [`POST ${API}/messages/conversations/c1/read`]: { unread_count: 0 },
      [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ id: "l1", user_id: LISTER.id, status: "taken" }) },
      [`GET ${API}/deals/d1`]: { data: deal },
      ...participantRoutes(LISTER.id),
      ...extra,
    });

  it("offers the renter Pay on the card, with the amounts and the policy", async () => {
    const calls = thread(signedDeal(), { [`POST ${API}/deals/d1/checkout`]: { data: { checkout_url: "/dev/checkout/cs_1", session_id: "cs_1" } } });
    const open = vi.spyOn(checkoutPage, "open").mockImplementation(() => {});
    const ui = userEvent.setup();
    renderApp("/messages?conversation=c1", sessionOf(RENTER));
    const card = await screen.findByRole("article", { name: "Sunny 2x2 near campus" });
    expect(within(card).getByText(DEAL_CANCELLATION_POLICY[0]!)).toBeInTheDocument();
    await ui.click(within(card).getByRole("button", { name: "Pay $892.50 for Sunny 2x2 near campus" }));
    await waitFor(() => expect(open).toHaveBeenCalledWith("/dev/checkout/cs_1"));
    expect(callsOf(calls, `POST ${API}/deals/d1/checkout`)[0]!.headers.get("Idempotency-Key")).toBe("deal-checkout-d1");
  });

  it("shows a held deal's release time, Report a problem and the receipt's link on the card", async () => {
    thread(paidDeal());
    renderApp("/messages?conversation=c1", sessionOf(RENTER));
    const card = await screen.findByRole("article", { name: "Sunny 2x2 near campus" });
    expect(within(card).getByRole("status")).toHaveTextContent(`Held by CampusNest until ${dealMoment(paidDeal().payment.held_until!, "America/New_York")}.`);
    expect(within(card).getByRole("button", { name: "Report a problem: Sunny 2x2 near campus" })).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Receipt: Sunny 2x2 near campus" })).toHaveAttribute("href", "/deals/d1#receipt");
  });

  it("lists each deal's money in the profile: payouts to set up, a payment to make, a receipt", async () => {
    const me = sessionOf(RENTER);
    const mine = [
      signedDeal({ id: "d1" }),
      paidDeal({ id: "d2", listing_title: "Loft on 5th" }),
      viewedBy(signedDeal({ id: "d3", listing_title: "My studio", renter: { id: "x", first_name: "Ana", last_name: "Ruiz" }, lister: RENTER }, { payable: false, waiting_for: "lister_payouts" }), "lister"),
      makeDeal({ id: "d4", listing_title: "Just asked" }),
    ];
    fakeApi({ ...afterTheKeysRoutes("d1"), ...publicUserRoute(me.user.id),
      [`GET ${API}/universities/`]: { data: [] },
      [`GET ${API}/users/profile`]: { data: me.user },
      [`GET ${API}/users/listings`]: { data: [] },
      [`GET ${API}/saved-searches/`]: notFound,
      [`GET ${API}/users/blocks`]: notFound,
      [`GET ${API}/deals`]: page(mine),
      [`GET ${API}/payouts/status`]: { data: { status: "none", requirements_due: [] } },
    });
    renderApp("/profile", me);
    const section = await screen.findByRole("region", { name: "Deals" });
    expect(await within(section).findByRole("link", { name: "Pay $892.50 for Sunny 2x2 near campus" })).toHaveAttribute("href", "/deals/d1");
    expect(within(section).getByRole("link", { name: "Receipt: Loft on 5th" })).toHaveAttribute("href", "/deals/d2#receipt");
    expect(within(section).getByText(/Paid \$892\.50/)).toBeInTheDocument();
    expect(within(section).getByRole("link", { name: "Set up payouts to get paid" })).toHaveAttribute("href", "#payouts");
    expect(within(section).getAllByRole("link").filter((l) => /Pay |Receipt|payouts/.test(l.textContent ?? ""))).toHaveLength(3);
  });
});

describe("the next step once paid", () => {
  it("is the server's waiting_for, with whose step it is for the viewer; an ended deal says why and where the money went", () => {
    const released = paidDeal({ status: "released" }, { status: "released", released_at: "2027-06-03T04:00:00.000Z", refunded_cents: 20000, transferred_cents: 65000 });
    expect(nextStep(viewedBy(released, "lister"), LISTER.id)).toEqual({ text: "This deal was completed. $200.00 refunded to Maya, $650.00 to you, CampusNest fee $42.50 kept.", whose: "none" });
    expect(nextStep(released, RENTER.id).text).toBe("This deal was completed. $200.00 refunded to you, $650.00 to Jordan, CampusNest fee $42.50 kept.");
    const late = paidDeal({ cancellation: { requested_at: "2027-05-25T12:00:00.000Z", decide_by: "2027-05-28T12:00:00.000Z" } });
    expect(nextStep(viewedBy(late, "lister"), LISTER.id)).toMatchObject({ whose: "you" });
    expect(nextStep(late, RENTER.id)).toMatchObject({ whose: "other" });
    // Staff (no role) read whose step it is by name, never as "you".
    expect(nextStep(viewedBy(late, "staff"), undefined)).toEqual({ text: `Maya cancelled. Jordan decides how much of the rent goes back by ${dealMoment("2027-05-28T12:00:00.000Z", "America/New_York")}; without an answer, all of it does.`, whose: "none" });
    expect(nextStep(makeDeal({ waiting_for: { party: "landlord", step: "landlord_consent", detail: "Waiting for the landlord." } }), RENTER.id)).toEqual({ text: "Waiting for the landlord.", whose: "landlord" });
  });
});

/** The receipt after paying: the amounts, the fee's percentage, when paid, the deal, where the money is, printable alone. */
import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Deal } from "@contract/deals";
import { dealTime } from "../../../web/lib/deal-status";
import { axeViolations } from "../axe";
import { fakeApi, renderApp } from "../render";
import { HELD_UNTIL, LISTER, paidDeal, RENTER, sessionOf, signedDeal } from "./fixtures";

const API = "/api/v1";
const agreement = { data: { version: 1, text: "SUBLEASE AGREEMENT", sha256: "a".repeat(64), events: [] } };
const show = (deal: Deal, who = RENTER) => {
  fakeApi({ [`GET ${API}/deals/d1`]: { data: deal }, [`GET ${API}/deals/d1/agreement`]: agreement });
  renderApp("/deals/d1", sessionOf(who));
};
/** The receipt's facts, term by term. */
const facts = (receipt: HTMLElement) =>
  Object.fromEntries(within(receipt).getAllByRole("term").map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));

describe("the receipt", () => {
  it("says what was paid, the fee's percentage, when, for which deal and listing, and that the money is held", async () => {
    show(paidDeal());
    const receipt = await screen.findByRole("region", { name: "Receipt" });
    expect(receipt).toHaveAttribute("id", "receipt");
    expect(facts(receipt)).toEqual({
      Deal: "d1",
      Listing: "Sunny 2x2 near campus",
      // A receipt prints the year always.
      Stay: "Jun 1 - Aug 15, 2027",
      "Paid by": "Maya Lopez",
      "Paid to": "Jordan Kim, through CampusNest",
      "Paid at": dealTime("2026-11-25T14:30:00.000Z"),
      "Where the money is": `Held by CampusNest until ${dealTime(HELD_UNTIL)}`,
      "First month's rent": "$850.00",
      "Service fee (5%)": "$42.50",
      "Total paid": "$892.50",
    });
    expect(await axeViolations()).toEqual([]);
  });

  it("says when the money was released and how much went back after a partial refund", async () => {
    show(paidDeal({ status: "released" }, { status: "released", released_at: "2027-06-03T04:00:00.000Z", refunded_cents: 20000, transferred_cents: 65000, fee_percent: 7.5, fee_cents: 6375, total_cents: 91375 }), LISTER);
    const receipt = await screen.findByRole("region", { name: "Receipt" });
    const f = facts(receipt);
    expect(f["Where the money is"]).toBe(`Released to Jordan Kim on ${dealTime("2027-06-03T04:00:00.000Z")}`);
    expect(f["Refunded to Maya Lopez"]).toBe("$200.00");
    // What reached the lister (payment.transferred_cents).
    expect(f["Released to Jordan Kim"]).toBe("$650.00");
    expect(f["Service fee (7.5%)"]).toBe("$63.75");
    expect(f["Total paid"]).toBe("$913.75");
  });

  it("says a refunded payment was refunded, and how much", async () => {
    show(paidDeal({ status: "cancelled", status_reason: "cancelled_by_lister" }, { status: "refunded", refunded_cents: 89250 }));
    const receipt = await screen.findByRole("region", { name: "Receipt" });
    expect(facts(receipt)["Where the money is"]).toBe("Refunded to Maya Lopez");
    expect(facts(receipt)["Refunded to Maya Lopez"]).toBe("$892.50");
    expect(facts(receipt)["Released to Jordan Kim"]).toBeUndefined();
  });

  it("is not there before payment", async () => {
    show(signedDeal());
    await screen.findByRole("button", { name: /^Pay / });
    expect(screen.queryByRole("region", { name: "Receipt" })).toBeNull();
  });

  it("prints alone: the page is marked while the print dialog is open", async () => {
    show(paidDeal());
    const print = vi.fn(() => expect(document.documentElement).toHaveClass("printing-receipt"));
    vi.stubGlobal("print", print);
    const ui = userEvent.setup();
    const receipt = await screen.findByRole("region", { name: "Receipt" });
    await ui.click(within(receipt).getByRole("button", { name: "Print the receipt" }));
    expect(print).toHaveBeenCalledTimes(1);
    fireEvent(window, new Event("afterprint"));
    expect(document.documentElement).not.toHaveClass("printing-receipt");
    vi.unstubAllGlobals();
  });
});

/** The receipt after paying: the amounts, the fee's percentage, when paid, the deal, where the money is, printable alone. */
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Deal } from "@contract/deals";
import { dealTime } from "../../../web/lib/deal-status";
import { axeViolations } from "../axe";
import { fakeApi, renderApp, afterTheKeysRoutes } from "../render";
import { HELD_UNTIL, LISTER, paidDeal, RENTER, sessionOf, signedDeal } from "./fixtures";

const API = "/api/v1";
const agreement = { data: { version: 1, text: "SUBLEASE AGREEMENT", sha256: "a".repeat(64), events: [] } };
const show = (deal: Deal, who = RENTER) => {
  fakeApi({ ...afterTheKeysRoutes("d1"), [`GET ${API}/deals/d1`]: { data: deal }, [`GET ${API}/deals/d1/agreement`]: agreement });
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
      "Payment reference": "pi_3PaidDeal",
      Deal: "d1",
      Listing: "Sunny 2x2 near campus",
      // A receipt prints the year always.
      Stay: "Jun 1 - Aug 15, 2027",
      "Paid by": "Maya Lopez",
      "Paid to": "Jordan Kim, through CampusNest",
      "Paid at": dealTime("2026-11-25T14:30:00.000Z"),
      "Where the money is": `$892.50 held by CampusNest; nothing to Jordan Kim yet. Held until ${dealTime(HELD_UNTIL)}.`,
      "First month's rent": "$850.00",
      "Service fee (5%)": "$42.50",
      "Total paid": "$892.50",
    });
    // Printed, the title comes first, then the parties, then the payment's reference.
    expect(within(receipt).getAllByRole("term").slice(0, 3).map((t) => t.textContent)).toEqual(["Paid by", "Paid to", "Payment reference"]);
    expect(receipt.querySelector(".receipt-brand")!.compareDocumentPosition(within(receipt).getByRole("heading", { name: "Receipt" })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(await axeViolations()).toEqual([]);
  });

  it("says when the money was released and how much went back after a partial refund", async () => {
    show(paidDeal({ status: "released" }, { status: "released", released_at: "2027-06-03T04:00:00.000Z", refunded_cents: 20000, transferred_cents: 65000, fee_percent: 7.5, fee_cents: 6375, total_cents: 91375 }), LISTER);
    const receipt = await screen.findByRole("region", { name: "Receipt" });
    const f = facts(receipt);
    // Who got how much, fee included: a partial refund comes out of the rent.
    expect(f["Where the money is"]).toBe(`$200.00 refunded to Maya Lopez, $650.00 to Jordan Kim, CampusNest fee $63.75 kept. Released on ${dealTime("2027-06-03T04:00:00.000Z")}.`);
    expect(f["Refunded to Maya Lopez"]).toBe("$200.00");
    // What reached the lister (payment.transferred_cents).
    expect(f["Released to Jordan Kim"]).toBe("$650.00");
    expect(f["Service fee (7.5%)"]).toBe("$63.75");
    expect(f["Total paid"]).toBe("$913.75");
  });

  it("says a refunded payment was refunded, and how much, the fee with it when all went back", async () => {
    show(paidDeal({ status: "cancelled", status_reason: "cancelled_by_lister" }, { status: "refunded", refunded_cents: 89250 }));
    const receipt = await screen.findByRole("region", { name: "Receipt" });
    expect(facts(receipt)["Where the money is"]).toBe("$892.50 refunded to Maya Lopez, CampusNest fee $42.50 included; nothing to Jordan Kim.");
    expect(facts(receipt)["Refunded to Maya Lopez"]).toBe("$892.50");
    expect(facts(receipt)["Released to Jordan Kim"]).toBeUndefined();
  });

  it("says a cancelled deal's amounts, never a bare \"Released to\": the renter's early cancellation keeps the fee; a late one splits the rent", async () => {
    show(paidDeal({ status: "cancelled", status_reason: "cancelled_by_renter" }, { status: "refunded", refunded_cents: 85000 }), LISTER);
    let receipt = await screen.findByRole("region", { name: "Receipt" });
    expect(facts(receipt)["Where the money is"]).toBe("$850.00 refunded to Maya Lopez, nothing to Jordan Kim, CampusNest fee $42.50 kept.");
    cleanup();
    show(
      paidDeal(
        { status: "cancelled", status_reason: "cancelled_by_renter", decision: { by: "lister", refund_cents: 0, transfer_cents: 85000, reason: null, at: "2027-05-26T12:00:00.000Z" } },
        { status: "released", released_at: "2027-05-26T12:00:05.000Z", transferred_cents: 85000 },
      ),
    );
    receipt = await screen.findByRole("region", { name: "Receipt" });
    expect(facts(receipt)["Where the money is"]).toBe(`Nothing refunded to Maya Lopez, $850.00 to Jordan Kim, CampusNest fee $42.50 kept. Released on ${dealTime("2027-05-26T12:00:05.000Z")}.`);
  });

  it("is not there before payment", async () => {
    show(signedDeal());
    await screen.findByRole("button", { name: /^Pay / });
    expect(screen.queryByRole("region", { name: "Receipt" })).toBeNull();
  });

  it("prints alone: the page is marked while the print dialog is open", async () => {
    show(paidDeal());
    const print = vi.fn(() => {
      expect(document.documentElement).toHaveClass("printing-receipt");
      // The browser prints (and names a saved PDF by) the document's title: the receipt's, while it prints.
      expect(document.title).toBe("CampusNest receipt: Sunny 2x2 near campus, Maya Lopez to Jordan Kim");
    });
    vi.stubGlobal("print", print);
    const ui = userEvent.setup();
    const receipt = await screen.findByRole("region", { name: "Receipt" });
    const title = document.title;
    expect(title).toMatch(/^Deal: /);
    await ui.click(within(receipt).getByRole("button", { name: "Print the receipt" }));
    expect(print).toHaveBeenCalledTimes(1);
    fireEvent(window, new Event("afterprint"));
    expect(document.documentElement).not.toHaveClass("printing-receipt");
    expect(document.title).toBe(title);
    vi.unstubAllGlobals();
  });
});

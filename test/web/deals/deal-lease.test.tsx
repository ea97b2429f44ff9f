/**
 * The original lease on the deal page (docs/decisions/041): the lister is offered to attach it from
 * acceptance on; both parties read it as private evidence (fetched with their own session); the renter
 * is told when it is missing. The request's renter who is not verified is told at once, with the way to verify.
 */
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { axeViolations } from "../axe";
import { afterTheKeysRoutes, callsOf, fakeApi, renderApp } from "../render";
import { acceptedDeal, LISTER, paidDeal, RENTER, sessionOf, statusLine, viewedBy } from "./fixtures";

const API = "/api/v1";
const photo = () => new Response(new Blob(["jpeg"], { type: "image/jpeg" }), { status: 200 });
const agreement = { data: { version: 1, text: "SUBLEASE AGREEMENT", sha256: "a".repeat(64), events: [] } };

describe("the original lease", () => {
  it("both parties read the attached lease as private evidence", async () => {
    const deal = acceptedDeal({ lease: { url: "/api/v1/evidence/lease.jpg", attached_at: "2027-05-01T12:00:00.000Z" } });
    for (const [party, as] of [
      [RENTER, "renter"],
      [LISTER, "lister"],
    ] as const) {
      const calls = fakeApi({ ...afterTheKeysRoutes("d1"), [`GET ${API}/deals/d1`]: { data: viewedBy(deal, as) }, [`GET ${API}/deals/d1/agreement`]: agreement, [`GET ${API}/evidence/lease.jpg`]: photo });
      const view = renderApp("/deals/d1", sessionOf(party));
      const section = await screen.findByRole("region", { name: "The original lease" });
      expect(await within(section).findByRole("img", { name: "The original lease" })).toHaveAttribute("src", expect.stringMatching(/^blob:/));
      expect(callsOf(calls, `GET ${API}/evidence/lease.jpg`)[0]!.authorization).toBe(`Bearer token-${party.id}`);
      expect(section).toHaveTextContent(as === "lister" ? "Attached by you" : `Attached by ${LISTER.first_name}`);
      // Only the lister may replace it.
      expect(within(section).queryByRole("button", { name: "Replace the lease photo" }) !== null).toBe(as === "lister");
      if (as === "lister") expect(await axeViolations()).toEqual([]);
      view.unmount();
    }
  });

  it("offers the lister to attach it, and tells the renter it is missing", async () => {
    fakeApi({ ...afterTheKeysRoutes("d1"), [`GET ${API}/deals/d1`]: { data: viewedBy(acceptedDeal(), "lister") }, [`GET ${API}/deals/d1/agreement`]: agreement });
    const first = renderApp("/deals/d1", sessionOf(LISTER));
    const section = await screen.findByRole("region", { name: "The original lease" });
    expect(within(section).getByRole("button", { name: "Attach the lease" })).toBeEnabled();
    first.unmount();
    fakeApi({ ...afterTheKeysRoutes("d1"), [`GET ${API}/deals/d1`]: { data: viewedBy(acceptedDeal(), "renter") }, [`GET ${API}/deals/d1/agreement`]: agreement });
    renderApp("/deals/d1", sessionOf(RENTER));
    expect(await screen.findByRole("region", { name: "The original lease" })).toHaveTextContent(`${LISTER.first_name} has not attached the original lease yet`);
  });
});

describe("an unverified party", () => {
  it("reads their ID review as the deal's step, with the way to verify", async () => {
    const deal = acceptedDeal({
      waiting_for: { party: "renter", step: "id_verification", detail: "Verify your identity (Profile, ID verification): both of you need a verified ID before the agreement can be signed." },
    });
    fakeApi({ ...afterTheKeysRoutes("d1"), [`GET ${API}/deals/d1`]: { data: deal }, [`GET ${API}/deals/d1/agreement`]: agreement });
    renderApp("/deals/d1", sessionOf(RENTER));
    expect(await screen.findByRole("link", { name: "Verify your identity" })).toHaveAttribute("href", "/verification");
  });
});

describe("a decided case", () => {
  it("both parties read who decided, each side's amount (the lister's as received), the fee kept and the reason", async () => {
    const deal = paidDeal(
      {
        status: "released",
        decision: { by: "staff", refund_cents: 35_000, transfer_cents: 50_000, reason: "The heating was broken for a week.", at: "2027-06-03T12:00:00.000Z" },
      },
      { status: "released", refunded_cents: 35_000, transferred_cents: 50_000 },
    );
    for (const [who, as, line] of [
      [LISTER, "lister", `$350.00 refunded to ${RENTER.first_name}, $500.00 to you, CampusNest fee $42.50 kept.`],
      [RENTER, "renter", `$350.00 refunded to you, $500.00 to ${LISTER.first_name}, CampusNest fee $42.50 kept.`],
    ] as const) {
      fakeApi({ ...afterTheKeysRoutes("d1"), [`GET ${API}/deals/d1`]: { data: viewedBy(deal, as) }, [`GET ${API}/deals/d1/agreement`]: agreement });
      const { unmount } = renderApp("/deals/d1", sessionOf(who));
      expect(await screen.findByText(/CampusNest staff decided on/)).toHaveTextContent("Reason: The heating was broken for a week.");
      // The amounts are said once, in the status line (one wording: deal-status moneyLine).
      expect(statusLine()).toHaveTextContent(line);
      expect(screen.getAllByText(/CampusNest staff decided on/)).toHaveLength(1);
      unmount();
    }
  });
});

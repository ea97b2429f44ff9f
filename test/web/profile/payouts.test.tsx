/**
 * The profile's Payouts section (docs/decisions/030): its three states from `payouts/status`, loading and
 * error, the button that starts or continues Stripe's onboarding, and the refresh on return from it.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { PAYOUT_TEXTS } from "@contract/payouts";
import type { PayoutStatusData } from "@contract/payouts";
import { browserNavigation } from "../../../web/lib/browser-navigation";
import { callsOf, dealPartsRoutes, fakeApi, makeUser, notFound, renderApp, reply } from "../render";

const user = makeUser({ id: "u1", id_verification_status: "verified" });
const session = { token: "t", user };

function routes(status: PayoutStatusData | (() => Response)) {
  return {
    ...dealPartsRoutes(),
    "GET /api/v1/universities/": { data: [] },
    "GET /api/v1/users/profile": { data: user },
    "GET /api/v1/users/listings": { data: [] },
    "GET /api/v1/saved-searches/": notFound,
    "GET /api/v1/users/blocks": notFound,
    "GET /api/v1/payouts/status": typeof status === "function" ? status : { data: status },
  };
}

const section = async () => (await screen.findByRole("heading", { name: "Payouts" })).closest("section")!;

describe("profile Payouts", () => {
  it("no account: 'Payouts: set up', why, and Set up payouts posts onboarding and leaves for Stripe's page", async () => {
    const assign = vi.spyOn(browserNavigation, "assign").mockImplementation(() => {});
    const calls = fakeApi({ ...routes({ status: "none", requirements_due: [] }), "POST /api/v1/payouts/onboarding": { data: { url: "https://connect.stripe.com/setup/e/acct_1/abc" } } });
    renderApp("/profile", session);
    const s = await section();
    expect(s).toHaveAttribute("id", "payouts");
    expect(await within(s).findByText("Payouts: set up")).toBeInTheDocument();
    expect(s).toHaveTextContent("you get the first month's rent 48 hours after move-in");
    await userEvent.setup().click(within(s).getByRole("button", { name: "Set up payouts" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://connect.stripe.com/setup/e/acct_1/abc"));
    expect(callsOf(calls, "POST /api/v1/payouts/onboarding")).toHaveLength(1);
    // Leaving: the button stays disabled so a second tap sends nothing.
    expect(within(s).getByRole("button", { name: PAYOUT_TEXTS.opening })).toBeDisabled();
    // An ordinary visit does not ask Stripe.
    expect(callsOf(calls, "GET /api/v1/payouts/status").map((c) => c.url)).toEqual([expect.not.stringContaining("refresh")]);
  });

  it("pending: 'Payouts: in review', what Stripe still needs, and Continue setup", async () => {
    fakeApi(routes({ status: "pending", requirements_due: ["individual.dob.day", "external_account"] }));
    renderApp("/profile", session);
    const s = await section();
    expect(await within(s).findByText("Payouts: in review")).toBeInTheDocument();
    expect(s).toHaveTextContent("Stripe still needs 2 details from you.");
    expect(within(s).getByRole("button", { name: "Continue setup" })).toBeEnabled();
  });

  it("ready: 'Payouts: ready' and no setup button", async () => {
    fakeApi(routes({ status: "ready", requirements_due: [] }));
    renderApp("/profile", session);
    const s = await section();
    expect(await within(s).findByText("Payouts: ready")).toBeInTheDocument();
    expect(s).toHaveTextContent(PAYOUT_TEXTS.readyDetail);
    expect(within(s).queryByRole("button")).toBeNull();
  });

  it("back from onboarding: the status is asked with refresh=1", async () => {
    const calls = fakeApi(routes({ status: "ready", requirements_due: [] }));
    renderApp("/profile?payouts=return#payouts", session);
    expect(await within(await section()).findByText("Payouts: ready")).toBeInTheDocument();
    expect(callsOf(calls, "GET /api/v1/payouts/status")[0]!.url).toContain("refresh=1");
  });

  it("set up from a deal: the return from onboarding goes on to that deal", async () => {
    const assign = vi.spyOn(browserNavigation, "assign").mockImplementation(() => {});
    fakeApi({
      ...routes({ status: "none", requirements_due: [] }),
      "POST /api/v1/payouts/onboarding": { data: { url: "/dev/connect/acct_1" } },
      "GET /api/v1/deals/deal-9": notFound,
    });
    const first = renderApp("/profile?payouts_for=deal-9#payouts", session);
    await userEvent.setup().click(await within(await section()).findByRole("button", { name: "Set up payouts" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/dev/connect/acct_1"));
    first.unmount();
    // Back from Stripe (its return address is the profile's, for everyone): on to the deal that asked.
    fakeApi({ ...routes({ status: "ready", requirements_due: [] }), "GET /api/v1/deals/deal-9": notFound });
    renderApp("/profile?payouts=return#payouts", session);
    expect(await screen.findByRole("heading", { name: "Deal not found" })).toBeInTheDocument();
  });

  it("loading, then an error with Try again that loads it", async () => {
    let fail = true;
    fakeApi(routes(() => (fail ? reply({ detail: "Server error. Please try again later." }, 500) : reply({ data: { status: "pending", requirements_due: [] } }))));
    renderApp("/profile", session);
    const s = await section();
    expect(within(s).getByRole("status")).toHaveTextContent(PAYOUT_TEXTS.loading);
    const alert = await within(s).findByRole("alert");
    expect(alert).toHaveTextContent(PAYOUT_TEXTS.error);
    fail = false;
    await userEvent.setup().click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await within(s).findByText("Payouts: in review")).toBeInTheDocument();
    expect(s).toHaveTextContent(PAYOUT_TEXTS.pendingDetail);
  });

  it("onboarding refused: the reason, and the button is back", async () => {
    const assign = vi.spyOn(browserNavigation, "assign").mockImplementation(() => {});
    fakeApi({ ...routes({ status: "none", requirements_due: [] }), "POST /api/v1/payouts/onboarding": reply({ detail: "Could not reach Stripe to set up payouts. Please try again." }, 502) });
    renderApp("/profile", session);
    const s = await section();
    await userEvent.setup().click(await within(s).findByRole("button", { name: "Set up payouts" }));
    expect(await within(s).findByRole("alert")).toHaveTextContent("Could not reach Stripe to set up payouts.");
    expect(within(s).getByRole("button", { name: "Set up payouts" })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });
});

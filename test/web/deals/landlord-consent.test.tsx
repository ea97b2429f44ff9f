/** /landlord-consent/{token}: no account, the request in full, Consent confirmed or Decline with a reason, and dead links said plainly (a used one: what was answered). */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { LandlordConsentPage } from "@contract/deals";
import { callsOf, fakeApi, renderApp } from "../render";
import { json } from "./fixtures";

const API = "/api/v1/landlord-consent/tok-123";
const request: LandlordConsentPage = {
  status: "requested",
  landlord_name: "Pat Owner",
  term: { move_in: "2027-06-01", move_out: "2027-08-15" },
  tenant_name: "Jordan Kim",
  subtenant_name: "Maya Lopez",
  reason: "Summer internship",
  tenant_address_during_sublease: "5 Lake St, Chicago, IL",
  listing_address: "12 Bleecker St, Apt 4B, New York, NY 10003",
  monthly_rent: 850,
  address_given_by_lister: true,
  address_note: "The address and this request were given by the tenant. CampusNest has not checked them.",
  expires_at: "2026-12-12T00:00:00.000Z",
};

describe("the landlord's consent page", () => {
  it("shows the request and the lister-given-address notice without any sign-in, and records Consent", async () => {
    const calls = fakeApi({ [`GET ${API}`]: { data: request }, [`POST ${API}`]: { data: { status: "granted" } } });
    const ui = userEvent.setup();
    renderApp("/landlord-consent/tok-123");
    // The warning is said once.
    expect(await screen.findAllByText(/CampusNest has not checked them/)).toHaveLength(1);
    expect(screen.getByRole("heading", { level: 1, name: "Consent to a sublease" })).toBeInTheDocument();
    const details = screen.getByRole("region", { name: "The request" });
    for (const text of ["Jordan Kim", "Maya Lopez", "12 Bleecker St, Apt 4B, New York, NY 10003", "Jun 1 - Aug 15, 2027", "$850", "Summer internship", "5 Lake St, Chicago, IL"])
      expect(within(details).getByText(text)).toBeInTheDocument();
    // No sign-in prompt: the link is the permission.
    expect(screen.queryByRole("dialog")).toBeNull();

    // One tap does not answer: the consent is said back in full, then confirmed (or taken back).
    await ui.click(screen.getByRole("button", { name: "Consent…" }));
    expect(callsOf(calls, `POST ${API}`)).toHaveLength(0);
    expect(screen.getByText(/Jordan Kim may sublet 12 Bleecker St, Apt 4B, New York, NY 10003 to Maya Lopez/)).toBeInTheDocument();
    await ui.click(screen.getByRole("button", { name: "Back" }));
    await ui.click(screen.getByRole("button", { name: "Consent…" }));
    await ui.click(screen.getByRole("button", { name: "Yes, I consent" }));
    const done = await screen.findByText(/You consented to this sublease/);
    await waitFor(() => expect(done).toHaveFocus());
    expect(callsOf(calls, `POST ${API}`)[0]!.body).toEqual({ decision: "granted" });
    expect(callsOf(calls, `POST ${API}`)[0]!.headers.get("Authorization")).toBeNull();
    expect(screen.queryByRole("button", { name: "Consent…" })).toBeNull();
  });

  it("declines only with a reason", async () => {
    const calls = fakeApi({ [`GET ${API}`]: { data: request }, [`POST ${API}`]: { data: { status: "declined" } } });
    const ui = userEvent.setup();
    renderApp("/landlord-consent/tok-123");
    await ui.click(await screen.findByRole("button", { name: "Decline…" }));
    const reason = screen.getByLabelText("Why do you decline?");
    expect(reason).toHaveFocus();
    await ui.click(screen.getByRole("button", { name: "Decline the sublease" }));
    expect(screen.getByText("Please give a reason for declining.")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}`)).toHaveLength(0);
    await ui.type(reason, "The lease forbids sublets");
    await ui.click(screen.getByRole("button", { name: "Decline the sublease" }));
    expect(await screen.findByText(/You declined this sublease/)).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}`)[0]!.body).toEqual({ decision: "declined", reason: "The lease forbids sublets" });
  });

  it("says what a used link answered, an expired one (410) and an unknown one (404) plainly, with nothing to press", async () => {
    const detail = "You already answered this request on Dec 7, 2026: you consented to the sublease. Nothing more is needed.";
    fakeApi({ [`GET ${API}`]: json({ detail, code: "answered_granted" }, 410) });
    const first = renderApp("/landlord-consent/tok-123");
    const used = await screen.findByRole("heading", { name: "You already answered this request" });
    expect(within(used.closest("section")!).getByText(detail)).toBeInTheDocument();
    expect(within(used.closest("section")!).queryByRole("button")).toBeNull();
    first.unmount();
    fakeApi({ [`GET ${API}`]: json({ detail: "This link has expired. The tenant can send a new request." }, 410) });
    const second = renderApp("/landlord-consent/tok-123");
    expect(await screen.findByRole("heading", { name: "This link can no longer be used" })).toBeInTheDocument();
    expect(screen.getByText("This link has expired. The tenant can send a new request.")).toBeInTheDocument();
    second.unmount();
    fakeApi({ [`GET ${API}`]: json({ detail: "This link is not valid" }, 404) });
    renderApp("/landlord-consent/tok-123");
    expect(await screen.findByRole("heading", { name: "This link is not valid" })).toBeInTheDocument();
  });

  it("shows a refused answer in the server's words", async () => {
    fakeApi({ [`GET ${API}`]: { data: request }, [`POST ${API}`]: json({ detail: "This link has already been used or has expired" }, 410) });
    const ui = userEvent.setup();
    renderApp("/landlord-consent/tok-123");
    await ui.click(await screen.findByRole("button", { name: "Consent…" }));
    await ui.click(screen.getByRole("button", { name: "Yes, I consent" }));
    expect(await screen.findByText("This link has already been used or has expired")).toBeInTheDocument();
  });
});

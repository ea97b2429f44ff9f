/** /deals/{id}: whose step it is, the agreement, the lister's landlord-consent step, signing, the PDF and Cancel. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Deal } from "@contract/deals";
import { callsOf, fakeApi, renderApp } from "../render";
import { acceptedDeal, json, LISTER, makeDeal, RENTER, sessionOf, viewedBy } from "./fixtures";

const API = "/api/v1";
const agreement = (deal: Deal) => ({
  data: {
    version: deal.agreement?.version ?? 1,
    text: "SUBLEASE AGREEMENT\n1. The original lease is incorporated.",
    sha256: deal.agreement?.sha256 ?? "a".repeat(64),
    events: [
      { type: "requested", actor_id: RENTER.id, at: "2026-11-20T15:00:00.000Z" },
      { type: "accepted", actor_id: LISTER.id, at: "2026-11-20T16:00:00.000Z" },
    ],
  },
});

function dealApi(deal: () => Deal, extra: Record<string, unknown> = {}) {
  return fakeApi({
    [`GET ${API}/deals/d1`]: () => ({ data: deal() }),
    [`GET ${API}/deals/d1/agreement`]: () => agreement(deal()),
    ...extra,
  });
}

afterEach(() => vi.restoreAllMocks());

describe("the deal page", () => {
  it("shows the lister whose step it is, the agreement with its SHA-256, and the landlord-consent choices; the attestation is sent", async () => {
    let current = viewedBy(acceptedDeal(), "lister");
    const calls = dealApi(() => current, {
      [`POST ${API}/deals/d1/landlord-consent`]: () => {
        current = viewedBy(acceptedDeal({ landlord_consent: { status: "not_needed" }, agreement: { version: 2, sha256: "c".repeat(64), renter_signed_at: null, lister_signed_at: null } }), "lister");
        return { data: current };
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(LISTER));
    expect(await screen.findByRole("heading", { level: 1, name: "Sunny 2x2 near campus" })).toBeInTheDocument();
    const status = screen.getAllByRole("status").find((s) => s.classList.contains("deal-next"))!;
    expect(status).toHaveTextContent("Your step: Settle the landlord's consent");
    expect(screen.getByText("12 Bleecker St, Apt 4B, New York, NY 10003")).toBeInTheDocument();
    const text = await screen.findByRole("region", { name: "Agreement text" });
    expect(text).toHaveTextContent("The original lease is incorporated.");
    expect(screen.getByText("a".repeat(64))).toBeInTheDocument();
    // Before both have signed: a draft.
    expect(screen.getByRole("button", { name: "Download a draft PDF" })).toBeInTheDocument();

    const consent = screen.getByRole("region", { name: "Landlord consent" });
    await ui.click(within(consent).getByRole("button", { name: "Save" }));
    expect(within(consent).getByText("Please choose one.")).toBeInTheDocument();
    await ui.click(within(consent).getByRole("radio", { name: "My lease allows subletting without consent" }));
    await ui.click(within(consent).getByRole("button", { name: "Save" }));
    expect(within(consent).getByText("Please confirm what your lease allows.")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/landlord-consent`)).toHaveLength(0);
    await ui.click(within(consent).getByRole("checkbox"));
    await ui.click(within(consent).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsOf(calls, `POST ${API}/deals/d1/landlord-consent`)).toHaveLength(1));
    expect(callsOf(calls, `POST ${API}/deals/d1/landlord-consent`)[0]!.body).toEqual({ not_needed: true });
    expect(await within(consent).findByText("Not needed: the lease allows subletting")).toBeInTheDocument();
    await waitFor(() => expect(status).toHaveTextContent("Your step: Read and sign the agreement."));
    await waitFor(() => expect(status).toHaveFocus());
    // A new agreement version is read again.
    expect(await screen.findByText("c".repeat(64))).toBeInTheDocument();
  });

  it("asks the landlord by name and email; the server's refusal is shown as it says it", async () => {
    const calls = dealApi(() => viewedBy(acceptedDeal(), "lister"), {
      [`POST ${API}/deals/d1/landlord-consent`]: json({ detail: "At most 3 consent emails per deal a day", retry_after: 3600 }, 429),
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(LISTER));
    const consent = await screen.findByRole("region", { name: "Landlord consent" });
    await ui.click(within(consent).getByRole("radio", { name: "Ask my landlord for consent" }));
    await ui.type(within(consent).getByLabelText("Landlord's name"), "Pat Owner");
    await ui.type(within(consent).getByLabelText("Landlord's email"), "pat@example");
    await ui.click(within(consent).getByRole("button", { name: "Send the request" }));
    expect(within(consent).getByText("Please enter your landlord's email address.")).toBeInTheDocument();
    await ui.type(within(consent).getByLabelText("Landlord's email"), ".com");
    await ui.type(within(consent).getByLabelText("Why you sublet (optional)"), "Summer internship");
    await ui.click(within(consent).getByRole("button", { name: "Send the request" }));
    expect(await within(consent).findByText("At most 3 consent emails per deal a day")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/landlord-consent`)[0]!.body).toEqual({ landlord_name: "Pat Owner", landlord_email: "pat@example.com", reason: "Summer internship", tenant_address: null });
    expect(within(consent).getByLabelText("Landlord's name")).toHaveValue("Pat Owner");
  });

  it("shows the renter the consent status and no consent form; signing waits for it", async () => {
    dealApi(() => acceptedDeal({ landlord_consent: { status: "requested" } }));
    renderApp("/deals/d1", sessionOf(RENTER));
    // Whose step it is, in the status line and where signing will be (the server's words, not the SPA's rule).
    await waitFor(() => expect(screen.getAllByText("Waiting for the landlord to answer the consent request.")).toHaveLength(2));
    expect(screen.queryByRole("radio")).toBeNull();
    expect(screen.queryByRole("button", { name: "Sign" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Accept" })).toBeNull();
    expect(screen.getByRole("button", { name: "Cancel deal" })).toBeInTheDocument();
  });

  it("signs: the electronic-records consent first, then name, intent, an emailed code; each refusal in the server's words", async () => {
    let current = acceptedDeal({ landlord_consent: { status: "granted" } });
    let signAnswer: Response | null = json({ detail: "The name must be your legal name as verified with your ID", errors: [{ path: "typed_name", message: "x" }] }, 422);
    const calls = dealApi(() => current, {
      [`POST ${API}/deals/d1/sign-code`]: { data: { expires_in: 900 } },
      [`POST ${API}/deals/d1/sign`]: () => {
        if (signAnswer) return signAnswer;
        current = acceptedDeal({ landlord_consent: { status: "granted" }, agreement: { version: 1, sha256: "a".repeat(64), renter_signed_at: "2026-11-21T10:00:00.000Z", lister_signed_at: null } });
        return { data: current };
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    const signing = await screen.findByRole("region", { name: "Signatures" });
    const disclosure = within(signing).getByRole("group", { name: "Step 1: agree to electronic records" });
    for (const words of [/paper copy/, /Withdrawing/, /What it covers/, /open PDF files/]) expect(disclosure).toHaveTextContent(words);
    expect(within(signing).queryByLabelText("Your full legal name")).toBeNull();
    await ui.click(within(disclosure).getByRole("checkbox"));

    await ui.click(within(signing).getByRole("button", { name: "Sign" }));
    expect(within(signing).getByText("Please type your full legal name.")).toBeInTheDocument();
    expect(within(signing).getByText("Please tick “I intend to sign” to sign.")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/sign`)).toHaveLength(0);

    await ui.type(within(signing).getByLabelText("Your full legal name"), "Maya  lopez");
    await ui.click(within(signing).getByRole("checkbox", { name: "I intend to sign this agreement" }));
    await ui.click(within(signing).getByRole("button", { name: "Email me a code" }));
    expect(await within(signing).findByText(/We emailed you a 6-digit code/)).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/sign-code`)).toHaveLength(1);
    await ui.type(within(signing).getByLabelText("6-digit code"), "12a3456");
    expect(within(signing).getByLabelText("6-digit code")).toHaveValue("123456");
    await ui.click(within(signing).getByRole("button", { name: "Sign" }));
    expect(await within(signing).findByText("The name must be your legal name as verified with your ID")).toBeInTheDocument();
    // Both name the text read: the agreement's version and SHA-256 (docs/decisions/035).
    expect(callsOf(calls, `POST ${API}/deals/d1/sign-code`)[0]!.body).toEqual({ agreement_version: 1, sha256: "a".repeat(64) });
    expect(callsOf(calls, `POST ${API}/deals/d1/sign`)[0]!.body).toEqual({ typed_name: "Maya  lopez", intent: true, esign_consent: true, code: "123456", agreement_version: 1, sha256: "a".repeat(64) });

    signAnswer = null;
    await ui.click(within(signing).getByRole("button", { name: "Sign" }));
    expect(await within(signing).findByText(/Maya Lopez \(subtenant, you\): signed/)).toBeInTheDocument();
    expect(within(signing).queryByRole("button", { name: "Sign" })).toBeNull();
    expect(screen.getAllByRole("status").find((s) => s.classList.contains("deal-next"))).toHaveTextContent("Waiting for Jordan to sign.");
  });

  it("downloads the signed PDF with the bearer header, and says so when it fails", async () => {
    const signed = acceptedDeal({ status: "signed", landlord_consent: { status: "not_needed" }, agreement: { version: 1, sha256: "a".repeat(64), renter_signed_at: "2026-11-21T10:00:00.000Z", lister_signed_at: "2026-11-21T11:00:00.000Z" } });
    let pdfOk = false;
    const calls = dealApi(() => signed, {
      [`GET ${API}/deals/d1/agreement.pdf`]: () => (pdfOk ? new Response(new Blob(["%PDF-1.7"], { type: "application/pdf" }), { status: 200 }) : json({ detail: "No agreement document yet" }, 404)),
    });
    const createObjectURL = vi.fn(() => "blob:pdf");
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    const button = await screen.findByRole("button", { name: "Download the signed PDF" });
    await ui.click(button);
    expect(await screen.findByText("No agreement document yet")).toBeInTheDocument();
    pdfOk = true;
    await ui.click(button);
    await waitFor(() => expect(click).toHaveBeenCalled());
    const [call] = callsOf(calls, `GET ${API}/deals/d1/agreement.pdf`).slice(-1);
    expect(call!.headers.get("Authorization")).toBe(`Bearer token-${RENTER.id}`);
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(screen.getAllByRole("status").find((s) => s.classList.contains("deal-next"))).toHaveTextContent("Pay the first month through CampusNest");
  });

  it("cancels only after a confirmation, with the reason given", async () => {
    let current = makeDeal();
    const calls = dealApi(() => current, {
      [`POST ${API}/deals/d1/cancel`]: () => {
        current = makeDeal({ status: "cancelled", status_reason: "Found a closer place" });
        return { data: current };
      },
    });
    const ui = userEvent.setup();
    renderApp("/deals/d1", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "Cancel request" }));
    const dialog = screen.getByRole("alertdialog", { name: "Cancel this deal?" });
    await ui.click(within(dialog).getByRole("button", { name: "Keep it" }));
    expect(callsOf(calls, `POST ${API}/deals/d1/cancel`)).toHaveLength(0);
    await ui.click(screen.getByRole("button", { name: "Cancel request" }));
    const again = screen.getByRole("alertdialog", { name: "Cancel this deal?" });
    await ui.type(within(again).getByLabelText("Reason (optional)"), "Found a closer place");
    await ui.click(within(again).getByRole("button", { name: "Cancel deal" }));
    expect(await screen.findByText("Cancelled")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/cancel`)[0]!.body).toEqual({ reason: "Found a closer place" });
    expect(screen.getAllByRole("status").find((s) => s.classList.contains("deal-next"))).toHaveTextContent("Found a closer place");
    expect(screen.queryByRole("button", { name: /Cancel/ })).toBeNull();
  });

  it("says a deal that is not the viewer's is not found", async () => {
    fakeApi({ [`GET ${API}/deals/d1`]: json({ detail: "Deal not found" }, 404) });
    renderApp("/deals/d1", sessionOf(RENTER));
    expect(await screen.findByRole("heading", { name: "Deal not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Your deals" })).toHaveAttribute("href", "/profile");
  });

  it("asks a visitor to sign in", async () => {
    fakeApi({});
    renderApp("/deals/d1");
    expect(await screen.findByText("Please log in to see this deal.")).toBeInTheDocument();
  });
});

/** The request's card in the thread: what each party may do, errors in the server's words, and live changes. */
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Conversation } from "@contract/messages";
import type { Deal } from "@contract/deals";
import { nextStep } from "../../../web/lib/deal-status";
import { callsOf, fakeApi, makeOwnerListing, participantRoutes, renderApp } from "../render";
import { acceptedDeal, dealMessage, json, LISTER, makeDeal, RENTER, sessionOf, viewedBy } from "./fixtures";
import { formatStay } from "@contract/dates";

const API = "/api/v1";

/** A WebSocket double: the test opens it and speaks for the room. */
class FakeWebSocket extends EventTarget {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  binaryType = "blob";
  constructor(readonly url: string) {
    super();
    FakeWebSocket.instances.push(this);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  serverOpen() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }
  serverSend(data: unknown) {
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(data) }));
  }
}

beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
});
afterEach(() => vi.unstubAllGlobals());

const conversationWith = (other: typeof RENTER): Conversation => ({
  id: "c1",
  participant_id: other.id,
  participant_name: `${other.first_name} ${other.last_name}`,
  participant_avatar: null,
  latest_message_preview: "Request to sublease",
  last_message_timestamp: "2026-11-20T15:00:00.000Z",
  updated_at: "2026-11-20T15:00:00.000Z",
  unread_count: 0,
  listing_id: "l1",
  listing_title: "Sunny 2x2 near campus",
  listing_photo: null,
});

function threadApi(other: typeof RENTER, deal: () => Deal | Response, extra: Record<string, unknown> = {}) {
  return fakeApi({
    [`GET ${API}/messages/conversations/enriched`]: { data: [conversationWith(other)], pagination: { next_token: null, has_more: false } },
    [`GET ${API}/messages/conversations/c1`]: { data: conversationWith(other), reply: "open" },
    [`GET ${API}/messages/conversations/c1/messages`]: { messages: [dealMessage()], pagination: { next_token: null, has_more: false } },
    [`POST ${API}/messages/conversations/c1/read`]: { unread_count: 0 },
    [`POST ${API}/messages/socket-ticket`]: { data: { ticket: "tk", expires_in: 60 } },
    [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ id: "l1", user_id: LISTER.id, available_from: "2027-06-01", available_to: "2027-08-15" }) },
    ...participantRoutes(other.id),
    [`GET ${API}/deals/d1`]: () => {
      const d = deal();
      return d instanceof Response ? d : { data: d };
    },
    ...extra,
  });
}

const card = async () => screen.findByRole("article", { name: "Sunny 2x2 near campus" });

describe("the deal card in the thread", () => {
  it("offers the lister Accept and Decline, never Cancel; Accept moves the card on and focus to its status", async () => {
    let current = viewedBy(makeDeal(), "lister");
    const calls = threadApi(RENTER, () => current, {
      [`POST ${API}/deals/d1/accept`]: () => {
        current = viewedBy(acceptedDeal(), "lister");
        return { data: current };
      },
    });
    const ui = userEvent.setup();
    renderApp("/messages?conversation=c1", sessionOf(LISTER));
    const c = await card();
    expect(within(c).getByText("Maya's request to sublease")).toBeInTheDocument();
    expect(within(c).getByText(formatStay("2027-06-01", "2027-08-15")!)).toBeInTheDocument();
    expect(within(c).getByText("$850 / month")).toBeInTheDocument();
    expect(within(c).getByText("Requested")).toBeInTheDocument();
    expect(within(c).getByRole("status")).toHaveTextContent("Your step: Accept or decline this request");
    expect(within(c).queryByRole("button", { name: /Cancel/ })).toBeNull();
    // The lister is not offered a request on their own listing.
    expect(screen.queryByRole("button", { name: "Request to sublease" })).toBeNull();

    await ui.click(within(c).getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(within(c).getByText("Accepted")).toBeInTheDocument());
    expect(callsOf(calls, `POST ${API}/deals/d1/accept`)).toHaveLength(1);
    expect(within(c).getByRole("status")).toHaveTextContent("Settle the landlord's consent");
    await waitFor(() => expect(within(c).getByRole("status")).toHaveFocus());
    expect(within(c).queryByRole("button", { name: "Accept" })).toBeNull();
    expect(within(c).getByRole("link", { name: /Open the deal/ })).toHaveAttribute("href", "/deals/d1");
  });

  it("declines with an optional reason, and shows the server's detail when it refuses", async () => {
    let refuse = true;
    const calls = threadApi(RENTER, () => viewedBy(makeDeal(), "lister"), {
      [`POST ${API}/deals/d1/decline`]: () => (refuse ? json({ detail: "This request was already cancelled by the renter." }, 409) : { data: viewedBy(makeDeal({ status: "declined" }), "lister") }),
    });
    const ui = userEvent.setup();
    renderApp("/messages?conversation=c1", sessionOf(LISTER));
    const c = await card();
    await ui.click(within(c).getByRole("button", { name: "Decline" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Decline this request?" });
    await ui.type(within(dialog).getByLabelText("Reason (optional)"), "Already promised to a friend");
    await ui.click(within(dialog).getByRole("button", { name: "Decline request" }));
    expect(await within(dialog).findByText("This request was already cancelled by the renter.")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/decline`)[0]!.body).toEqual({ reason: "Already promised to a friend" });
    // The reason typed is still there for another try.
    expect(within(dialog).getByLabelText("Reason (optional)")).toHaveValue("Already promised to a friend");
    refuse = false;
    await ui.click(within(dialog).getByRole("button", { name: "Decline request" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(within(c).getByText("Declined")).toBeInTheDocument();
  });

  it("offers the renter Cancel only, with a confirmation; a refusal shows the server's detail", async () => {
    const calls = threadApi(LISTER, () => makeDeal(), {
      [`POST ${API}/deals/d1/cancel`]: json({ detail: "The lister has already accepted; open the deal to cancel it." }, 409),
    });
    const ui = userEvent.setup();
    renderApp("/messages?conversation=c1", sessionOf(RENTER));
    const c = await card();
    expect(within(c).getByText("Your request to sublease")).toBeInTheDocument();
    expect(within(c).getByRole("status")).toHaveTextContent("Waiting for Jordan to accept or decline");
    expect(within(c).queryByRole("button", { name: "Accept" })).toBeNull();
    expect(within(c).queryByRole("button", { name: "Decline" })).toBeNull();
    await ui.click(within(c).getByRole("button", { name: "Cancel request" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Cancel this deal?" });
    await ui.click(within(dialog).getByRole("button", { name: "Cancel deal" }));
    expect(await within(dialog).findByText("The lister has already accepted; open the deal to cancel it.")).toBeInTheDocument();
    expect(callsOf(calls, `POST ${API}/deals/d1/cancel`)[0]!.body).toEqual({});
    // The renter can still request another stay from the thread.
    await ui.click(within(dialog).getByRole("button", { name: "Keep it" }));
    expect(await screen.findByRole("button", { name: "Request to sublease" })).toBeInTheDocument();
  });

  it("a request sent from inside the conversation points to its card there: no link to open the conversation it is in", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-28T12:00:00Z"));
    const calls = threadApi(LISTER, () => makeDeal({ status: "cancelled" }), { [`POST ${API}/deals`]: json({ data: makeDeal({ id: "d2" }) }, 201) });
    const ui = userEvent.setup();
    renderApp("/messages?conversation=c1", sessionOf(RENTER));
    await ui.click(await screen.findByRole("button", { name: "Request to sublease" }));
    await ui.click(within(await screen.findByRole("dialog", { name: "Request to sublease" })).getByRole("button", { name: "Send request" }));
    const sent = await screen.findByRole("dialog", { name: "Request sent" });
    expect(sent).toHaveTextContent("is in this conversation with Jordan");
    expect(within(sent).queryByRole("link", { name: "Open the conversation" })).toBeNull();
    const back = within(sent).getByRole("button", { name: "Back to the conversation" });
    await waitFor(() => expect(back).toHaveFocus());
    expect(within(sent).getByRole("link", { name: "See the deal" })).toHaveAttribute("href", "/deals/d2");
    await ui.click(back);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Request sent" })).toBeNull());
    expect(callsOf(calls, `POST ${API}/deals`)).toHaveLength(1);
    vi.useRealTimers();
  });

  it("changes live when the room pushes the deal, reading it again", async () => {
    let current = makeDeal();
    const calls = threadApi(LISTER, () => current);
    renderApp("/messages?conversation=c1", sessionOf(RENTER));
    const c = await card();
    await waitFor(() => expect(FakeWebSocket.instances.some((s) => s.url.includes("/parties/conversation/c1?"))).toBe(true));
    const room = FakeWebSocket.instances.find((s) => s.url.includes("/parties/conversation/c1?"))!;
    act(() => room.serverOpen());
    const reads = callsOf(calls, `GET ${API}/deals/d1`).length;
    current = acceptedDeal();
    // Each party's own view, by user id (the room sends both).
    act(() => room.serverSend({ type: "deal", deal_id: "d1", views: { [RENTER.id]: current, [LISTER.id]: viewedBy(current, "lister") } }));
    await waitFor(() => expect(within(c).getByText("Accepted")).toBeInTheDocument());
    expect(callsOf(calls, `GET ${API}/deals/d1`).length).toBeGreaterThan(reads);
    expect(within(c).getByRole("status")).toHaveTextContent("Waiting for Jordan to settle the landlord's consent.");
  });

  it("says when the deal cannot be read, with Try again", async () => {
    let fail = true;
    threadApi(LISTER, () => (fail ? json({ detail: "Server error. Please try again later." }, 500) : makeDeal()));
    const ui = userEvent.setup();
    renderApp("/messages?conversation=c1", sessionOf(RENTER));
    const alert = await screen.findByText("Server error. Please try again later.", {}, { timeout: 15_000 });
    fail = false;
    await ui.click(within(alert.closest(".deal-card") as HTMLElement).getByRole("button", { name: "Try again" }));
    expect(await card()).toBeInTheDocument();
  });
});

describe("next step", () => {
  it("says whose step it is, for each party and state, as the server's waiting_for says it", () => {
    expect(nextStep(viewedBy(makeDeal(), "lister"), LISTER.id).whose).toBe("you");
    expect(nextStep(makeDeal(), RENTER.id).whose).toBe("other");
    expect(nextStep(acceptedDeal({ landlord_consent: { status: "requested" } }), RENTER.id)).toEqual({ text: "Waiting for the landlord to answer the consent request.", whose: "landlord" });
    const signing = acceptedDeal({ landlord_consent: { status: "not_needed" } });
    expect(nextStep(signing, RENTER.id)).toEqual({ text: "Read and sign the agreement.", whose: "you" });
    const renterSigned = acceptedDeal({ landlord_consent: { status: "granted" }, agreement: { version: 2, sha256: "b".repeat(64), renter_signed_at: "2026-11-21T10:00:00Z", lister_signed_at: null } });
    expect(nextStep(renterSigned, RENTER.id)).toEqual({ text: "Waiting for Jordan to sign.", whose: "other" });
    expect(nextStep(viewedBy(renterSigned, "lister"), LISTER.id).whose).toBe("you");
    expect(nextStep(makeDeal({ status: "declined", status_reason: "stay_taken" }), RENTER.id)).toEqual({ text: "These dates were taken by another request.", whose: "none" });
    expect(nextStep(makeDeal({ status: "cancelled", status_reason: "Found another place" }), LISTER.id).text).toBe("Found another place");
  });
});

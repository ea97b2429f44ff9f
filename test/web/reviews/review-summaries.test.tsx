/**
 * Review summaries where a person is weighed (docs/decisions/040): the renter's own profile, the chat
 * header (their public profile), and the request card the lister reads. "New" beside the average below 3.
 */
import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Conversation } from "@contract/messages";
import { axeViolations } from "../axe";
import { callsOf, dealPartsRoutes, fakeApi, IdleWebSocket, makeOwnerListing, notFound, publicUserRoute, renderApp } from "../render";
import { dealMessage, LISTER, makeDeal, RENTER, sessionOf, viewedBy } from "../deals/fixtures";

const API = "/api/v1";
beforeEach(() => vi.stubGlobal("WebSocket", IdleWebSocket));
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

function threadApi(other: typeof RENTER, as: "renter" | "lister", otherUser: Record<string, unknown>) {
  return fakeApi({
    [`GET ${API}/messages/conversations/enriched`]: { data: [conversationWith(other)], pagination: { next_token: null, has_more: false } },
    [`GET ${API}/messages/conversations/c1`]: { data: conversationWith(other), reply: "open" },
    [`GET ${API}/messages/conversations/c1/messages`]: { messages: [dealMessage()], pagination: { next_token: null, has_more: false } },
    [`POST ${API}/messages/conversations/c1/read`]: { unread_count: 0 },
    [`GET ${API}/subleases/l1`]: { data: makeOwnerListing({ id: "l1", user_id: LISTER.id, available_from: "2027-06-01", available_to: "2027-08-15" }) },
    ...publicUserRoute(other.id, { first_name: other.first_name, ...otherUser }),
    [`GET ${API}/deals/d1`]: { data: viewedBy(makeDeal(), as) },
  });
}

describe("review summaries", () => {
  it("the lister reads the renter's reviews as a renter on the request card, with New below 3; the chat header shows both of the renter's", async () => {
    threadApi(RENTER, "lister", { renter_review_summary: { count: 2, average: 4.5 }, review_summary: { count: 0, average: 0 } });
    renderApp("/messages?conversation=c1", sessionOf(LISTER));
    const card = await screen.findByRole("article", { name: "Sunny 2x2 near campus" });
    expect(await within(card).findByLabelText("Maya's reviews as a renter: average 4.5 out of 5 from 2 reviews, new")).toBeInTheDocument();
    expect(within(card).getByText("New")).toBeInTheDocument();
    const header = screen.getByRole("list", { name: "Maya's reviews" });
    expect(within(header).getByLabelText("Maya's reviews as a renter: average 4.5 out of 5 from 2 reviews, new")).toBeInTheDocument();
    expect(header).toHaveTextContent("As a lister: No reviews yet");
    expect(await axeViolations()).toEqual([]);
  });

  it("the renter's own card does not ask for their own summary; from 3 reviews the average stands alone", async () => {
    const calls = threadApi(LISTER, "renter", { review_summary: { count: 3, average: 4.333 } });
    renderApp("/messages?conversation=c1", sessionOf(RENTER));
    const card = await screen.findByRole("article", { name: "Sunny 2x2 near campus" });
    expect(within(card).queryByText(/reviews as a renter/)).toBeNull();
    const header = await screen.findByRole("list", { name: "Jordan's reviews" });
    expect(within(header).getByLabelText("Jordan's reviews as a lister: average 4.3 out of 5 from 3 reviews")).toBeInTheDocument();
    expect(within(header).queryByText("New")).toBeNull();
    expect(callsOf(calls, `GET ${API}/users/${RENTER.id}`)).toHaveLength(0);
  });

  it("the profile shows your own summaries as a renter and as a lister", async () => {
    const me = sessionOf(RENTER);
    fakeApi({
      ...dealPartsRoutes(),
      ...publicUserRoute(RENTER.id, { renter_review_summary: { count: 1, average: 5 }, review_summary: { count: 7, average: 3.857 } }),
      [`GET ${API}/universities/`]: { data: [] },
      [`GET ${API}/users/profile`]: { data: me.user },
      [`GET ${API}/users/listings`]: { data: [] },
      [`GET ${API}/saved-searches/`]: notFound,
      [`GET ${API}/users/blocks`]: notFound,
    });
    renderApp("/profile", me);
    const mine = await screen.findByRole("list", { name: "Your reviews" });
    expect(await within(mine).findByLabelText("Your reviews as a renter: average 5.0 out of 5 from 1 review, new")).toBeInTheDocument();
    expect(within(mine).getByLabelText("Your reviews as a lister: average 3.9 out of 5 from 7 reviews")).toBeInTheDocument();
  });
});

/**
 * Who may message whom (worker/contract/policies.ts `messagingRefusal`): the one rule behind starting a
 * conversation, sending, opening a room's socket and the listing page's Message button.
 */
import { describe, expect, it } from "vitest";
import { messagingRefusal, type MessagingFacts } from "@contract/messaging-rules";
import { MESSAGING_MESSAGES } from "@contract/messages";
import { REPORT_TEXTS } from "@contract/reports";

const ana = { id: "ana", suspended: false };
const listing = (over: Partial<{ user_id: string; verification_status: string; status: string; moderation_status: string }> = {}) => ({
  user_id: "ben",
  verification_status: "approved",
  status: "available",
  moderation_status: "visible",
  ...over,
});
const start = (over: Partial<Extract<MessagingFacts, { act: "start" | "send" }>> = {}): MessagingFacts => ({
  act: "start",
  sender: ana,
  recipientId: "ben",
  recipient: { id: "ben" },
  recipientBlockedSender: false,
  ...over,
});

describe("messagingRefusal: starting a conversation and sending", () => {
  it("allows writing to another existing person, with or without a listing of either of them", () => {
    expect(messagingRefusal(start())).toBeNull();
    expect(messagingRefusal(start({ listing: listing() }))).toBeNull();
    // The sender's own listing, even one not public (an owner sees their own).
    expect(messagingRefusal(start({ listing: listing({ user_id: "ana", status: "paused" }) }))).toBeNull();
    expect(messagingRefusal(start({ act: "send" }))).toBeNull();
  });

  it("refuses no account (401) and a suspended one (403, with its code)", () => {
    expect(messagingRefusal(start({ sender: null }))).toEqual({ status: 401, detail: "Not authenticated" });
    expect(messagingRefusal(start({ sender: { id: "ana", suspended: true } }))).toEqual({ status: 403, detail: REPORT_TEXTS.suspended, code: "account_suspended" });
    expect(messagingRefusal(start({ act: "send", sender: { id: "ana", suspended: true } }))).toMatchObject({ status: 403 });
  });

  it("refuses writing to oneself (400), whatever else is true", () => {
    expect(messagingRefusal(start({ recipientId: "ana", recipient: null, recipientBlockedSender: true }))).toEqual({ status: 400, detail: MESSAGING_MESSAGES.self });
  });

  it("refuses a deleted recipient (404) in the words of each act", () => {
    expect(messagingRefusal(start({ recipient: null }))).toEqual({ status: 404, detail: "User not found" });
    expect(messagingRefusal(start({ act: "send", recipient: null }))).toEqual({ status: 404, detail: "This user has deleted their account" });
  });

  it("refuses the blocked (403) in both acts; a block goes one way", () => {
    expect(messagingRefusal(start({ recipientBlockedSender: true }))).toEqual({ status: 403, detail: REPORT_TEXTS.blockedSend });
    expect(messagingRefusal(start({ act: "send", recipientBlockedSender: true }))).toEqual({ status: 403, detail: REPORT_TEXTS.blockedSend });
    // A block is checked before the listing.
    expect(messagingRefusal(start({ recipientBlockedSender: true, listing: null }))).toMatchObject({ status: 403 });
  });

  it("refuses a listing that does not exist or cannot be seen (404) and one of a third person (422 on listing_id)", () => {
    expect(messagingRefusal(start({ listing: null }))).toEqual({ status: 404, detail: "Listing not found" });
    expect(messagingRefusal(start({ listing: listing({ status: "paused" }) }))).toEqual({ status: 404, detail: "Listing not found" });
    expect(messagingRefusal(start({ listing: listing({ moderation_status: "hidden" }) }))).toMatchObject({ status: 404 });
    expect(messagingRefusal(start({ listing: listing({ user_id: "cat" }) }))).toEqual({
      status: 422,
      detail: "The listing must belong to you or to the person you message",
      field: "listing_id",
    });
  });
});

describe("messagingRefusal: opening a room's socket", () => {
  it("lets a participant in", () => {
    expect(messagingRefusal({ act: "connect", sender: ana, inRoom: true })).toBeNull();
  });

  it("refuses a deleted or suspended account's ticket (401) before asking about the room", () => {
    expect(messagingRefusal({ act: "connect", sender: null, inRoom: false })).toEqual({ status: 401, detail: "Not authenticated" });
    expect(messagingRefusal({ act: "connect", sender: { id: "ana", suspended: true }, inRoom: true })).toEqual({ status: 401, detail: "Not authenticated" });
  });

  it("answers 404 to anyone not in the room, as the HTTP routes do", () => {
    expect(messagingRefusal({ act: "connect", sender: ana, inRoom: false })).toEqual({ status: 404, detail: "Not found" });
  });
});

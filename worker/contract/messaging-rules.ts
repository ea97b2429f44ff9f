/**
 * Who may message whom, and the words of messaging and reports (docs/product-rules.md "Who may do what", docs/decisions/015): one home
 * for the rule and its texts, for the worker and the SPA. Zod-free, and apart from policies.ts and
 * constants.ts, which the home page loads: a visitor's first load carries none of it (docs/decisions/023).
 */
import { LIMITS } from "./limits";
import { canViewListing, isListingOwner, type ListingFacts } from "./policies";


/** The product's messaging texts (docs/product-rules.md "Wording"). */
export const MESSAGING_MESSAGES = {
  signIn: "Please log in to send messages",
  cannotContactOwner: "Unable to contact listing owner",
  /** A message link (`/messages?userId=`) with no listing, to someone who cannot be reached. */
  cannotContactPerson: "This person can't be reached: the link may be out of date, or their account is gone.",
  self: "You cannot message yourself",
  startFailed: "Failed to start conversation",
  loadConversationsFailed: "Failed to load conversations",
  loadMessagesFailed: "Failed to load messages",
  sendFailed: "Failed to send message",
  empty: "Message cannot be empty",
  tooLong: `Message must be at most ${LIMITS.messageMax} characters`,
  /** Starting a conversation with an account that does not exist (or no longer does). */
  userNotFound: "User not found",
  /** Writing in a conversation whose other participant deleted their account. */
  recipientDeleted: "This user has deleted their account",
  /** Starting a conversation about a listing that does not exist or that the caller may not see. */
  listingNotFound: "Listing not found",
  /** Starting a conversation about a listing of a third person. */
  listingNotTheirs: "The listing must belong to you or to the person you message",
  /** A send's Idempotency-Key that already stored a different message (another text or conversation). */
  keyReused: "This Idempotency-Key was already used for a different message. Send a new message with a new key.",
} as const;

export const REPORT_DETAILS_MAX = 1000;

export const REPORT_TEXTS = {
  suspended: "Your account is suspended. Contact support.",
  blockedSend: "You can't send messages in this conversation.",
  thanks: "Thanks — our team will review this report.",
  detailsRequired: "Please tell us what is wrong",
  detailsTooLong: `Details must be at most ${REPORT_DETAILS_MAX} characters`,
  reasonRequired: "Please choose a reason",
  ownListing: "You cannot report your own listing",
  noConversation: "You can only report someone you have a conversation with",
  blockSelf: "You cannot block yourself",
  reportNotOpen: "This report was already resolved",
  noListing: "This report is not about a listing",
} as const;

/** What the blocker reads in a conversation with the person they blocked. */
export const BLOCK_TEXTS = {
  youBlocked: (name: string) => `You blocked ${name}`,
  /** The 403 of a send by the blocker while the block stands. */
  unblockToSend: (name: string) => `Unblock ${name} to send messages.`,
} as const;

/**
 * Whether the viewer may write in a conversation: "open"; "you_blocked" (they blocked the other person:
 * unblocking lets them write again); "closed" (the other person cannot be written to: they blocked the
 * viewer or deleted their account; which one is not told).
 */
export type ReplyState = "open" | "you_blocked" | "closed";

/**
 * GET messages/conversations/{id}: the conversation (contract/messages Conversation) as the viewer sees
 * it, and whether they may write in it (generic: this file does not import the messages contract).
 */
export interface ConversationDetailResponse<C> {
  data: C;
  reply: ReplyState;
}

/** Starting a conversation, writing in one, or opening a real-time room (an inbox or a conversation). */
export type MessagingAct = "start" | "send" | "connect";

/** The person acting, or null when there is no such account (deleted since a ticket was issued, or signed out). */
type Messager = { id: string; suspended: boolean } | null;

/** What the rule looks at; the worker reads it from the database, the SPA from what it has shown. */
export type MessagingFacts =
  | {
      act: "start" | "send";
      sender: Messager;
      recipientId: string;
      /** The person written to, or null once their account is deleted (or never existed). */
      recipient: { id: string; firstName?: string } | null;
      /** Blocks go one way: the blocked cannot write to the blocker (docs/decisions/015). */
      recipientBlockedSender: boolean;
      /**
       * send only: the sender blocked the recipient. While the block stands the blocker does not write
       * either: they unblock first. Starting (opening) the conversation stays allowed.
       */
      senderBlockedRecipient?: boolean;
      /** start only: the listing the conversation is about; undefined when none is named, null when none exists. */
      listing?: ListingFacts | null;
    }
  | {
      act: "connect";
      sender: Messager;
      /** The room is the sender's own inbox, or a conversation they take part in. */
      inRoom: boolean;
    };

/** Why the act is refused: the API's status and words (the SPA shows the same words). */
export interface MessagingRefusal {
  status: 400 | 401 | 403 | 404 | 422;
  detail: string;
  code?: "account_suspended";
  /** A refusal about one request field, answered as a validation error on it (422). */
  field?: "listing_id";
}

const NOT_AUTHENTICATED: MessagingRefusal = { status: 401, detail: "Not authenticated" };

/**
 * Who may message whom (docs/product-rules.md "Who may do what"), for every way in: null when the act is allowed, else
 * the first refusal in this order: no account (401); suspended (403 over HTTP; a socket's ticket is
 * just refused, 401); then for a room, not its owner or participant (404). For a message: to oneself
 * (400), to a deleted account (404), to someone the sender blocked (send only, 403: unblock first), to
 * someone who blocked the sender (403), about a listing that does
 * not exist or the sender may not see (404) or that belongs to neither of them (422).
 * A suspended recipient is not a refusal: the message waits, as the suspension may be lifted.
 */
export function messagingRefusal(facts: MessagingFacts): MessagingRefusal | null {
  const { sender } = facts;
  if (facts.act === "connect") {
    if (!sender || sender.suspended) return NOT_AUTHENTICATED;
    return facts.inRoom ? null : { status: 404, detail: "Not found" };
  }
  if (!sender) return NOT_AUTHENTICATED;
  if (sender.suspended) return { status: 403, detail: REPORT_TEXTS.suspended, code: "account_suspended" };
  if (sender.id === facts.recipientId) return { status: 400, detail: MESSAGING_MESSAGES.self };
  if (!facts.recipient) return { status: 404, detail: facts.act === "start" ? MESSAGING_MESSAGES.userNotFound : MESSAGING_MESSAGES.recipientDeleted };
  if (facts.act === "send" && facts.senderBlockedRecipient) return { status: 403, detail: BLOCK_TEXTS.unblockToSend(facts.recipient.firstName ?? "this person") };
  if (facts.recipientBlockedSender) return { status: 403, detail: REPORT_TEXTS.blockedSend };
  const { listing } = facts;
  if (listing === undefined) return null;
  if (!listing || !canViewListing(sender, listing)) return { status: 404, detail: MESSAGING_MESSAGES.listingNotFound };
  if (!isListingOwner(sender, listing) && !isListingOwner(facts.recipient, listing)) {
    return { status: 422, detail: MESSAGING_MESSAGES.listingNotTheirs, field: "listing_id" };
  }
  return null;
}

/**
 * The messaging rule on what a screen knows of a signed-in student writing to `recipientId` (about
 * `listing`, if one): their account is not suspended (its tokens stop working) and blocks are the
 * server's to know (it refuses the send in the same words). Signed out (null) is the 401.
 */
export function messagingRefusalOnScreen(user: { id: string } | null, recipientId: string, listing?: ListingFacts): MessagingRefusal | null {
  return messagingRefusal({
    act: "start",
    sender: user && { id: user.id, suspended: false },
    recipientId,
    recipient: { id: recipientId },
    recipientBlockedSender: false,
    ...(listing && { listing }),
  });
}

/** The reply state of a conversation from the facts of a send in it (what the viewer would be told). */
export function replyStateOf(facts: Extract<MessagingFacts, { recipientId: string }> & { act: "send" }): ReplyState {
  if (facts.senderBlockedRecipient && facts.recipient) return "you_blocked";
  return messagingRefusal(facts) ? "closed" : "open";
}

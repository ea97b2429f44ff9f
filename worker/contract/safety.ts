/**
 * Scam shield (docs/decisions/015): the reasons a message can match, their labels for staff, the texts people
 * see, and the staff Safety queue's answers. The rules themselves are in worker/services/scam-shield.ts.
 */
import type { Pagination } from "./listings";
import { z } from "./zod";

/** Every pattern of rental fraud the shield knows, in the order staff read them. */
export const SCAM_REASONS = ["off_platform_payment", "pay_before_viewing", "owner_unavailable", "moves_off_platform", "identity_request", "suspicious_link", "early_move_in"] as const;
export type ScamReason = (typeof SCAM_REASONS)[number];

export const isScamReason = (value: unknown): value is ScamReason => (SCAM_REASONS as readonly unknown[]).includes(value);

/** What staff read in the Safety queue (never shown to the sender or the recipient). */
export const SCAM_REASON_LABELS: Record<ScamReason, string> = {
  off_platform_payment: "Payment off the platform (wire, payment app, gift cards, crypto)",
  pay_before_viewing: "Money before a viewing",
  owner_unavailable: "Owner away or unable to show the place",
  moves_off_platform: "Moving the conversation off CampusNest",
  identity_request: "Asks for identity documents, ID numbers or bank login",
  suspicious_link: "Link to a payment or booking page that is not ours",
  early_move_in: "Asks the renter to tap \"I have the keys\" (confirm move-in) early, which releases the held rent",
};

/** Under a flagged message, shown to its recipient only (the payment kind's text, kept for old clients). */
export const SAFETY_NOTICE = "Never pay before you have seen the place and signed a lease";

/**
 * The recipient's notice has a kind (docs/decisions/015), most serious first. A message matching several reasons
 * shows the notice of its most serious kind the recipient has not quieted ("This is fine").
 */
export const SAFETY_KINDS = ["identity", "link", "keys", "payment", "away", "contact"] as const;
export type SafetyKind = (typeof SAFETY_KINDS)[number];

export const isSafetyKind = (value: unknown): value is SafetyKind => (SAFETY_KINDS as readonly unknown[]).includes(value);

/** Which notice each reason calls for. */
export const SAFETY_KIND_OF_REASON: Record<ScamReason, SafetyKind> = {
  identity_request: "identity",
  suspicious_link: "link",
  early_move_in: "keys",
  off_platform_payment: "payment",
  pay_before_viewing: "payment",
  owner_unavailable: "away",
  moves_off_platform: "contact",
};

/**
 * The one rule from stored reasons to the recipient's notice: the most serious kind among the reasons
 * that the viewer has not quieted, or null (no notice).
 */
export function safetyKindOf(reasons: readonly ScamReason[], quieted: ReadonlySet<SafetyKind> = new Set()): SafetyKind | null {
  const kinds = new Set(reasons.map((r) => SAFETY_KIND_OF_REASON[r]));
  return SAFETY_KINDS.find((k) => kinds.has(k) && !quieted.has(k)) ?? null;
}

/**
 * A "This is fine" the viewer gave (decision 015): under the notice of `kind` on one message from
 * `senderId`, which had `reasons` of that kind.
 */
export interface SafetyDismissal {
  kind: SafetyKind;
  senderId: string;
  reasons: readonly ScamReason[];
}

/** A message's reasons that call for the notice of `kind`. */
export const reasonsOfKind = (reasons: readonly ScamReason[], kind: SafetyKind) => reasons.filter((r) => SAFETY_KIND_OF_REASON[r] === kind);

/**
 * The recipient's notice for a message from `senderId` with these reasons, after their "This is fine"s:
 * a kind is quiet only when a dismissal of that kind on a message of the same sender had every reason of
 * that kind this one has. So the dismissed message itself is quiet, and so is that sender repeating the
 * same pattern; a new pattern of the same kind (a mild "Zelle?" dismissed, then "wire the deposit before
 * you see it", which adds money before a viewing) or a more serious kind shows its notice again.
 */
export function noticeKindAfter(reasons: readonly ScamReason[], senderId: string, dismissals: readonly SafetyDismissal[]): SafetyKind | null {
  const covered = new Set<SafetyKind>();
  for (const d of dismissals) {
    if (d.senderId === senderId && reasonsOfKind(reasons, d.kind).every((r) => d.reasons.includes(r))) covered.add(d.kind);
  }
  return safetyKindOf(reasons, covered);
}

/**
 * Stored beside a message's reasons when the scam shield's scored model found them and no rule did
 * (docs/decisions/015), so staff can tell the two apart. Never a reason: parseScamReasons skips it.
 */
export const SCORED_FLAG = "scored";
/** What a message stores: its reasons, and the scored marker when the model found them. */
export type StoredFlag = ScamReason | typeof SCORED_FLAG;

/** Whether stored JSON flags carry the scored marker (bad JSON reads as no). */
export function isScoredFlags(json: string | null | undefined): boolean {
  if (!json) return false;
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) && parsed.includes(SCORED_FLAG);
  } catch {
    return false;
  }
}

/** Stored JSON reasons, known ones only, in SCAM_REASONS order (bad JSON reads as none). */
export function parseScamReasons(json: string | null | undefined): ScamReason[] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const found = new Set(Array.isArray(parsed) ? parsed.filter(isScamReason) : []);
  return SCAM_REASONS.filter((r) => found.has(r));
}

/** The recipient's notice per kind (each followed by the SAFETY_LINK_TEXT link to /safety). */
export const SAFETY_NOTICES: Record<SafetyKind, string> = {
  identity: "Never send your ID, Social Security number or bank login to someone you have not signed a lease with. Identity theft often follows rental scams.",
  link: "This link does not go to CampusNest. Never pay or enter your details on a page someone sends you.",
  keys: "Tap \"I have the keys\" only once you are inside with the keys: it sends your first month's rent to the lister and cannot be undone.",
  payment: SAFETY_NOTICE,
  away: "An owner who cannot show you the place and mails the keys is a common scam. See it in person before you pay.",
  contact: "Keep the conversation on CampusNest: scammers move chats elsewhere, where we cannot help.",
};

/** What staff read for a kind of notice a recipient said was fine. */
export const SAFETY_KIND_LABELS: Record<SafetyKind, string> = {
  identity: "Identity documents or numbers",
  link: "Suspicious link",
  keys: "Confirming move-in early (\"I have the keys\")",
  payment: "Payment before a viewing or off the platform",
  away: "Owner away, keys by mail",
  contact: "Moving the conversation off CampusNest",
};

/** The recipient's "This is fine" under a notice, and its answers. */
export const SAFETY_FEEDBACK_TEXTS = {
  button: "This is fine",
  /** The button's accessible name: what it does. */
  buttonLabel: "This is fine: no warning on this message, nor when this person asks the same again",
  undo: "Undo",
  undoLabel: "Undo: show this warning again",
  failed: "Could not save that. Please try again.",
  /** 403: the caller has no notice of that kind on that message (e.g. its sender). */
  noNotice: "You have no safety notice of this kind on this message.",
  /** 404: no such message in this conversation. */
  noMessage: "Message not found",
} as const;

/**
 * What each kind of notice warns about, as said in the thanks after "This is fine": quieting one kind
 * leaves the others (a message asking for ID and a deposit still shows the payment notice), so the
 * thanks names the kind it quieted, and says it holds for this person asking the same again only.
 */
export const SAFETY_QUIETED_TOPICS: Record<SafetyKind, string> = {
  identity: "ID requests",
  link: "links to other sites",
  keys: "requests to confirm your move-in",
  payment: "payment requests",
  away: "owners who cannot show the place",
  contact: "moving the chat off CampusNest",
};

/** The thanks in place of the notice just quieted, per kind. */
export const SAFETY_CONFIRMED_TEXTS: Record<SafetyKind, string> = Object.fromEntries(
  SAFETY_KINDS.map((k) => [k, `Thanks. We won't warn you about ${SAFETY_QUIETED_TOPICS[k]} like this one from this person again.`]),
) as Record<SafetyKind, string>;

/** POST messages/conversations/{id}/safety-feedback: the notice of `kind` under message `message_id`. */
export const safetyFeedbackSchema = z.object({ kind: z.enum(SAFETY_KINDS), message_id: z.string().trim().min(1).max(64) });
export type SafetyFeedbackInput = z.infer<typeof safetyFeedbackSchema>;

/** POST (and DELETE .../safety-feedback/{messageId}/{kind}): changed is false when it was already so. */
export interface SafetyFeedbackResponse {
  success: true;
  kind: SafetyKind;
  message_id: string;
  quieted: boolean;
  changed: boolean;
}

/** A recipient's "This is fine", for staff. */
export interface SafetyFeedbackEntry {
  user_id: string;
  /** "Deleted user" once the account is gone. */
  name: string;
  /** The message it was given on. */
  message_id: string;
  kind: SafetyKind;
  kind_label: string;
  created_at: string;
}
/** At the top of every conversation. */
export const SAFETY_TIP = "Stay safe: keep the conversation and any payment on CampusNest, and never pay before you have seen the place.";
/**
 * Under a payment notice to the one who would rent (docs/decisions/030): CampusNest's own way to pay,
 * followed by the deal's next step (SAFETY_PAY_INSIDE_STEPS).
 */
export const SAFETY_PAY_INSIDE = "Pay through CampusNest: your first month is held until you move in.";
/** The next step's link text, per step of the pair's deal (Message.safety_pay_inside.step). */
export const SAFETY_PAY_INSIDE_STEPS = {
  request: "Request to sublease",
  wait: "See your request",
  sign: "Sign the agreement",
  pay: "Pay the first month",
} as const;
/** The link under the notice and the tip, to the safety page. */
export const SAFETY_LINK_TEXT = "How to spot a scam";

/** Staff's Safety queue: a page size and its limit. */
export const SAFETY_QUEUE_PAGE = 20;
export const SAFETY_QUEUE_PAGE_MAX = 100;

export interface SafetyParticipant {
  id: string;
  /** "Deleted user" once the account is gone. */
  name: string;
}

export interface SafetyFlaggedMessage {
  id: string;
  sender_id: string;
  text: string;
  timestamp: string;
  reasons: ScamReason[];
  /** Found by the scored model, no rule matched (docs/decisions/015): staff read it as a weaker signal. */
  scored: boolean;
}

/** A flagged conversation not yet reviewed (or flagged again since its review). */
export interface SafetyQueueItem {
  conversation_id: string;
  flagged_at: string;
  participants: [SafetyParticipant, SafetyParticipant];
  reasons: ScamReason[];
  /** The same reasons as staff read them. */
  reason_labels: string[];
  /** The flagged messages, oldest first (at most the newest 20). */
  messages: SafetyFlaggedMessage[];
  /** Recipients who said "This is fine" (docs/decisions/015), oldest first. The item stays in the queue. */
  feedback: SafetyFeedbackEntry[];
}

/** GET admin/safety?limit&last_evaluated_key: newest flag first. */
export interface SafetyQueueResponse {
  conversations: SafetyQueueItem[];
  pagination: Pagination;
}

/** POST admin/safety/{conversationId}/review: changed is false when it was already reviewed. */
export interface SafetyReviewResponse {
  success: true;
  changed: boolean;
}

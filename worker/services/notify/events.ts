/**
 * Every notice the product sends, in one union, each kind with its rule (transactional or the
 * preference that silences it, its throttle) and its rendering per channel. Adding a kind: a member
 * of NotifyEvent, its entry in EVENTS, its template in services/email-templates.ts, and the caller's
 * notify(). A new channel adds its renderer to the entries that it carries (docs/architecture.md).
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/queries/users";
import type { NotificationKind } from "../../contract/users";
import type { ConversationRow } from "../../db/queries/conversations";
import { claimMessageEmail } from "../../db/queries/conversations";
import { claimAlert } from "../../db/queries/saved-searches";
import { MESSAGE_EMAIL_GAP_MS } from "../../contract/messages";
import { reviewReasonNotice } from "../../contract/waits";
import type { EmailMessage } from "../email";
import type { DealNotice } from "../../contract/deal-process";
import { DEAL_NOTICE_RULES, type DealNoticeEvent } from "./deal-notices";
import {
  dealCaseEmail,
  dealReceiptEmail,
  dealRequestsSummaryEmail,
  dealSignCodeEmail,
  dealSignedEmail,
  landlordConsentEmail,
  listingPhotoMatchEmail,
  listingReviewEmail,
  newMessageEmail,
  passwordResetEmail,
  promotionDuplicateRefundedEmail,
  promotionPaymentFailedEmail,
  promotionReceiptEmail,
  promotionStoppedEmail,
  type PromotionStopReason,
  savedSearchAlertEmail,
  schoolEmailCodeEmail,
  signInCodeEmail,
  stillAvailableEmail,
  verificationCodeEmail,
  verificationReviewEmail,
} from "../email-templates";

export type NotifyEvent =
  | { kind: "verification_code"; code: string }
  | { kind: "password_reset_code"; code: string }
  | { kind: "sign_in_code"; code: string }
  | { kind: "school_email_code"; code: string; domain: string }
  | { kind: "listing_review"; title: string; approved: boolean; reason: string | null }
  // The photo check sent a listing back to review (docs/decisions/028): the owner hears why, never whose photos.
  | { kind: "listing_photo_match"; listingId: string; title: string; reason: string }
  | { kind: "verification_review"; approved: boolean; reason: string | null }
  | {
      kind: "new_message";
      conversation: Pick<ConversationRow, "id" | "userA" | "userB">;
      senderId: string;
      senderFirstName: string;
      /** The recipient has the app open elsewhere (an inbox socket): the badge tells them, so no email now. */
      recipientOnline?: boolean;
    }
  | { kind: "still_available"; title: string; availableUrl: string; takenUrl: string }
  | {
      kind: "saved_search_alert";
      searchId: string;
      searchName: string;
      listings: { title: string; monthlyRent: number; url: string }[];
      total: number;
      searchUrl: string;
      unsubscribeUrl: string;
      /** The alert allowance is claimed at `nowIso` when the last alert was at or before `alertedBefore`. */
      nowIso: string;
      alertedBefore: string;
    }
  | { kind: "promotion_payment_failed"; listingId: string; title: string }
  | { kind: "promotion_duplicate_refunded"; listingId: string; title: string }
  | {
      kind: "promotion_receipt";
      listingId: string;
      title: string;
      invoiceId: string;
      amount: number;
      currency: string;
      /** Epoch seconds. */
      periodStart: number;
      periodEnd: number;
      paidAt: number;
    }
  | { kind: "promotion_stopped"; listingId: string; title: string; reason: PromotionStopReason; endsAt: string | null }
  // Deals (docs/decisions/026, 035): each step is a notice the process declares on its transitions, worded in
  // deal-notices.ts; codes, the signed copy and the landlord's request always go.
  | DealNoticeEvent
  // A lister's later requests of one renter and listing within a day, in one daily summary.
  | { kind: "deal_requests_summary"; requests: { dealId: string; title: string; renter: string; stay: string }[] }
  | { kind: "deal_sign_code"; title: string; code: string }
  /** The two hashes, labelled apart (docs/decisions/044): the text both signed, and the PDF file (null if not made yet). */
  | { kind: "deal_signed"; dealId: string; title: string; agreementSha256: string; pdfSha256: string | null }
  | { kind: "landlord_consent_request"; landlordName: string; tenantName: string; subtenantName: string; address: string; term: string; url: string }
  // Deal payments (docs/decisions/029): the receipt, and each money step (held, released, refunded, a problem,
  // a cancellation asked or decided); always sent. A case goes to the support address.
  | { kind: "deal_receipt"; dealId: string; title: string; rentCents: number; feeCents: number; feePercent: number; totalCents: number; heldUntil: string; paidAt: string; paymentId: string }
  | { kind: "deal_case_opened"; dealId: string; title: string; reason: string };

export type NotifyKind = NotifyEvent["kind"];
export type EventOf<K extends NotifyKind> = Extract<NotifyEvent, { kind: K }>;

/** A user's switch that turns a kind of email off (the profile's notification settings). */
export type PreferenceColumn = "emailOnMessage" | "emailOnListingReview" | "emailOnVerificationReview" | "emailOnSavedSearch" | "emailOnDeal";

/** A user's push switch per kind (docs/decisions/027). */
export const PUSH_COLUMN = {
  messages: "pushOnMessage",
  deals: "pushOnDeal",
  saved_searches: "pushOnSavedSearch",
  reviews: "pushOnReview",
} as const satisfies Record<NotificationKind, keyof UserRow>;

/** What notify reads of a user: the address, the name, and every switch. */
export type NotifyUser = Pick<UserRow, "id" | "email" | "firstName" | "quietHours" | PreferenceColumn | (typeof PUSH_COLUMN)[NotificationKind]>;

/** Who a channel delivers to: an address and the name a greeting uses. */
export interface Addressee {
  email: string;
  firstName: string;
  user?: NotifyUser;
}

/** A push: what the device shows and the page it opens; `topic` collapses a burst to one. */
export interface PushNotice {
  title: string;
  body: string;
  /** A path or an absolute address of the app. */
  url: string;
  /** One push per topic until it is read (a conversation); none: every event pushes. */
  topic?: string;
  urgency: "normal" | "high";
}

export interface NotifyContext {
  db: Db;
  env: Env;
  config: Config;
}

/** A way to reach someone (email today; push is one more module in channels/). */
export interface Channel {
  name: string;
  deliver(ctx: NotifyContext, to: Addressee, event: NotifyEvent): Promise<void>;
}

/** The kinds that carry a one-time code: the code proves the address it goes to, so it is never pushed. */
export type CodeKind = Extract<NotifyEvent, { code: string }>["kind"];

/**
 * Every kind names its settings group (the push kind whose switch applies, docs/decisions/027) and
 * renders its push; a kind added without them fails tsc. Codes alone have neither.
 */
type PushRule<K extends NotifyKind> = K extends CodeKind
  ? { group: null; push?: never }
  : { group: NotificationKind; push: (event: EventOf<K>, config: Config) => PushNotice };

export type EventRule<K extends NotifyKind> = PushRule<K> & (
  | {
      /** Codes, receipts, billing and signed links: always sent, never throttled, never silenced by settings. */
      transactional: true;
    }
  | {
      transactional: false;
      /** Off: the user is not notified of this kind (null: no setting silences it). */
      preference: PreferenceColumn | null;
      /** The person must hear of it: with its email off, it is still emailed when no push was taken. */
      emailUnlessPushed?: true;
      /** Claims the right to notify now (false: throttled). Runs once, after the preference, for users only. */
      throttle?: (ctx: NotifyContext, userId: string, event: EventOf<K>) => Promise<boolean>;
      /** Like `throttle`, for the email alone (a push may still go). */
      emailThrottle?: (ctx: NotifyContext, userId: string, event: EventOf<K>) => Promise<boolean>;
    }
) & {
  email: (to: Addressee, event: EventOf<K>, config: Config) => EmailMessage;
};

const dealUrl = (config: Config, dealId: string) => `${config.publicBaseUrl}/deals/${encodeURIComponent(dealId)}`;
const billingUrl = (config: Config, listingId: string) => `${config.publicBaseUrl}/billing?listing_id=${encodeURIComponent(listingId)}`;

export const EVENTS: { [K in NotifyKind]: EventRule<K> } = {
  verification_code: { group: null, transactional: true, email: (to, e) => verificationCodeEmail(to.email, to.firstName, e.code) },
  password_reset_code: { group: null, transactional: true, email: (to, e) => passwordResetEmail(to.email, to.firstName, e.code) },
  sign_in_code: { group: null, transactional: true, email: (to, e) => signInCodeEmail(to.email, e.code) },
  school_email_code: { group: null, transactional: true, email: (to, e) => schoolEmailCodeEmail(to.email, to.firstName, e.code, e.domain) },
  listing_review: {
    group: "reviews",
    push: (e) => ({ title: e.approved ? "Your listing is live" : "Your listing needs changes", body: e.title, url: "/my-listings", urgency: "normal" }),
    transactional: false,
    preference: "emailOnListingReview",
    email: (to, e) => listingReviewEmail(to.email, to.firstName, e.title, e.approved, e.reason),
  },
  listing_photo_match: {
    group: "reviews",
    push: (e) => ({ title: "Your listing is back in review", body: reviewReasonNotice(e.reason), url: `/listing/${encodeURIComponent(e.listingId)}`, urgency: "normal" }),
    transactional: false,
    preference: "emailOnListingReview",
    email: (to, e, config) => listingPhotoMatchEmail(to.email, to.firstName, e.title, reviewReasonNotice(e.reason), `${config.publicBaseUrl}/listing/${encodeURIComponent(e.listingId)}`),
  },
  verification_review: {
    group: "reviews",
    push: (e) => ({ title: e.approved ? "You're verified" : "Your verification needs another look", body: e.reason ?? "Open your profile for details.", url: "/profile", urgency: "normal" }),
    transactional: false,
    preference: "emailOnVerificationReview",
    email: (to, e) => verificationReviewEmail(to.email, to.firstName, e.approved, e.reason),
  },
  new_message: {
    group: "messages",
    push: (e) => ({
      title: `${e.senderFirstName} sent you a message`,
      body: "Open CampusNest to read and reply.",
      url: `/messages?userId=${encodeURIComponent(e.senderId)}`,
      topic: `conversation:${e.conversation.id}`,
      urgency: "high",
    }),
    transactional: false,
    preference: "emailOnMessage",
    // At most one email per conversation and recipient every MESSAGE_EMAIL_GAP_MS; pushes have their own rule (one per conversation until read).
    emailThrottle: ({ db }, userId, e) => claimMessageEmail(db, e.conversation, userId, MESSAGE_EMAIL_GAP_MS),
    email: (to, e, config) => newMessageEmail(to.email, to.firstName, e.senderFirstName, `${config.publicBaseUrl}/messages?userId=${encodeURIComponent(e.senderId)}`),
  },
  // The owner's only way to keep a listing from pausing without signing in: no setting silences it.
  still_available: {
    group: "saved_searches",
    push: (e) => ({ title: "Is your place still available?", body: e.title, url: e.availableUrl, urgency: "normal" }),
    transactional: false, preference: null, email: (to, e) => stillAvailableEmail(to.email, to.firstName, e.title, e.availableUrl, e.takenUrl) },
  saved_search_alert: {
    group: "saved_searches",
    push: (e) => ({ title: `New places for "${e.searchName}"`, body: `${e.total} new ${e.total === 1 ? "listing" : "listings"}`, url: e.searchUrl, topic: `search:${e.searchId}`, urgency: "normal" }),
    transactional: false,
    preference: "emailOnSavedSearch",
    // At most one alert per search a day (SAVED_SEARCH.alertEveryMs; decision 020).
    throttle: ({ db }, _userId, e) => claimAlert(db, e.searchId, e.nowIso, e.alertedBefore),
    email: (to, e) => savedSearchAlertEmail(to.email, to.firstName, e.searchName, e.listings, e.total, e.searchUrl, e.unsubscribeUrl),
  },
  promotion_payment_failed: {
    group: "deals",
    push: (e, config) => ({ title: "A promotion payment failed", body: e.title, url: billingUrl(config, e.listingId), urgency: "normal" }),
    transactional: true,
    email: (to, e, config) => promotionPaymentFailedEmail(to.email, to.firstName, e.title, billingUrl(config, e.listingId)),
  },
  promotion_duplicate_refunded: {
    group: "deals",
    push: (e, config) => ({ title: "A duplicate payment was refunded", body: e.title, url: billingUrl(config, e.listingId), urgency: "normal" }),
    transactional: true,
    email: (to, e, config) => promotionDuplicateRefundedEmail(to.email, to.firstName, e.title, billingUrl(config, e.listingId)),
  },
  promotion_receipt: {
    group: "deals",
    push: (e, config) => ({ title: "Payment received", body: e.title, url: billingUrl(config, e.listingId), urgency: "normal" }),
    transactional: true, email: (to, e, config) => promotionReceiptEmail(to.email, to.firstName, e, billingUrl(config, e.listingId)) },
  promotion_stopped: {
    group: "deals",
    push: (e, config) => ({ title: "A promotion stopped", body: e.title, url: e.reason === "account_deleted" ? "/" : billingUrl(config, e.listingId), urgency: "normal" }),
    transactional: true,
    email: (to, e, config) =>
      promotionStoppedEmail(to.email, to.firstName, e.title, e.reason, e.endsAt, e.reason === "account_deleted" ? null : billingUrl(config, e.listingId)),
  },
  // Typed here (deal-notices.ts imports nothing of this module: no import cycle).
  ...(DEAL_NOTICE_RULES as unknown as { [K in DealNotice]: EventRule<K> }),
  deal_requests_summary: {
    group: "deals",
    push: (e) => ({ title: `${e.requests.length} more sublease ${e.requests.length === 1 ? "request" : "requests"}`, body: e.requests.map((r) => r.title).join(", "), url: "/profile#deals", urgency: "normal" }),
    transactional: false,
    preference: "emailOnDeal",
    emailUnlessPushed: true,
    email: (to, e, config) => dealRequestsSummaryEmail(to.email, to.firstName, e.requests, (id) => dealUrl(config, id), `${config.publicBaseUrl}/profile#deals`),
  },
  deal_sign_code: { group: null, transactional: true, email: (to, e) => dealSignCodeEmail(to.email, to.firstName, e.title, e.code) },
  deal_signed: {
    group: "deals",
    push: (e) => ({ title: "The agreement is signed", body: e.title, url: `/deals/${encodeURIComponent(e.dealId)}`, urgency: "normal" }),
    transactional: true,
    email: (to, e, config) => dealSignedEmail(to.email, to.firstName, e.title, { text: e.agreementSha256, file: e.pdfSha256 }, dealUrl(config, e.dealId)),
  },
  deal_receipt: {
    group: "deals",
    push: (e) => ({ title: "Payment received", body: e.title, url: `/deals/${encodeURIComponent(e.dealId)}#receipt`, urgency: "normal" }),
    transactional: true,
    email: (to, e, config) => dealReceiptEmail(to.email, to.firstName, e, dealUrl(config, e.dealId)),
  },
  // Goes to the support address (staff have no device subscribed); the kind is still a deal's.
  deal_case_opened: {
    group: "deals",
    push: (e) => ({ title: "A deal needs a decision", body: e.title, url: "/staff", urgency: "normal" }),
    transactional: true,
    email: (to, e, config) => dealCaseEmail(to.email, e.title, e.reason, `${config.publicBaseUrl}/staff?deal=${encodeURIComponent(e.dealId)}`),
  },
  // Goes to the landlord's address (no account, so no device to push to); the kind is still a deal's.
  landlord_consent_request: {
    group: "deals",
    push: (e) => ({ title: "Consent to a sublease requested", body: e.address, url: e.url, urgency: "normal" }),
    transactional: true,
    email: (to, e) => landlordConsentEmail(to.email, e.landlordName, e.tenantName, e.subtenantName, e.address, e.term, e.url),
  },
};

/** The event's email (its kind's template). */
export const emailOf = (to: Addressee, event: NotifyEvent, config: Config): EmailMessage =>
  (EVENTS[event.kind].email as (to: Addressee, e: NotifyEvent, c: Config) => EmailMessage)(to, event, config);

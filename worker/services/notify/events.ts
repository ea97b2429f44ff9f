/**
 * Every notice the product sends, in one union, each kind with its rule (transactional or the
 * preference that silences it, its throttle) and its rendering per channel. Adding a kind: a member
 * of NotifyEvent, its entry in EVENTS, its template in services/email-templates.ts, and the caller's
 * notify(). A new channel adds its renderer to the entries that it carries (docs/architecture.md).
 */
import type { Config } from "../../env";
import type { Db } from "../../db/client";
import type { UserRow } from "../../db/queries/users";
import type { ConversationRow } from "../../db/queries/conversations";
import { claimMessageEmail } from "../../db/queries/conversations";
import { claimAlert } from "../../db/queries/saved-searches";
import { MESSAGE_EMAIL_GAP_MS } from "../../contract/messages";
import type { EmailMessage } from "../email";
import {
  dealSignCodeEmail,
  dealSignedEmail,
  dealUpdateEmail,
  landlordConsentEmail,
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
  | { kind: "verification_review"; approved: boolean; reason: string | null }
  | { kind: "new_message"; conversation: Pick<ConversationRow, "id" | "userA" | "userB">; senderId: string; senderFirstName: string }
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
  // Deals (docs/decisions/026): each step, worded by services/deals; codes, the signed copy and the landlord's request always go.
  | { kind: "deal_update"; dealId: string; subject: string; lines: string[] }
  | { kind: "deal_sign_code"; title: string; code: string }
  | { kind: "deal_signed"; dealId: string; title: string; sha256: string }
  | { kind: "landlord_consent_request"; landlordName: string; tenantName: string; subtenantName: string; address: string; term: string; url: string };

export type NotifyKind = NotifyEvent["kind"];
export type EventOf<K extends NotifyKind> = Extract<NotifyEvent, { kind: K }>;

/** A user's switch that turns a kind of email off (the profile's notification settings). */
export type PreferenceColumn = "emailOnMessage" | "emailOnListingReview" | "emailOnVerificationReview" | "emailOnSavedSearch";

/** Who a channel delivers to: an address and the name a greeting uses. */
export interface Addressee {
  email: string;
  firstName: string;
  user?: Pick<UserRow, "id">;
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

type EventRule<K extends NotifyKind> = (
  | {
      /** Codes, receipts, billing and signed links: always sent, never throttled, never silenced by settings. */
      transactional: true;
    }
  | {
      transactional: false;
      /** Off: the user is not notified of this kind (null: no setting silences it). */
      preference: PreferenceColumn | null;
      /** Claims the right to notify now (false: throttled). Runs once, after the preference, for users only. */
      throttle?: (ctx: NotifyContext, userId: string, event: EventOf<K>) => Promise<boolean>;
    }
) & {
  email: (to: Addressee, event: EventOf<K>, config: Config) => EmailMessage;
};

const dealUrl = (config: Config, dealId: string) => `${config.publicBaseUrl}/deals/${encodeURIComponent(dealId)}`;
const billingUrl = (config: Config, listingId: string) => `${config.publicBaseUrl}/billing?listing_id=${encodeURIComponent(listingId)}`;

export const EVENTS: { [K in NotifyKind]: EventRule<K> } = {
  verification_code: { transactional: true, email: (to, e) => verificationCodeEmail(to.email, to.firstName, e.code) },
  password_reset_code: { transactional: true, email: (to, e) => passwordResetEmail(to.email, to.firstName, e.code) },
  sign_in_code: { transactional: true, email: (to, e) => signInCodeEmail(to.email, e.code) },
  school_email_code: { transactional: true, email: (to, e) => schoolEmailCodeEmail(to.email, to.firstName, e.code, e.domain) },
  listing_review: {
    transactional: false,
    preference: "emailOnListingReview",
    email: (to, e) => listingReviewEmail(to.email, to.firstName, e.title, e.approved, e.reason),
  },
  verification_review: {
    transactional: false,
    preference: "emailOnVerificationReview",
    email: (to, e) => verificationReviewEmail(to.email, to.firstName, e.approved, e.reason),
  },
  new_message: {
    transactional: false,
    preference: "emailOnMessage",
    // At most one email per conversation and recipient every MESSAGE_EMAIL_GAP_MS.
    throttle: ({ db }, userId, e) => claimMessageEmail(db, e.conversation, userId, MESSAGE_EMAIL_GAP_MS),
    email: (to, e, config) => newMessageEmail(to.email, to.firstName, e.senderFirstName, `${config.publicBaseUrl}/messages?userId=${encodeURIComponent(e.senderId)}`),
  },
  // The owner's only way to keep a listing from pausing without signing in: no setting silences it.
  still_available: { transactional: false, preference: null, email: (to, e) => stillAvailableEmail(to.email, to.firstName, e.title, e.availableUrl, e.takenUrl) },
  saved_search_alert: {
    transactional: false,
    preference: "emailOnSavedSearch",
    // At most one alert per search a day (SAVED_SEARCH.alertEveryMs; decision 020).
    throttle: ({ db }, _userId, e) => claimAlert(db, e.searchId, e.nowIso, e.alertedBefore),
    email: (to, e) => savedSearchAlertEmail(to.email, to.firstName, e.searchName, e.listings, e.total, e.searchUrl, e.unsubscribeUrl),
  },
  promotion_payment_failed: {
    transactional: true,
    email: (to, e, config) => promotionPaymentFailedEmail(to.email, to.firstName, e.title, billingUrl(config, e.listingId)),
  },
  promotion_duplicate_refunded: {
    transactional: true,
    email: (to, e, config) => promotionDuplicateRefundedEmail(to.email, to.firstName, e.title, billingUrl(config, e.listingId)),
  },
  promotion_receipt: { transactional: true, email: (to, e, config) => promotionReceiptEmail(to.email, to.firstName, e, billingUrl(config, e.listingId)) },
  promotion_stopped: {
    transactional: true,
    email: (to, e, config) =>
      promotionStoppedEmail(to.email, to.firstName, e.title, e.reason, e.endsAt, e.reason === "account_deleted" ? null : billingUrl(config, e.listingId)),
  },
  // A deal's steps: no setting silences them (a party must hear that a deal it is in moved).
  deal_update: { transactional: false, preference: null, email: (to, e, config) => dealUpdateEmail(to.email, to.firstName, e.subject, e.lines, dealUrl(config, e.dealId)) },
  deal_sign_code: { transactional: true, email: (to, e) => dealSignCodeEmail(to.email, to.firstName, e.title, e.code) },
  deal_signed: { transactional: true, email: (to, e, config) => dealSignedEmail(to.email, to.firstName, e.title, e.sha256, dealUrl(config, e.dealId)) },
  landlord_consent_request: {
    transactional: true,
    email: (to, e) => landlordConsentEmail(to.email, e.landlordName, e.tenantName, e.subtenantName, e.address, e.term, e.url),
  },
};

/** The event's email (its kind's template). */
export const emailOf = (to: Addressee, event: NotifyEvent, config: Config): EmailMessage =>
  (EVENTS[event.kind].email as (to: Addressee, e: NotifyEvent, c: Config) => EmailMessage)(to, event, config);

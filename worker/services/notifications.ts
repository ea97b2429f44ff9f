/**
 * Emails about reviews, sent unless the user turned that toggle off. A failure to send is logged
 * and never undoes the review.
 */
import type { Config } from "../env";
import type { Db } from "../db/client";
import { findUserById } from "../db/queries/users";
import { log } from "../lib/log";
import { sendEmail } from "./email";
import { listingReviewEmail, promotionDuplicateRefundedEmail, promotionPaymentFailedEmail, verificationReviewEmail } from "./email-templates";

export async function notifyListingReview(db: Db, env: Env, config: Config, userId: string, title: string, approved: boolean, reason: string | null) {
  const user = await findUserById(db, userId);
  if (!user || !user.emailOnListingReview) return;
  await sendEmail(db, env, config, listingReviewEmail(user.email, user.firstName, title, approved, reason)).catch((err) =>
    log.warn("notification_failed", { kind: "listing_review", message: String(err) }),
  );
}

export async function notifyVerificationReview(db: Db, env: Env, config: Config, userId: string, approved: boolean, reason: string | null) {
  const user = await findUserById(db, userId);
  if (!user || !user.emailOnVerificationReview) return;
  await sendEmail(db, env, config, verificationReviewEmail(user.email, user.firstName, approved, reason)).catch((err) =>
    log.warn("notification_failed", { kind: "verification_review", message: String(err) }),
  );
}

/** A promotion's renewal payment failed: a billing email, sent whatever the toggles say. */
export async function notifyPromotionPaymentFailed(db: Db, env: Env, config: Config, userId: string, title: string, listingId: string) {
  const user = await findUserById(db, userId);
  if (!user) return;
  const url = `${config.publicBaseUrl}/billing?listing_id=${encodeURIComponent(listingId)}`;
  await sendEmail(db, env, config, promotionPaymentFailedEmail(user.email, user.firstName, title, url)).catch((err) =>
    log.warn("notification_failed", { kind: "promotion_payment_failed", message: String(err) }),
  );
}

/** A second paid subscription of one listing was cancelled and refunded: a billing email, sent whatever the toggles say. */
export async function notifyPromotionDuplicateRefunded(db: Db, env: Env, config: Config, userId: string, title: string, listingId: string) {
  const user = await findUserById(db, userId);
  if (!user) return;
  const url = `${config.publicBaseUrl}/billing?listing_id=${encodeURIComponent(listingId)}`;
  await sendEmail(db, env, config, promotionDuplicateRefundedEmail(user.email, user.firstName, title, url)).catch((err) =>
    log.warn("notification_failed", { kind: "promotion_duplicate_refunded", message: String(err) }),
  );
}

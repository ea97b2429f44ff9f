/**
 * The signed-in user's profile, preferences, notification toggles, avatar and account deletion,
 * and the public view of any user.
 */
import { avatarSchema, notificationsSchema, preferencesSchema, profileUpdateSchema, type UserStatsResponse } from "../../contract/profile";
import type { OwnerListingsResponse } from "../../contract/listings";
import type { PromotedListingsResponse } from "../../contract/promotions";
import {
  schoolEmailCodeSchema,
  schoolEmailSchema,
  type AvatarResponse,
  type NotificationSettingsResponse,
  type PreferencesResponse,
  type ProfileResponse,
  type PublicUserResponse,
  type SchoolEmailVerifiedResponse,
} from "../../contract/users";
import { listingsOfUser } from "../../db/queries/listings";
import { findUserById, toPrivateUser, toPublicUser, updatePreferences, updateUser, userStats } from "../../db/queries/users";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";
import { decodeCursor } from "../../lib/cursor";
import { optionalUserId } from "../../middleware/optional-user";
import { reviewCursorSchema, userReviewsQuerySchema, type UserReviewsResponse } from "../../contract/reviews";
import { reviewsOfUserPage } from "../../services/deals/reviews";
import { requireUser } from "../../middleware/auth";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { deleteAccount } from "../../services/accounts";
import { replaceAvatar, updateProfile } from "../../services/profile";
import { promotedListingsWithState } from "../../services/promotions";
import { checkUniversity } from "../../services/universities";
import { responseTimeOf } from "../../services/response-time";
import { requestSchoolEmailCode, verifySchoolEmail } from "../../services/school-email";

export const usersRoutes = createRouter()
  .get("/profile", async (c) => c.json<ProfileResponse>({ data: toPrivateUser(await requireUser(c)) }))

  .patch("/profile", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, profileUpdateSchema);
    const db = c.var.db;
    await updateProfile(db, user, body);
    return c.json<ProfileResponse>({ data: toPrivateUser((await findUserById(db, user.id))!) });
  })

  .delete("/profile", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await deleteAccount(c.var.db, c.env, user);
    return c.body(null, 204);
  })

  .get("/stats", async (c) => {
    const user = await requireUser(c);
    return c.json<UserStatsResponse>({ data: await userStats(c.var.db, user.id) });
  })

  .get("/preferences", async (c) => {
    const user = await requireUser(c);
    return c.json<PreferencesResponse>({ data: { preferred_university_id: user.preferredUniversityId, preferred_term: user.preferredTerm } });
  })

  .patch("/preferences", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, preferencesSchema);
    const db = c.var.db;
    await checkUniversity(db, body.preferred_university_id, "preferred_university_id");
    const row = await updatePreferences(db, user.id, {
      ...(body.preferred_university_id !== undefined && { preferredUniversityId: body.preferred_university_id }),
      ...(body.preferred_term !== undefined && { preferredTerm: body.preferred_term }),
    });
    return c.json<PreferencesResponse>({ data: { preferred_university_id: row.preferredUniversityId, preferred_term: row.preferredTerm } });
  })

  .get("/notifications", async (c) => c.json<NotificationSettingsResponse>({ data: toPrivateUser(await requireUser(c)).notification_settings }))

  .patch("/notifications", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, notificationsSchema);
    const db = c.var.db;
    // The older booleans are the `email` of their kind; the per-kind form wins when both are sent.
    await updateUser(db, user.id, {
      ...(body.email_on_message !== undefined && { emailOnMessage: body.email_on_message }),
      ...(body.email_on_listing_review !== undefined && { emailOnListingReview: body.email_on_listing_review }),
      ...(body.email_on_verification_review !== undefined && { emailOnVerificationReview: body.email_on_verification_review }),
      ...(body.email_on_saved_search !== undefined && { emailOnSavedSearch: body.email_on_saved_search }),
      ...(body.messages?.push !== undefined && { pushOnMessage: body.messages.push }),
      ...(body.messages?.email !== undefined && { emailOnMessage: body.messages.email }),
      ...(body.deals?.push !== undefined && { pushOnDeal: body.deals.push }),
      ...(body.deals?.email !== undefined && { emailOnDeal: body.deals.email }),
      ...(body.saved_searches?.push !== undefined && { pushOnSavedSearch: body.saved_searches.push }),
      ...(body.saved_searches?.email !== undefined && { emailOnSavedSearch: body.saved_searches.email }),
      ...(body.reviews?.push !== undefined && { pushOnReview: body.reviews.push }),
      ...(body.reviews?.email !== undefined && { emailOnListingReview: body.reviews.email, emailOnVerificationReview: body.reviews.email }),
      ...(body.quiet_hours !== undefined && { quietHours: body.quiet_hours === null ? null : JSON.stringify(body.quiet_hours) }),
    });
    return c.json<NotificationSettingsResponse>({ data: toPrivateUser((await findUserById(db, user.id))!).notification_settings });
  })

  .post("/avatar-base64", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { image_data } = await parseJson(c, avatarSchema);
    return c.json<AvatarResponse>({ avatar_url: await replaceAvatar(c.var.db, c.env, user, image_data) });
  })

  .get("/listings", async (c) => {
    const user = await requireUser(c);
    const includeUnavailable = c.req.query("include_unavailable") === "true";
    return c.json<OwnerListingsResponse>({ data: await listingsOfUser(c.var.db, user.id, includeUnavailable) });
  })

  .get("/promoted-listings", async (c) => {
    const user = await requireUser(c);
    return c.json<PromotedListingsResponse>({ data: await promotedListingsWithState(c.var.db, user.id) });
  })

  .post("/school-email", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { email } = await parseJson(c, schoolEmailSchema);
    await requestSchoolEmailCode(c.var.db, c.env, c.var.config, user, email, addressKey(clientIp(c)));
    return c.json({ detail: "We sent a 6-digit code to your school email." });
  })

  .post("/school-email/verify", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { code } = await parseJson(c, schoolEmailCodeSchema);
    return c.json<SchoolEmailVerifiedResponse>({ data: await verifySchoolEmail(c.var.db, c.var.config, user, code, addressKey(clientIp(c))) });
  })

  // Reviews of a user (docs/decisions/040): public; the caller's own before the reveal too.
  .get("/:id/reviews", async (c) => {
    const { limit, last_evaluated_key, role } = parseQuery(c, userReviewsQuerySchema);
    const page = await reviewsOfUserPage(c.var.db, c.req.param("id"), await optionalUserId(c), role ?? null, limit, decodeCursor(last_evaluated_key, reviewCursorSchema));
    if (!page) throw notFound("User not found");
    return c.json<UserReviewsResponse>(page);
  })

  .get("/:id", async (c) => {
    const user = await findUserById(c.var.db, c.req.param("id"));
    if (!user) throw notFound("User not found");
    return c.json<PublicUserResponse>({ data: { ...toPublicUser(user), response_time: await responseTimeOf(c.var.db, user.id) } });
  });

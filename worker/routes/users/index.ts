/**
 * The signed-in user's profile, preferences, notification toggles, avatar and account deletion,
 * and the public view of any user.
 */
import { and, count, eq, isNull, ne, or } from "drizzle-orm";
import { LIMITS } from "../../contract/constants";
import { avatarSchema, notificationsSchema, preferencesSchema, profileUpdateSchema, type UserStats } from "../../contract/profile";
import { createDb, type Db } from "../../db/client";
import { findUserById, imageUrl, toPrivateUser, toPublicUser } from "../../db/queries/users";
import { conversations, favorites, listings, messages, universities, users } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { apiError, badRequest, notFound, validationFailed } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { stripMetadata } from "../../services/images";
import { decodeDataUrl, decodedSize, detectFileType } from "../../services/files";
import { deleteObjects, putImage } from "../../services/storage";
import { deleteAccount } from "../../services/accounts";
import { LISTING_COLUMNS, LISTING_FROM, rowsToListings, type ListingRow } from "../../db/queries/listings";

async function assertUniversity(db: Db, id: number | null | undefined, path: string) {
  if (id === null || id === undefined) return;
  const row = await db.select({ id: universities.id }).from(universities).where(eq(universities.id, id)).get();
  if (!row) throw validationFailed([{ path, message: "Please choose a university from the list" }]);
}

export const usersRoutes = createRouter()
  .get("/profile", async (c) => c.json({ data: toPrivateUser(await requireUser(c)) }))

  .patch("/profile", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, profileUpdateSchema);
    const db = createDb(c.env);
    await assertUniversity(db, body.university_id, "university_id");
    await db
      .update(users)
      .set({
        ...(body.first_name !== undefined && { firstName: body.first_name }),
        ...(body.last_name !== undefined && { lastName: body.last_name }),
        ...(body.phone !== undefined && { phone: body.phone || null }),
        ...(body.university_id !== undefined && { universityId: body.university_id }),
        updatedAt: isoNow(),
      })
      .where(eq(users.id, user.id));
    return c.json({ data: toPrivateUser((await findUserById(db, user.id))!) });
  })

  .delete("/profile", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await deleteAccount(c.env, user);
    return c.body(null, 204);
  })

  .get("/stats", async (c) => {
    const user = await requireUser(c);
    const db = createDb(c.env);
    const mine = or(eq(conversations.userA, user.id), eq(conversations.userB, user.id));
    const [[l], [f], [conv], [unread]] = await db.batch([
      db.select({ n: count() }).from(listings).where(eq(listings.userId, user.id)),
      db.select({ n: count() }).from(favorites).where(eq(favorites.userId, user.id)),
      db.select({ n: count() }).from(conversations).where(mine),
      db
        .select({ n: count() })
        .from(messages)
        .innerJoin(conversations, eq(messages.conversationId, conversations.id))
        .where(and(mine, ne(messages.senderId, user.id), isNull(messages.readAt))),
    ]);
    const data: UserStats = {
      listings: l?.n ?? 0,
      favorites: f?.n ?? 0,
      conversations: conv?.n ?? 0,
      unread_messages: unread?.n ?? 0,
    };
    return c.json({ data });
  })

  .get("/preferences", async (c) => {
    const user = await requireUser(c);
    return c.json({ data: { preferred_university_id: user.preferredUniversityId, preferred_term: user.preferredTerm } });
  })

  .patch("/preferences", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, preferencesSchema);
    const db = createDb(c.env);
    await assertUniversity(db, body.preferred_university_id, "preferred_university_id");
    const [row] = await db
      .update(users)
      .set({
        ...(body.preferred_university_id !== undefined && { preferredUniversityId: body.preferred_university_id }),
        ...(body.preferred_term !== undefined && { preferredTerm: body.preferred_term }),
        updatedAt: isoNow(),
      })
      .where(eq(users.id, user.id))
      .returning({ preferredUniversityId: users.preferredUniversityId, preferredTerm: users.preferredTerm });
    return c.json({ data: { preferred_university_id: row!.preferredUniversityId, preferred_term: row!.preferredTerm } });
  })

  .get("/notifications", async (c) => c.json({ data: toPrivateUser(await requireUser(c)).notification_settings }))

  .patch("/notifications", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, notificationsSchema);
    const db = createDb(c.env);
    await db
      .update(users)
      .set({
        ...(body.email_on_message !== undefined && { emailOnMessage: body.email_on_message }),
        ...(body.email_on_listing_review !== undefined && { emailOnListingReview: body.email_on_listing_review }),
        ...(body.email_on_verification_review !== undefined && {
          emailOnVerificationReview: body.email_on_verification_review,
        }),
        updatedAt: isoNow(),
      })
      .where(eq(users.id, user.id));
    return c.json({ data: toPrivateUser((await findUserById(db, user.id))!).notification_settings });
  })

  .post("/avatar-base64", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const { image_data } = await parseJson(c, avatarSchema);
    if (decodedSize(image_data) > LIMITS.avatarMaxBytes) throw apiError(413, { detail: "File size must be less than 10MB" });
    const bytes = decodeDataUrl(image_data);
    if (!bytes || bytes.length === 0) throw badRequest("Please select an image file");
    const type = detectFileType(bytes);
    if (!type || type === "application/pdf") throw badRequest("Please select an image file");
    // Avatars are public: no GPS or camera data may ride along, and a file we cannot clean is refused.
    const clean = stripMetadata(bytes, type);
    if (!clean) throw validationFailed([{ path: "image_data", message: "This image is damaged or could not be read. Please choose another photo." }]);
    const key = await putImage(c.env, "avatars", clean, type);
    await createDb(c.env).update(users).set({ avatarKey: key, updatedAt: isoNow() }).where(eq(users.id, user.id));
    await deleteObjects(c.env.IMAGES, [user.avatarKey]);
    return c.json({ avatar_url: imageUrl(key) });
  })

  .get("/listings", async (c) => {
    const user = await requireUser(c);
    const includeUnavailable = c.req.query("include_unavailable") === "true";
    const { results } = await c.env.DB.prepare(
      `SELECT ${LISTING_COLUMNS} FROM ${LISTING_FROM} WHERE l.user_id = ?${includeUnavailable ? "" : " AND l.status = 'available'"}
       ORDER BY l.created_at DESC, l.id DESC LIMIT 200`,
    )
      .bind(user.id)
      .all<ListingRow>();
    return c.json({ data: await rowsToListings(c.env.DB, results) });
  })

  .get("/promoted-listings", async (c) => {
    const user = await requireUser(c);
    const { results } = await c.env.DB.prepare(
      `SELECT ${LISTING_COLUMNS} FROM ${LISTING_FROM} WHERE l.user_id = ? AND l.promotion_end IS NOT NULL
       ORDER BY l.promotion_end DESC LIMIT 200`,
    )
      .bind(user.id)
      .all<ListingRow>();
    return c.json({ data: await rowsToListings(c.env.DB, results) });
  })

  .get("/:id", async (c) => {
    const user = await findUserById(createDb(c.env), c.req.param("id"));
    if (!user) throw notFound("User not found");
    return c.json({ data: toPublicUser(user) });
  });


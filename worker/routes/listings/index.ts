/**
 * Subleases: browse (filters, sorts, full-text search, keyset pages), detail with the contract's
 * visibility rules, create (exactly verified users), edit with re-review, delete with photos.
 */
import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { browseQuerySchema, listingInputSchema, listingPatchSchema, type Listing, type Pagination } from "../../contract/listings";
import { createDb, type Db } from "../../db/client";
import { browseCursorSchema, browseListings, findListingRow, rowsToListings, type ListingRow } from "../../db/queries/listings";
import { decodeCursor } from "../../lib/cursor";
import { listingPhotos, listings, universities } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { apiError, forbidden, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { optionalUserId } from "../../middleware/optional-user";
import { enforceLimit } from "../../middleware/rate-limit";
import { deleteObjects } from "../../services/storage";

const NOT_FOUND = "Listing not found";

/** Public listings are approved, available and not hidden by staff; everything else only its owner sees. */
export function isPublic(row: Pick<ListingRow, "verification_status" | "status" | "moderation_status">) {
  return row.verification_status === "approved" && row.status === "available" && row.moderation_status === "visible";
}

const keyOf = (url: string) => url.replace(/^\/api\/v1\/images\//, "");
const thumbKeyOf = (key: string) => key.replace(/\.(jpg|png|webp|gif)$/, ".thumb.jpg");

/** Checks that every photo was uploaded by this user (keys carry the uploader's id) and exists. */
async function checkPictures(env: Env, userId: string, pictures: string[], alreadyAttached: Set<string>) {
  const keys = pictures.map(keyOf);
  for (const key of keys) {
    if (alreadyAttached.has(key)) continue;
    if (!key.startsWith(`listings/${userId}_`) || !(await env.IMAGES.head(key))) {
      throw validationFailed([{ path: "pictures", message: "Photos must be uploaded to CampusNest first" }]);
    }
  }
  const thumbs = await Promise.all(keys.map(async (key) => ((await env.IMAGES.head(thumbKeyOf(key))) ? thumbKeyOf(key) : null)));
  return keys.map((key, position) => ({ key, thumbKey: thumbs[position] ?? null, position }));
}

async function checkUniversity(db: Db, id: number) {
  const row = await db.select({ id: universities.id }).from(universities).where(eq(universities.id, id)).get();
  if (!row) throw validationFailed([{ path: "university_id", message: "Please choose a university from the list" }]);
}

async function loadListing(env: Env, id: string): Promise<Listing> {
  const row = await findListingRow(env.DB, id);
  const [listing] = await rowsToListings(env.DB, [row!]);
  return listing!;
}

export const listingsRoutes = createRouter()
  .get("/", async (c) => {
    const query = parseQuery(c, browseQuerySchema);
    const cursor = decodeCursor(query.last_evaluated_key, browseCursorSchema);
    const result = await browseListings(c.env.DB, query, cursor);
    const pagination: Pagination = { next_token: result.nextToken, has_more: result.nextToken !== null };
    c.header("X-Rows-Read", String(result.rowsRead));
    return c.json({ data: result.listings, pagination, meta: { rows_read: result.rowsRead } });
  })

  .get("/:id", async (c) => {
    const row = await findListingRow(c.env.DB, c.req.param("id"));
    if (!row) throw notFound(NOT_FOUND);
    if (!isPublic(row) && (await optionalUserId(c)) !== row.user_id) throw notFound(NOT_FOUND);
    const [listing] = await rowsToListings(c.env.DB, [row]);
    return c.json({ data: listing });
  })

  .post("/", async (c) => {
    const user = await requireUser(c);
    if (user.idVerificationStatus !== "verified") throw forbidden("You must be verified to create a listing");
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const input = await parseJson(c, listingInputSchema);
    const db = createDb(c.env);
    await checkUniversity(db, input.university_id);
    const photos = await checkPictures(c.env, user.id, input.pictures, new Set());
    const id = newId();
    const now = isoNow();
    await db.batch([
      db.insert(listings).values({
        id,
        userId: user.id,
        universityId: input.university_id,
        title: input.title,
        description: input.description,
        unitType: input.unit_type,
        address: input.address,
        monthlyRent: input.monthly_rent,
        leaseTerm: input.lease_term,
        parking: input.parking,
        allowPets: input.allow_pets,
        genderPreference: input.gender_preference,
        verificationStatus: "pending",
        status: "available",
        createdAt: now,
      }),
      ...photos.map((p) => db.insert(listingPhotos).values({ id: newId(), listingId: id, ...p })),
    ]);
    return c.json({ id, data: await loadListing(c.env, id) }, 201);
  })

  .patch("/:id", async (c) => {
    const user = await requireUser(c);
    const row = await findListingRow(c.env.DB, c.req.param("id"));
    if (!row || (!isPublic(row) && row.user_id !== user.id)) throw notFound(NOT_FOUND);
    if (row.user_id !== user.id) throw forbidden("You are not authorized to edit this listing.");
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const input = await parseJson(c, listingPatchSchema);
    const db = createDb(c.env);
    if (input.university_id !== undefined) await checkUniversity(db, input.university_id);
    const current = await db.select().from(listingPhotos).where(eq(listingPhotos.listingId, row.id)).orderBy(listingPhotos.position);
    const attached = new Set(current.map((p) => p.key));
    const photos = input.pictures ? await checkPictures(c.env, user.id, input.pictures, attached) : null;
    const picturesChanged = !!photos && photos.map((p) => p.key).join() !== current.map((p) => p.key).join();
    // A change people could be misled by sends an approved listing back to review.
    const contentChanged =
      (input.title !== undefined && input.title !== row.title) ||
      (input.description !== undefined && input.description !== row.description) ||
      (input.address !== undefined && input.address !== row.address) ||
      picturesChanged;
    // A rejected listing goes back to review on any edit but its availability alone: the rejection
    // email promises that saving the fixed listing sends it to the team again.
    const detailsEdited = Object.keys(input).some((field) => field !== "status");
    const backToReview =
      (contentChanged && row.verification_status === "approved") || (detailsEdited && row.verification_status === "rejected");
    const statements: BatchItem<"sqlite">[] = [
      db
        .update(listings)
        .set({
          ...(input.title !== undefined && { title: input.title }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.unit_type !== undefined && { unitType: input.unit_type }),
          ...(input.monthly_rent !== undefined && { monthlyRent: input.monthly_rent }),
          ...(input.address !== undefined && { address: input.address }),
          ...(input.lease_term !== undefined && { leaseTerm: input.lease_term }),
          ...(input.university_id !== undefined && { universityId: input.university_id }),
          ...(input.parking !== undefined && { parking: input.parking }),
          ...(input.allow_pets !== undefined && { allowPets: input.allow_pets }),
          ...(input.gender_preference !== undefined && { genderPreference: input.gender_preference }),
          ...(input.status !== undefined && { status: input.status }),
          ...(backToReview && { verificationStatus: "pending", rejectionReason: null }),
          updatedAt: isoNow(),
        })
        .where(eq(listings.id, row.id)),
    ];
    const removedKeys: string[] = [];
    if (photos && picturesChanged) {
      const keep = new Set(photos.map((p) => p.key));
      for (const p of current) if (!keep.has(p.key)) removedKeys.push(p.key, ...(p.thumbKey ? [p.thumbKey] : []));
      statements.push(
        db.delete(listingPhotos).where(eq(listingPhotos.listingId, row.id)),
        ...photos.map((p) => db.insert(listingPhotos).values({ id: newId(), listingId: row.id, ...p })),
      );
    }
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    await deleteObjects(c.env.IMAGES, await unreferencedKeys(c.env.DB, removedKeys));
    return c.json({ data: await loadListing(c.env, row.id) });
  })

  .delete("/:id", async (c) => {
    const user = await requireUser(c);
    const row = await findListingRow(c.env.DB, c.req.param("id"));
    if (!row) throw notFound(NOT_FOUND);
    if (row.user_id !== user.id) {
      throw isPublic(row) ? apiError(403, { detail: "You are not authorized to delete this listing." }) : notFound(NOT_FOUND);
    }
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    await deleteListing(c.env, row.id);
    return c.body(null, 204);
  });

/** Deletes a listing (photos, favourites by cascade) and then its files. Shared with admin tools. */
export async function deleteListing(env: Env, id: string) {
  const db = createDb(env);
  const photos = await db.select({ key: listingPhotos.key, thumbKey: listingPhotos.thumbKey }).from(listingPhotos).where(eq(listingPhotos.listingId, id));
  await db.delete(listings).where(eq(listings.id, id));
  await deleteObjects(env.IMAGES, await unreferencedKeys(env.DB, photos.flatMap((p) => [p.key, p.thumbKey])));
}

/** Of these photo keys, the ones no listing uses any more (demo listings share photos). */
export async function unreferencedKeys(db: D1Database, keys: (string | null)[]): Promise<string[]> {
  const list = keys.filter((k): k is string => !!k);
  if (!list.length) return [];
  const { results } = await db
    .prepare(
      `SELECT key FROM listing_photos WHERE key IN (SELECT value FROM json_each(?1))
       UNION SELECT thumb_key FROM listing_photos WHERE thumb_key IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(list))
    .all<{ key: string }>();
  const used = new Set(results.map((r) => r.key));
  return list.filter((k) => !used.has(k));
}


/** The signed-in user's own profile: edits that need checks beyond the input schema, and the avatar. */
import { LIMITS, megabytes } from "../contract/limits";
import type { ProfileUpdate } from "../contract/profile";
import type { Db } from "../db/client";
import { updateUser, type UserRow } from "../db/queries/users";
import { insertRequest, latestRequestOf } from "../db/queries/verification";
import { isIdVerified } from "../contract/policies";
import { newId } from "../lib/ids";
import { imageUrl } from "../lib/image-url";
import { apiError, badRequest, validationFailed } from "../lib/errors";
import { decodeDataUrl, decodedSize, detectFileType } from "./files";
import { imagePixelsProblem, stripMetadata } from "./images";
import { checkUniversity } from "./universities";
import { deleteImages, putImage } from "./storage";

/**
 * Edits the profile. A verified user who changes their first or last name goes back to identity review
 * (docs/decisions/026): the legal name a deal's agreement uses is the one verified, so a new name must
 * be checked against the document. The user becomes `pending` with a new request that carries the last
 * document reviewed (staff compare it with the new name); the legal name stays the verified one until
 * staff approve (the database records the new one then), and signing waits meanwhile.
 */
export async function updateProfile(db: Db, user: Pick<UserRow, "id" | "firstName" | "lastName" | "idVerificationStatus">, body: ProfileUpdate) {
  await checkUniversity(db, body.university_id);
  const renamed =
    isIdVerified({ id_verification_status: user.idVerificationStatus }) &&
    ((body.first_name !== undefined && body.first_name !== user.firstName) || (body.last_name !== undefined && body.last_name !== user.lastName));
  const update = updateUser(db, user.id, {
    ...(body.first_name !== undefined && { firstName: body.first_name }),
    ...(body.last_name !== undefined && { lastName: body.last_name }),
    ...(body.phone !== undefined && { phone: body.phone || null }),
    ...(body.university_id !== undefined && { universityId: body.university_id }),
    ...(renamed && { idVerificationStatus: "pending" }),
  });
  if (!renamed) {
    await update;
    return;
  }
  const last = await latestRequestOf(db, user.id);
  const name = `${body.first_name ?? user.firstName} ${body.last_name ?? user.lastName}`;
  await db.batch([
    update,
    insertRequest(db, {
      id: newId(),
      userId: user.id,
      documentType: last?.documentType ?? "other",
      documentKey: last?.documentKey ?? null,
      notes: `Name changed after verification, from "${user.firstName} ${user.lastName}" to "${name}": check the document shows the new name.`,
      status: "pending",
    }),
  ]);
}

/** Stores a new avatar (checked from its bytes, metadata stripped) and deletes the old one; returns its URL. */
export async function replaceAvatar(db: Db, env: Env, user: Pick<UserRow, "id" | "avatarKey">, imageData: string) {
  if (decodedSize(imageData) > LIMITS.avatarMaxBytes) throw apiError(413, { detail: `File size must be less than ${megabytes(LIMITS.avatarMaxBytes)}` });
  const bytes = decodeDataUrl(imageData);
  if (!bytes || bytes.length === 0) throw badRequest("Please select an image file");
  const type = detectFileType(bytes);
  if (!type || type === "application/pdf") throw badRequest("Please select an image file");
  const pixels = imagePixelsProblem(bytes, "This image");
  if (pixels) throw validationFailed([{ path: "image_data", message: pixels.reason === "too_large" ? pixels.message : "This image is damaged or could not be read. Please choose another photo." }]);
  // Avatars are public: no GPS or camera data may ride along, and a file we cannot clean is refused.
  const clean = stripMetadata(bytes, type);
  if (!clean) throw validationFailed([{ path: "image_data", message: "This image is damaged or could not be read. Please choose another photo." }]);
  const key = await putImage(env, "avatars", clean, type);
  await updateUser(db, user.id, { avatarKey: key });
  await deleteImages(env.IMAGES, [user.avatarKey]);
  return imageUrl(key);
}

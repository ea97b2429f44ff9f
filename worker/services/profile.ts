/** The signed-in user's own profile: edits that need checks beyond the input schema, and the avatar. */
import { LIMITS, megabytes } from "../contract/constants";
import type { ProfileUpdate } from "../contract/profile";
import type { Db } from "../db/client";
import { updateUser, type UserRow } from "../db/queries/users";
import { imageUrl } from "../lib/image-url";
import { apiError, badRequest, validationFailed } from "../lib/errors";
import { decodeDataUrl, decodedSize, detectFileType } from "./files";
import { stripMetadata } from "./images";
import { checkUniversity } from "./universities";
import { deleteImages, putImage } from "./storage";

export async function updateProfile(db: Db, userId: string, body: ProfileUpdate) {
  await checkUniversity(db, body.university_id);
  await updateUser(db, userId, {
    ...(body.first_name !== undefined && { firstName: body.first_name }),
    ...(body.last_name !== undefined && { lastName: body.last_name }),
    ...(body.phone !== undefined && { phone: body.phone || null }),
    ...(body.university_id !== undefined && { universityId: body.university_id }),
  });
}

/** Stores a new avatar (checked from its bytes, metadata stripped) and deletes the old one; returns its URL. */
export async function replaceAvatar(db: Db, env: Env, user: Pick<UserRow, "id" | "avatarKey">, imageData: string) {
  if (decodedSize(imageData) > LIMITS.avatarMaxBytes) throw apiError(413, { detail: `File size must be less than ${megabytes(LIMITS.avatarMaxBytes)}` });
  const bytes = decodeDataUrl(imageData);
  if (!bytes || bytes.length === 0) throw badRequest("Please select an image file");
  const type = detectFileType(bytes);
  if (!type || type === "application/pdf") throw badRequest("Please select an image file");
  // Avatars are public: no GPS or camera data may ride along, and a file we cannot clean is refused.
  const clean = stripMetadata(bytes, type);
  if (!clean) throw validationFailed([{ path: "image_data", message: "This image is damaged or could not be read. Please choose another photo." }]);
  const key = await putImage(env, "avatars", clean, type);
  await updateUser(db, user.id, { avatarKey: key });
  await deleteImages(env.IMAGES, [user.avatarKey]);
  return imageUrl(key);
}

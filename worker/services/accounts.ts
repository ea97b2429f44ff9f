import { createDb } from "../db/client";
import { photoKeysOfUser } from "../db/queries/listings";
import { deleteUserRow } from "../db/queries/users";
import { unreferencedKeys } from "./listings";
import { deleteObjects, deletePrefix } from "./storage";

/**
 * Deletes an account: one statement whose foreign keys cascade to listings, photos, favourites,
 * refresh tokens and verification requests; then the files (photos no other listing uses, the
 * avatar, and every identity document under the user's prefix). Messages the user sent stay
 * (sender_id is not a foreign key) and show as from a deleted user. Used by the user and by admins.
 */
export async function deleteAccount(env: Env, user: { id: string; avatarKey: string | null }) {
  const db = createDb(env);
  const photos = await photoKeysOfUser(db, user.id);
  await deleteUserRow(db, user.id);
  await deleteObjects(env.IMAGES, [user.avatarKey, ...(await unreferencedKeys(env.DB, photos.flatMap((p) => [p.key, p.thumbKey])))]);
  // Every identity document the user ever uploaded (submitted, rejected or never submitted).
  await deletePrefix(env.ID_DOCUMENTS, `documents/${user.id}/`);
}

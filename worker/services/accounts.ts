import type { Db } from "../db/client";
import { listingsOfUser, photoKeysOfUser } from "../db/queries/listings";
import { purgeListingCache } from "./edge-cache";
import { unreferencedKeys } from "./listings";
import { deleteAfterStoppingSubscriptions } from "./promotions";
import { closeSocketsOfUser, conversationIdsOfUser } from "./messaging";
import { deleteImages, deletePrefix } from "./storage";
import { cancelOpenDeals } from "./deals";
import { refuseDeletionWhileMoneyHeld } from "./payments";
import { keepNamesOfDeletedParty } from "../db/queries/deals";
import { DEAL_REASONS } from "../contract/deals";

/**
 * Deletes an account: one statement whose foreign keys cascade to listings, photos, favourites,
 * refresh tokens and verification requests; then the files (photos no other listing uses, the
 * avatar, and every identity document under the user's prefix). Messages the user sent stay
 * (sender_id is not a foreign key) and show as from a deleted user; the user's room sockets are
 * closed. Used by the user and by admins.
 */
export async function deleteAccount(db: Db, env: Env, user: { id: string; avatarKey: string | null }) {
  // Money held for a deal of the account (either side) must be settled first (409; docs/decisions/029).
  await refuseDeletionWhileMoneyHeld(db, { userId: user.id });
  // Its open unpaid deals end first, with a reason the other party is told (docs/decisions/026).
  await cancelOpenDeals(db, env, { userId: user.id }, DEAL_REASONS.accountDeleted);
  // The other party's records keep the names their agreements hold (docs/decisions/041).
  await keepNamesOfDeletedParty(db, user.id);
  const photos = await photoKeysOfUser(db, user.id);
  const listingIds = (await listingsOfUser(db, user.id, true)).map((l) => l.id);
  const conversationIds = await conversationIdsOfUser(db, user.id);
  // Its subscriptions are cancelled at Stripe first, and none can become live before the rows are gone.
  await deleteAfterStoppingSubscriptions(db, env, { userId: user.id });
  await purgeListingCache(listingIds, db);
  // Their open sockets end now (inbox and conversation rooms); the other person's stay open.
  await closeSocketsOfUser(env, user.id, conversationIds);
  await deleteImages(env.IMAGES, [user.avatarKey, ...(await unreferencedKeys(db, photos.flatMap((p) => [p.key, p.thumbKey])))]);
  // Every identity document the user ever uploaded (submitted, rejected or never submitted).
  await deletePrefix(env.ID_DOCUMENTS, `documents/${user.id}/`);
}

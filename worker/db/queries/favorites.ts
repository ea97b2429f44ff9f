import { and, desc, eq, sql } from "drizzle-orm";
import type { Favorite } from "../../contract/listings";
import type { Db } from "../client";
import { favorites } from "../schema";

/** Up to `limit` favourites of a user after the cursor, newest first, on the (user_id, created_at) index. */
export const favoritesPage = (db: Db, userId: string, cursor: { c: string; id: string } | null, limit: number): Promise<Favorite[]> =>
  db
    .select({ listing_id: favorites.listingId, created_at: favorites.createdAt })
    .from(favorites)
    .where(and(eq(favorites.userId, userId), cursor ? sql`(${favorites.createdAt}, ${favorites.listingId}) < (${cursor.c}, ${cursor.id})` : undefined))
    .orderBy(desc(favorites.createdAt), desc(favorites.listingId))
    .limit(limit);

/** True when the favourite is new (adding one already there changes nothing). */
export async function addFavorite(db: Db, userId: string, listingId: string): Promise<boolean> {
  const inserted = await db.insert(favorites).values({ userId, listingId }).onConflictDoNothing().returning({ id: favorites.listingId });
  return inserted.length > 0;
}

export const removeFavorite = (db: Db, userId: string, listingId: string) =>
  db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.listingId, listingId)));

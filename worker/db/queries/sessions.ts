/** Refresh tokens: the statements behind services/sessions.ts (a token is stored only as its SHA-256). */
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../client";
import { refreshTokens } from "../schema";

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

export const insertRefreshToken = (db: Db, values: typeof refreshTokens.$inferInsert) => db.insert(refreshTokens).values(values);

export const findRefreshTokenByHash = (db: Db, tokenHash: string) => db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).get();

export const findRefreshToken = (db: Db, id: string) => db.select().from(refreshTokens).where(eq(refreshTokens.id, id)).get();

/**
 * One rotation as one batch: the guarded update marks the presented token rotated (of two racing
 * requests only one changes a row; revoked_at too, so a reset or sign-out landing first wins), and
 * the successor is inserted only if this request's update is the one that landed (its `successor`
 * seal is unique). The first result's `meta.changes` says whether this request won.
 */
export function rotateRefreshToken(
  db: Db,
  presented: RefreshTokenRow,
  successor: { id: string; tokenHash: string; expiresAt: string; familyExpiresAt: string; sealed: string },
  nowIso: string,
) {
  const d1 = db.$client;
  return d1.batch([
    d1.prepare("UPDATE refresh_tokens SET rotated_at = ?, successor = ? WHERE id = ? AND rotated_at IS NULL AND revoked_at IS NULL").bind(nowIso, successor.sealed, presented.id),
    d1
      .prepare(
        `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, family_expires_at, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM refresh_tokens WHERE id = ? AND successor = ?)`,
      )
      .bind(successor.id, presented.userId, presented.familyId, successor.tokenHash, successor.expiresAt, successor.familyExpiresAt, nowIso, presented.id, successor.sealed),
  ]);
}

/** Every live token of a sign-in ends (sign-out, a rotated token presented after its grace window). */
export const revokeRefreshTokenFamily = (db: Db, familyId: string, nowIso: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: nowIso })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));

/** Every live token of a user ends (password reset, Google taking over an unverified account; the caller bumps the token version in the same batch, so access tokens end too). */
export const revokeRefreshTokensOfUser = (db: Db, userId: string, nowIso: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: nowIso })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));

/** The cron's statement (for its db.batch): refresh tokens expired or revoked are of no further use. */
export const deleteDeadRefreshTokens = (db: Db, nowIso: string) =>
  db.delete(refreshTokens).where(or(lt(refreshTokens.expiresAt, nowIso), isNotNull(refreshTokens.revokedAt)));

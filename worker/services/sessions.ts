/**
 * Sessions: a short-lived access token (JWT) plus a rotating refresh token. Refresh tokens are
 * random, stored only as SHA-256 hashes, grouped in a family per sign-in; presenting a token that
 * was already rotated means it leaked, so the whole family is revoked.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { AuthResponse } from "../contract/auth";
import type { Config } from "../env";
import type { Db } from "../db/client";
import { findUserById, toPrivateUser } from "../db/queries/users";
import { refreshTokens } from "../db/schema";
import { bytesToBase64Url, sha256Hex } from "../lib/encoding";
import { unauthorized } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoIn, isoNow } from "../lib/time";
import { signAccessToken } from "./tokens";

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const newRefreshToken = () => bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));

async function authResponse(db: Db, config: Config, userId: string, refreshToken: string): Promise<AuthResponse> {
  const user = await findUserById(db, userId);
  if (!user) throw unauthorized("Not authenticated");
  return {
    access_token: await signAccessToken(config.jwtSecret, userId),
    refresh_token: refreshToken,
    token_type: "bearer",
    user: toPrivateUser(user),
  };
}

/** Starts a new session (sign-in, verified email, Google). */
export async function startSession(db: Db, config: Config, userId: string): Promise<AuthResponse> {
  const token = newRefreshToken();
  await db.insert(refreshTokens).values({
    id: newId(),
    userId,
    familyId: newId(),
    tokenHash: await sha256Hex(token),
    expiresAt: isoIn(REFRESH_TOKEN_TTL_MS),
  });
  return authResponse(db, config, userId, token);
}

/** Exchanges a refresh token for a new pair. */
export async function rotateSession(db: Db, config: Config, presented: string): Promise<AuthResponse> {
  const row = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .get();
  if (!row || row.revokedAt || row.expiresAt < isoNow()) throw unauthorized("Session expired. Please sign in again.");
  if (row.rotatedAt) {
    // Reuse of a rotated token: someone else holds this family. End it everywhere.
    await db.update(refreshTokens).set({ revokedAt: isoNow() }).where(eq(refreshTokens.familyId, row.familyId));
    throw unauthorized("Session expired. Please sign in again.");
  }
  const next = newRefreshToken();
  // Guarded update: of two concurrent rotations with the same token only one wins.
  const [rotated] = await db.batch([
    db
      .update(refreshTokens)
      .set({ rotatedAt: isoNow() })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt))),
    db.insert(refreshTokens).values({
      id: newId(),
      userId: row.userId,
      familyId: row.familyId,
      tokenHash: await sha256Hex(next),
      expiresAt: isoIn(REFRESH_TOKEN_TTL_MS),
    }),
  ]);
  if (!rotated.meta.changes) {
    await db.update(refreshTokens).set({ revokedAt: isoNow() }).where(eq(refreshTokens.familyId, row.familyId));
    throw unauthorized("Session expired. Please sign in again.");
  }
  return authResponse(db, config, row.userId, next);
}

/** Sign-out: revokes the presented token's family. */
export async function endSession(db: Db, presented: string): Promise<void> {
  const row = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .get();
  if (row) await db.update(refreshTokens).set({ revokedAt: isoNow() }).where(eq(refreshTokens.familyId, row.familyId));
}

/** Password reset and account changes: every session of the user ends. */
export const revokeAllSessions = (db: Db, userId: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: isoNow() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));

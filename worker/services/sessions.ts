/**
 * Sessions: a short-lived access token (JWT) plus a rotating refresh token. Refresh tokens are
 * random, stored only as SHA-256 hashes, grouped in a family per sign-in that ends 90 days after
 * the sign-in however often it rotates. Presenting a token that was already rotated means it
 * leaked, so the whole family is revoked, except within a 30-second grace window: two tabs that
 * refresh at the same moment both present the same token, and the second gets the same new pair.
 */
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { AuthResponse } from "../contract/auth";
import type { Config } from "../env";
import type { Db } from "../db/client";
import { findUserById, toPrivateUser } from "../db/queries/users";
import { refreshTokens } from "../db/schema";
import { base64ToBytes, bytesToBase64Url, sha256Hex } from "../lib/encoding";
import { apiError, unauthorized } from "../lib/errors";
import { REPORT_TEXTS } from "../contract/reports";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { signAccessToken } from "./tokens";

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_MAX_AGE_MS = 90 * 24 * 60 * 60 * 1000;
export const ROTATION_GRACE_MS = 30_000;

const SESSION_EXPIRED = "Session expired. Please sign in again.";
const suspended = () => apiError(403, { detail: REPORT_TEXTS.suspended, code: "account_suspended" });

const newRefreshToken = () => bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));

interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/**
 * The AES-GCM key that seals a rotated token's successor: derived from the presented token and the
 * server secret, so only the holder of that token (on this server) can open it.
 */
async function successorKey(secret: string, presented: string): Promise<CryptoKey> {
  const hmac = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const raw = await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(`refresh-successor:${presented}`));
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function seal(secret: string, presented: string, pair: TokenPair): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await successorKey(secret, presented), new TextEncoder().encode(JSON.stringify(pair)));
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return btoa(String.fromCharCode(...out));
}

async function unseal(secret: string, presented: string, sealed: string): Promise<TokenPair | null> {
  try {
    const bytes = base64ToBytes(sealed);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.subarray(0, 12) }, await successorKey(secret, presented), bytes.subarray(12));
    return JSON.parse(new TextDecoder().decode(plain)) as TokenPair;
  } catch {
    return null;
  }
}

async function withUser(db: Db, userId: string, pair: TokenPair): Promise<AuthResponse> {
  const user = await findUserById(db, userId);
  if (!user) throw unauthorized("Not authenticated");
  if (user.suspendedAt) throw suspended();
  return { ...pair, token_type: "bearer", user: toPrivateUser(user) };
}

/** The cron's statement (for its db.batch): refresh tokens expired or revoked are of no further use. */
export const deleteDeadRefreshTokens = (db: Db, nowIso: string) =>
  db.delete(refreshTokens).where(or(lt(refreshTokens.expiresAt, nowIso), isNotNull(refreshTokens.revokedAt)));

const revokeFamily = (db: Db, familyId: string) =>
  db.update(refreshTokens).set({ revokedAt: isoNow() }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));

/** Starts a new session (sign-in, verified email, Google). */
export async function startSession(db: Db, config: Config, userId: string, now = Date.now()): Promise<AuthResponse> {
  // A suspended account gets no session (sign-in, Google, a verified email): 403 with the reason.
  const user = await findUserById(db, userId);
  if (user?.suspendedAt) throw suspended();
  const token = newRefreshToken();
  await db.insert(refreshTokens).values({
    id: newId(),
    userId,
    familyId: newId(),
    tokenHash: await sha256Hex(token),
    expiresAt: isoNow(now + REFRESH_TOKEN_TTL_MS),
    familyExpiresAt: isoNow(now + SESSION_MAX_AGE_MS),
  });
  return withUser(db, userId, { access_token: await signAccessToken(config.jwtSecret, userId, undefined, user?.tokenVersion ?? 0), refresh_token: token });
}

/** Exchanges a refresh token for a new pair. */
export async function rotateSession(db: Db, config: Config, presented: string, now = Date.now()): Promise<AuthResponse> {
  const hash = await sha256Hex(presented);
  const row = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hash)).get();
  // A suspended account's tokens were revoked with the suspension; it hears why rather than "expired".
  const user = row ? await findUserById(db, row.userId) : null;
  if (user?.suspendedAt) throw suspended();
  const nowIso = isoNow(now);
  if (!row || row.revokedAt || row.expiresAt <= nowIso) throw unauthorized(SESSION_EXPIRED);
  const familyEnd = row.familyExpiresAt ?? isoNow(Date.parse(row.createdAt) + SESSION_MAX_AGE_MS);
  if (familyEnd <= nowIso) throw unauthorized(SESSION_EXPIRED);
  if (row.rotatedAt) return replayWithinGrace(db, config, row, presented, now);

  const next = newRefreshToken();
  const pair: TokenPair = { access_token: await signAccessToken(config.jwtSecret, row.userId, undefined, user?.tokenVersion ?? 0), refresh_token: next };
  const sealed = await seal(config.jwtSecret, presented, pair);
  const nextExpiry = Math.min(now + REFRESH_TOKEN_TTL_MS, Date.parse(familyEnd));
  // One transaction: the guarded update marks the token rotated (only one of two racing requests
  // wins), and the new token is inserted only if this request's update is the one that landed.
  const d1 = db.$client;
  const [rotated] = await d1.batch([
    // revoked_at too: a reset or sign-out landing between the read above and this batch wins.
    d1.prepare("UPDATE refresh_tokens SET rotated_at = ?, successor = ? WHERE id = ? AND rotated_at IS NULL AND revoked_at IS NULL").bind(nowIso, sealed, row.id),
    d1
      .prepare(
        `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, family_expires_at, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM refresh_tokens WHERE id = ? AND successor = ?)`,
      )
      .bind(newId(), row.userId, row.familyId, await sha256Hex(next), isoNow(nextExpiry), familyEnd, nowIso, row.id, sealed),
  ]);
  if (!rotated?.meta.changes) {
    // Another request rotated this token a moment ago: answer the pair it made.
    const winner = await db.select().from(refreshTokens).where(eq(refreshTokens.id, row.id)).get();
    if (!winner?.rotatedAt) throw unauthorized(SESSION_EXPIRED);
    return replayWithinGrace(db, config, winner, presented, now);
  }
  return withUser(db, row.userId, pair);
}

/**
 * A rotated token presented again: within the grace window, the same new pair (two tabs refreshing
 * together); after it, theft is assumed and the whole family ends everywhere.
 */
async function replayWithinGrace(
  db: Db,
  config: Config,
  row: typeof refreshTokens.$inferSelect,
  presented: string,
  now: number,
): Promise<AuthResponse> {
  const withinGrace = now - Date.parse(row.rotatedAt!) <= ROTATION_GRACE_MS;
  const pair = withinGrace && row.successor ? await unseal(config.jwtSecret, presented, row.successor) : null;
  if (pair) return withUser(db, row.userId, pair);
  await revokeFamily(db, row.familyId);
  throw unauthorized(SESSION_EXPIRED);
}

/** Sign-out: revokes the presented token's family. */
export async function endSession(db: Db, presented: string): Promise<void> {
  const row = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .get();
  if (row) await revokeFamily(db, row.familyId);
}

/**
 * Password reset, Google taking over an unverified account: every session of the user ends (refresh
 * tokens here; access tokens by the token version the caller bumps in the same batch).
 */
export const revokeAllSessions = (db: Db, userId: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: isoNow() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));

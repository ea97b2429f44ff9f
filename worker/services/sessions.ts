/**
 * Sessions: a short-lived access token (JWT) plus a rotating refresh token. Refresh tokens are
 * random, stored only as SHA-256 hashes, grouped in a family per sign-in that ends 90 days after
 * the sign-in however often it rotates. Presenting a token that was already rotated means it
 * leaked, so the whole family is revoked, except within a 30-second grace window: two tabs that
 * refresh at the same moment both present the same token, and the second gets the same new pair.
 */
import type { AuthResponse } from "../contract/auth";
import type { Config } from "../env";
import type { Db } from "../db/client";
import {
  findRefreshToken,
  findRefreshTokenByHash,
  insertRefreshToken,
  revokeRefreshTokenFamily,
  rotateRefreshToken,
  type RefreshTokenRow,
} from "../db/queries/sessions";
import { findUserById, toPrivateUser } from "../db/queries/users";
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

/** Starts a new session (sign-in, verified email, Google). */
export async function startSession(db: Db, config: Config, userId: string, now = Date.now()): Promise<AuthResponse> {
  // A suspended account gets no session (sign-in, Google, a verified email): 403 with the reason.
  const user = await findUserById(db, userId);
  if (user?.suspendedAt) throw suspended();
  const token = newRefreshToken();
  await insertRefreshToken(db, {
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
  const row = await findRefreshTokenByHash(db, hash);
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
  // One transaction: only one of two racing requests rotates the token (the query's comment).
  const [rotated] = await rotateRefreshToken(
    db,
    row,
    { id: newId(), tokenHash: await sha256Hex(next), expiresAt: isoNow(nextExpiry), familyExpiresAt: familyEnd, sealed },
    nowIso,
  );
  if (!rotated?.meta.changes) {
    // Another request rotated this token a moment ago: answer the pair it made.
    const winner = await findRefreshToken(db, row.id);
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
  row: RefreshTokenRow,
  presented: string,
  now: number,
): Promise<AuthResponse> {
  const withinGrace = now - Date.parse(row.rotatedAt!) <= ROTATION_GRACE_MS;
  const pair = withinGrace && row.successor ? await unseal(config.jwtSecret, presented, row.successor) : null;
  if (pair) return withUser(db, row.userId, pair);
  await revokeRefreshTokenFamily(db, row.familyId, isoNow(now));
  throw unauthorized(SESSION_EXPIRED);
}

/** Sign-out: revokes the presented token's family. */
export async function endSession(db: Db, presented: string): Promise<void> {
  const row = await findRefreshTokenByHash(db, await sha256Hex(presented));
  if (row) await revokeRefreshTokenFamily(db, row.familyId, isoNow());
}

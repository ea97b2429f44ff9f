/**
 * One-time 6-digit codes (email verification, password reset, sign-in by code): 15-minute life, one
 * per 60 s per address and purpose, at most 10 per address a day. Wrong tries count per client
 * address (IPv6 by /64): 5 from one address end the code for that address only, so guesses from
 * elsewhere never void the code the owner is about to type; 50 across all addresses void it (a new
 * code on request). Only an HMAC of the code is stored.
 */
import { and, count, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { TIMINGS } from "../contract/constants";
import type { Db } from "../db/client";
import { emailCodes } from "../db/schema";
import { sha256Hex, timingSafeEqualText } from "../lib/encoding";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";

export type CodePurpose = "verify_email" | "reset_password" | "sign_in";

/** Wrong tries at one code across every address before it is void: at most 500 guesses a day per email (10 codes). */
export const CODE_TRIES_ACROSS_ADDRESSES = 50;

async function hashCode(secret: string, email: string, purpose: CodePurpose, code: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${purpose}:${email}:${code}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function randomCode(): string {
  // Rejection sampling: uniform over 000000-999999.
  const buf = new Uint32Array(1);
  do crypto.getRandomValues(buf);
  while (buf[0]! >= 4_294_000_000);
  return String(buf[0]! % 1_000_000).padStart(6, "0");
}

const DAY_MS = 86_400_000;

export interface CodeWait {
  /** Seconds until another code may be sent (0: now). */
  seconds: number;
  detail: string;
}

/**
 * When the next code may be mailed to this address: 60 s after the last one for the same purpose,
 * and at most `TIMINGS.emailCodesPerDay` codes (any purpose) in 24 hours, so nobody can flood an inbox.
 */
export async function nextCodeWait(db: Db, email: string, purpose: CodePurpose, now = Date.now()): Promise<CodeWait | null> {
  const [[last], [today]] = await db.batch([
    db
      .select({ createdAt: emailCodes.createdAt })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)))
      .orderBy(desc(emailCodes.createdAt))
      .limit(1),
    db
      .select({ n: count(), oldest: sql<string | null>`min(${emailCodes.createdAt})` })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), gt(emailCodes.createdAt, isoNow(now - DAY_MS)))),
  ]);
  if (today && today.n >= TIMINGS.emailCodesPerDay && today.oldest) {
    const seconds = Math.ceil((Date.parse(today.oldest) + DAY_MS - now) / 1000);
    return { seconds, detail: "Too many codes were sent to this email today. Please try again tomorrow." };
  }
  if (!last) return null;
  const elapsed = now - Date.parse(last.createdAt);
  if (elapsed >= TIMINGS.emailCodeResendMs) return null;
  const seconds = Math.ceil((TIMINGS.emailCodeResendMs - elapsed) / 1000);
  return { seconds, detail: `Please wait ${seconds} seconds before requesting a new code.` };
}

/**
 * Creates a code (voiding older ones for the same purpose) and returns it for the email, or the wait
 * when the address is within its cooldown or over its daily cap. The limits are checked inside the
 * INSERT itself, so parallel requests cannot all pass a check made before it.
 */
export async function issueCode(
  db: Db,
  secret: string,
  email: string,
  purpose: CodePurpose,
  now = Date.now(),
): Promise<{ code: string } | { wait: CodeWait }> {
  const code = randomCode();
  const id = newId();
  const codeHash = await hashCode(secret, email, purpose, code);
  const d1 = db.$client;
  const [inserted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO email_codes (id, email, purpose, code_hash, expires_at, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6
         WHERE (SELECT count(*) FROM email_codes WHERE email = ?2 AND created_at > ?7) < ?8
           AND NOT EXISTS (SELECT 1 FROM email_codes WHERE email = ?2 AND purpose = ?3 AND created_at > ?9)`,
      )
      .bind(
        id,
        email,
        purpose,
        codeHash,
        isoNow(now + TIMINGS.emailCodeTtlMs),
        isoNow(now),
        isoNow(now - DAY_MS),
        TIMINGS.emailCodesPerDay,
        isoNow(now - TIMINGS.emailCodeResendMs),
      ),
    // Only when the new code went in: older live codes for the same purpose stop working.
    d1
      .prepare(
        `UPDATE email_codes SET consumed_at = ?4
         WHERE email = ?1 AND purpose = ?2 AND consumed_at IS NULL AND id <> ?3
           AND EXISTS (SELECT 1 FROM email_codes WHERE id = ?3)`,
      )
      .bind(email, purpose, id, isoNow(now)),
  ]);
  if (inserted?.meta.changes) return { code };
  const wait = await nextCodeWait(db, email, purpose, now);
  return { wait: wait ?? { seconds: Math.ceil(TIMINGS.emailCodeResendMs / 1000), detail: "Please wait before requesting a new code." } };
}

/**
 * True when `code` is the live code for this address; consumes it. Every check counts a try
 * atomically *before* the compare (one upsert per code and client address, refused at 5 tries from
 * that address or 50 in all), so parallel wrong guesses each count and the fifth try from an address
 * is its last; other addresses keep theirs.
 */
export async function consumeCode(db: Db, secret: string, email: string, purpose: CodePurpose, code: string, address: string): Promise<boolean> {
  const now = isoNow();
  const live = await db
    .select({ id: emailCodes.id, codeHash: emailCodes.codeHash })
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose), isNull(emailCodes.consumedAt), gt(emailCodes.expiresAt, now)))
    .orderBy(desc(emailCodes.createdAt))
    .get();
  if (!live) return false;
  const d1 = db.$client;
  const [counted] = await d1.batch<{ tries: number }>([
    d1
      .prepare(
        `INSERT INTO email_code_tries (code_id, address_hash, tries)
         SELECT ?1, ?2, 1 WHERE EXISTS (SELECT 1 FROM email_codes WHERE id = ?1 AND consumed_at IS NULL)
           AND (SELECT coalesce(sum(tries), 0) FROM email_code_tries WHERE code_id = ?1) < ?4
         ON CONFLICT (code_id, address_hash) DO UPDATE SET tries = tries + 1 WHERE tries < ?3
         RETURNING tries`,
      )
      .bind(live.id, await sha256Hex(address), TIMINGS.emailCodeMaxTries, CODE_TRIES_ACROSS_ADDRESSES),
    // The code's own count is the total across addresses (what staff and the cron see).
    d1.prepare("UPDATE email_codes SET attempts = (SELECT coalesce(sum(tries), 0) FROM email_code_tries WHERE code_id = ?1) WHERE id = ?1").bind(live.id),
  ]);
  if (!counted?.results.length) return false;
  const right = timingSafeEqualText(live.codeHash, await hashCode(secret, email, purpose, code));
  if (!right) {
    const [total] = await db.select({ attempts: emailCodes.attempts }).from(emailCodes).where(eq(emailCodes.id, live.id));
    if ((total?.attempts ?? 0) >= CODE_TRIES_ACROSS_ADDRESSES) {
      await db.update(emailCodes).set({ consumedAt: now }).where(and(eq(emailCodes.id, live.id), isNull(emailCodes.consumedAt)));
    }
    return false;
  }
  // Guarded: a code is used once even if two requests race.
  const used = await db
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(and(eq(emailCodes.id, live.id), isNull(emailCodes.consumedAt)));
  return (used.meta.changes ?? 0) > 0;
}

/** For the cron: codes past their life (kept a day, so the daily cap still sees them). */
export const deleteOldCodes = (db: Db, now: number) => db.delete(emailCodes).where(lt(emailCodes.expiresAt, isoNow(now - DAY_MS)));


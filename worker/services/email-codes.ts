/**
 * One-time 6-digit codes (email verification, password reset): 15-minute life, one per 60 s per
 * address, 5 wrong tries void a code. Only an HMAC of the code is stored.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import { TIMINGS } from "../contract/constants";
import type { Db } from "../db/client";
import { emailCodes } from "../db/schema";
import { timingSafeEqualText } from "../lib/encoding";
import { newId } from "../lib/ids";
import { isoIn, isoNow } from "../lib/time";

export type CodePurpose = "verify_email" | "reset_password";

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

/** Seconds to wait before another code may be sent to this address (0 when it may). */
export async function resendWaitSeconds(db: Db, email: string, purpose: CodePurpose, now = Date.now()): Promise<number> {
  const last = await db
    .select({ createdAt: emailCodes.createdAt })
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)))
    .orderBy(desc(emailCodes.createdAt))
    .get();
  if (!last) return 0;
  const elapsed = now - Date.parse(last.createdAt);
  return elapsed >= TIMINGS.emailCodeResendMs ? 0 : Math.ceil((TIMINGS.emailCodeResendMs - elapsed) / 1000);
}

/** Creates a code (voiding older ones for the same purpose) and returns it for the email. */
export async function issueCode(db: Db, secret: string, email: string, purpose: CodePurpose): Promise<string> {
  const code = randomCode();
  await db.batch([
    db
      .update(emailCodes)
      .set({ consumedAt: isoNow() })
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose), isNull(emailCodes.consumedAt))),
    db.insert(emailCodes).values({
      id: newId(),
      email,
      purpose,
      codeHash: await hashCode(secret, email, purpose, code),
      expiresAt: isoIn(TIMINGS.emailCodeTtlMs),
      createdAt: isoNow(),
    }),
  ]);
  return code;
}

/** True when `code` is the live code for this address; a wrong code counts a try. Consumes on success. */
export async function consumeCode(db: Db, secret: string, email: string, purpose: CodePurpose, code: string): Promise<boolean> {
  const row = await db
    .select()
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose), isNull(emailCodes.consumedAt)))
    .orderBy(desc(emailCodes.createdAt))
    .get();
  if (!row || row.expiresAt < isoNow() || row.attempts >= TIMINGS.emailCodeMaxTries) return false;
  if (!timingSafeEqualText(row.codeHash, await hashCode(secret, email, purpose, code))) {
    const attempts = row.attempts + 1;
    await db
      .update(emailCodes)
      .set({ attempts, consumedAt: attempts >= TIMINGS.emailCodeMaxTries ? isoNow() : null })
      .where(eq(emailCodes.id, row.id));
    return false;
  }
  // Guarded: a code is used once even if two requests race.
  const used = await db
    .update(emailCodes)
    .set({ consumedAt: isoNow() })
    .where(and(eq(emailCodes.id, row.id), isNull(emailCodes.consumedAt)));
  return (used.meta.changes ?? 0) > 0;
}

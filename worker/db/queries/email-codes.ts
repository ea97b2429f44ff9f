/**
 * One-time codes and the tries at them: the statements behind services/email-codes.ts (which has the
 * rules). Limits are checked inside the statement that counts or stores, so parallel requests cannot
 * all pass a check made before it. Only an HMAC of a code is stored; addresses only as a SHA-256.
 */
import { and, count, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { emailCodeTries, emailCodes } from "../schema";

/**
 * What the send limits look at: the newest code this address requested for the email and purpose,
 * and the codes of the email since `since` from this address and from anyone (count and oldest).
 */
export async function codeSendCounts(db: Db, email: string, purpose: string, requesterHash: string, since: string) {
  const [[last], [fromAddress], [today]] = await db.batch([
    db
      .select({ createdAt: emailCodes.createdAt })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose), eq(emailCodes.requesterHash, requesterHash)))
      .orderBy(desc(emailCodes.createdAt))
      .limit(1),
    db
      .select({ n: count(), oldest: sql<string | null>`min(${emailCodes.createdAt})` })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), eq(emailCodes.requesterHash, requesterHash), gt(emailCodes.createdAt, since))),
    db
      .select({ n: count(), oldest: sql<string | null>`min(${emailCodes.createdAt})` })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), gt(emailCodes.createdAt, since))),
  ]);
  return { last, fromAddress, today };
}

export interface NewCode {
  id: string;
  email: string;
  purpose: string;
  codeHash: string;
  requesterHash: string;
  expiresAt: string;
  createdAt: string;
}

export interface CodeSendLimits {
  /** Codes counted from here on are "today's". */
  since: string;
  perEmail: number;
  perEmailAndAddress: number;
  /** No code of the same email, purpose and address after this moment (the resend wait). */
  lastAllowedBefore: string;
  /** The account proved itself from the requesting address: the per-email ceiling does not apply there. */
  knownRequester: boolean;
}

/** Stores the code unless a send limit is reached; true when it was stored. */
export async function insertCodeWithinLimits(db: Db, code: NewCode, limits: CodeSendLimits): Promise<boolean> {
  const inserted = await db.$client
    .prepare(
      `INSERT INTO email_codes (id, email, purpose, code_hash, requester_hash, expires_at, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
       WHERE (?12 = 1 OR (SELECT count(*) FROM email_codes WHERE email = ?2 AND created_at > ?8) < ?9)
         AND (SELECT count(*) FROM email_codes WHERE email = ?2 AND requester_hash = ?5 AND created_at > ?8) < ?10
         AND NOT EXISTS (SELECT 1 FROM email_codes WHERE email = ?2 AND purpose = ?3 AND requester_hash = ?5 AND created_at > ?11)`,
    )
    .bind(
      code.id,
      code.email,
      code.purpose,
      code.codeHash,
      code.requesterHash,
      code.expiresAt,
      code.createdAt,
      limits.since,
      limits.perEmail,
      limits.perEmailAndAddress,
      limits.lastAllowedBefore,
      limits.knownRequester ? 1 : 0,
    )
    .run();
  return inserted.meta.changes > 0;
}

/**
 * The live (unused, unexpired) codes of an email and purpose, newest first, and the comparisons made
 * with the email's codes created since `since` (the daily ceiling).
 */
export async function liveCodesAndComparisons(db: Db, email: string, purpose: string, nowIso: string, since: string) {
  const [live, [spent]] = await db.batch([
    db
      .select({ id: emailCodes.id, codeHash: emailCodes.codeHash, requesterHash: emailCodes.requesterHash })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose), isNull(emailCodes.consumedAt), gt(emailCodes.expiresAt, nowIso)))
      .orderBy(desc(emailCodes.createdAt)),
    db
      .select({ n: sql<number>`coalesce(sum(${emailCodeTries.compared}), 0)` })
      .from(emailCodeTries)
      .innerJoin(emailCodes, eq(emailCodes.id, emailCodeTries.codeId))
      .where(and(eq(emailCodes.email, email), gt(emailCodes.createdAt, since))),
  ]);
  return { live, comparisons: spent?.n ?? 0 };
}

export interface CodeTry {
  email: string;
  purpose: string;
  addressHash: string;
  /** The code the try is recorded against (the newest it is compared with). */
  codeId: string;
  /** Codes this try is compared with. */
  comparisons: number;
  /** Compared only with codes this address requested: the daily ceiling does not apply. */
  ownCodesOnly: boolean;
}

export interface CodeTryLimits {
  nowIso: string;
  /** The daily ceiling counts comparisons with codes created after this. */
  since: string;
  triesPerAddress: number;
  comparisonsPerDay: number;
}

/**
 * Counts one try, or refuses it (false). One statement: the address's tries at the unexpired codes of
 * the email and purpose (used ones too, so a code someone uses does not hand tries back) stay under
 * `triesPerAddress` and (unless ownCodesOnly) the email's comparisons under the ceiling, however many
 * tries arrive at once. The code's own `attempts` is then the total across addresses.
 */
export async function countCodeTry(db: Db, t: CodeTry, limits: CodeTryLimits): Promise<boolean> {
  const d1 = db.$client;
  const liveTriesOfAddress = `SELECT coalesce(sum(t.tries), 0) FROM email_code_tries t JOIN email_codes c ON c.id = t.code_id
     WHERE c.email = ?3 AND c.purpose = ?4 AND c.expires_at > ?5 AND t.address_hash = ?2`;
  const comparisonsToday = `SELECT coalesce(sum(t.compared), 0) FROM email_code_tries t JOIN email_codes c ON c.id = t.code_id
     WHERE c.email = ?3 AND c.created_at > ?6`;
  const [counted] = await d1.batch<{ tries: number }>([
    d1
      .prepare(
        `INSERT INTO email_code_tries (code_id, address_hash, tries, compared)
         SELECT ?1, ?2, 1, ?7
         WHERE EXISTS (SELECT 1 FROM email_codes WHERE id = ?1 AND consumed_at IS NULL)
           AND (${liveTriesOfAddress}) < ?8
           AND (?9 = 1 OR (${comparisonsToday}) + ?7 <= ?10)
         ON CONFLICT (code_id, address_hash) DO UPDATE SET tries = tries + 1, compared = compared + excluded.compared
         RETURNING tries`,
      )
      .bind(t.codeId, t.addressHash, t.email, t.purpose, limits.nowIso, limits.since, t.comparisons, limits.triesPerAddress, t.ownCodesOnly ? 1 : 0, limits.comparisonsPerDay),
    d1.prepare("UPDATE email_codes SET attempts = (SELECT coalesce(sum(tries), 0) FROM email_code_tries WHERE code_id = ?1) WHERE id = ?1").bind(t.codeId),
  ]);
  return !!counted?.results.length;
}

/**
 * Uses the matched code (guarded: once, even if two requests race) and hands the try counted
 * against `triedCodeId` back (the right try is not a wrong one). True when this request used it.
 */
export async function useCode(db: Db, matchedCodeId: string, triedCodeId: string, addressHash: string, nowIso: string): Promise<boolean> {
  const d1 = db.$client;
  const [used] = await d1.batch([
    d1.prepare("UPDATE email_codes SET consumed_at = ?2 WHERE id = ?1 AND consumed_at IS NULL").bind(matchedCodeId, nowIso),
    d1.prepare("UPDATE email_code_tries SET tries = max(tries - 1, 0) WHERE code_id = ?1 AND address_hash = ?2").bind(triedCodeId, addressHash),
  ]);
  return (used?.meta.changes ?? 0) > 0;
}

/** For the cron: codes that expired before `before`. */
export const deleteCodesExpiredBefore = (db: Db, before: string) => db.delete(emailCodes).where(lt(emailCodes.expiresAt, before));

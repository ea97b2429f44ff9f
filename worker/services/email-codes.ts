/**
 * One-time 6-digit codes (email verification, password reset, sign-in by code), built so nobody but
 * the owner can spend the owner's way in (docs/decisions/010):
 * - every code lives its 15 minutes: a newer code does not void older ones, and a check accepts any
 *   live code of the email and purpose (consuming only the one it matched), so a code someone else
 *   requests for the owner's email never voids the one the owner is about to type;
 * - sending: one per 60 s per email, purpose and requesting address, 5 a day per email and requesting
 *   address, and 30 a day per email from addresses the account never proved itself from (the
 *   inbox-flood ceiling); a known address (services/auth-throttle) has only its own 5, which nobody
 *   elsewhere can spend, so the owner there always gets a code;
 * - checking: 5 wrong tries per client address at the live codes of an email and purpose (guesses from
 *   elsewhere never spend the owner's tries, and never void a code); and per email a day, at most 200
 *   code comparisons from any address (a guess compared with 3 live codes counts 3). Past that, an
 *   address is compared only with the codes it requested itself, so the owner who asked for a code
 *   still gets in, and a guesser learns nothing from codes mailed to someone else's request.
 * Limits are checked inside the statement that counts or stores, so parallel requests cannot all pass
 * a check made before it. Only an HMAC of the code is stored; addresses only as a SHA-256.
 */
import { TIMINGS } from "../contract/constants";
import type { Db } from "../db/client";
import { codeSendCounts, countCodeTry, deleteCodesExpiredBefore, insertCodeWithinLimits, liveCodesAndComparisons, useCode } from "../db/queries/email-codes";
import { sha256Hex, timingSafeEqualText } from "../lib/encoding";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { isKnownAddressOf } from "./auth-throttle";

export type CodePurpose = "verify_email" | "reset_password" | "sign_in" | "school_email";

/**
 * Code comparisons per email in 24 hours from any address (a guess compared with 3 live codes counts
 * 3): 200 against 10^6 possible codes is a 0.02% chance a day of guessing one. Past it, an address is
 * compared only with codes it requested (at most 30 a day, 5 tries each: 150 more, 0.035% in all).
 */
export const CODE_COMPARISONS_PER_DAY = 200;

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

/** How a client address is stored next to codes (the throttling key's SHA-256, never the address). */
const addressHashOf = (address: string) => sha256Hex(address);

export interface CodeWait {
  /** Seconds until another code may be sent (0: now). */
  seconds: number;
  detail: string;
}

const waitUntil = (oldest: string, now: number) => Math.max(1, Math.ceil((Date.parse(oldest) + DAY_MS - now) / 1000));

/**
 * When the next code may be mailed to this email at this address's request: 60 s after the address's
 * last one for the same purpose, at most `TIMINGS.emailCodesPerDayPerAddress` (any purpose) a day for
 * the address and, unless the address is known (`knownRequester`; looked up when not given),
 * `TIMINGS.emailCodesPerDay` a day for the email. `address` is the throttling key.
 */
export async function nextCodeWait(
  db: Db,
  email: string,
  purpose: CodePurpose,
  address: string,
  now = Date.now(),
  knownRequester?: boolean,
): Promise<CodeWait | null> {
  const requester = await addressHashOf(address);
  const known = knownRequester ?? (await isKnownAddressOf(db, email, address, now));
  const { last, fromAddress, today } = await codeSendCounts(db, email, purpose, requester, isoNow(now - DAY_MS));
  if (!known && today && today.n >= TIMINGS.emailCodesPerDay && today.oldest) {
    return { seconds: waitUntil(today.oldest, now), detail: "Too many codes were sent to this email today. Please try again tomorrow." };
  }
  if (fromAddress && fromAddress.n >= TIMINGS.emailCodesPerDayPerAddress && fromAddress.oldest) {
    return {
      seconds: waitUntil(fromAddress.oldest, now),
      detail: "Too many codes were requested for this email from your network today. Please try again tomorrow, or from another network.",
    };
  }
  if (!last) return null;
  const elapsed = now - Date.parse(last.createdAt);
  if (elapsed >= TIMINGS.emailCodeResendMs) return null;
  const seconds = Math.ceil((TIMINGS.emailCodeResendMs - elapsed) / 1000);
  return { seconds, detail: `Please wait ${seconds} seconds before requesting a new code.` };
}

/**
 * Creates a code at `address`'s request and returns it for the email, or the wait when a limit of
 * nextCodeWait is reached. Older codes stay live. The limits are checked inside the INSERT itself,
 * so parallel requests cannot all pass a check made before it.
 */
export async function issueCode(
  db: Db,
  secret: string,
  email: string,
  purpose: CodePurpose,
  address: string,
  now = Date.now(),
): Promise<{ code: string } | { wait: CodeWait }> {
  const code = randomCode();
  const codeHash = await hashCode(secret, email, purpose, code);
  const requester = await addressHashOf(address);
  const knownRequester = await isKnownAddressOf(db, email, address, now);
  const inserted = await insertCodeWithinLimits(
    db,
    { id: newId(), email, purpose, codeHash, requesterHash: requester, expiresAt: isoNow(now + TIMINGS.emailCodeTtlMs), createdAt: isoNow(now) },
    {
      since: isoNow(now - DAY_MS),
      perEmail: TIMINGS.emailCodesPerDay,
      perEmailAndAddress: TIMINGS.emailCodesPerDayPerAddress,
      lastAllowedBefore: isoNow(now - TIMINGS.emailCodeResendMs),
      knownRequester,
    },
  );
  if (inserted) return { code };
  const wait = await nextCodeWait(db, email, purpose, address, now, knownRequester);
  return { wait: wait ?? { seconds: Math.ceil(TIMINGS.emailCodeResendMs / 1000), detail: "Please wait before requesting a new code." } };
}

/**
 * Counts one try from this address, before the compare, or refuses it (null): the address's tries at
 * the live codes stay under `TIMINGS.emailCodeMaxTries` and (unless the address is compared only with
 * its own codes) the email's comparisons today under the ceiling, however many tries arrive at once.
 * The try is recorded against the newest code it is compared with, whose id is returned.
 */
async function countTry(db: Db, email: string, purpose: CodePurpose, addressHash: string, against: string, comparisons: number, ownCodesOnly: boolean, now: number) {
  const counted = await countCodeTry(
    db,
    { email, purpose, addressHash, codeId: against, comparisons, ownCodesOnly },
    { nowIso: isoNow(now), since: isoNow(now - DAY_MS), triesPerAddress: TIMINGS.emailCodeMaxTries, comparisonsPerDay: CODE_COMPARISONS_PER_DAY },
  );
  return counted ? against : null;
}

/**
 * True when `code` is one of the live codes of this email and purpose; consumes that one only. The
 * try is counted first (countTry); the code is compared in constant time with every candidate.
 */
export async function consumeCode(
  db: Db,
  secret: string,
  email: string,
  purpose: CodePurpose,
  code: string,
  address: string,
  now = Date.now(),
): Promise<boolean> {
  const addressHash = await addressHashOf(address);
  const { live, comparisons: spent } = await liveCodesAndComparisons(db, email, purpose, isoNow(now), isoNow(now - DAY_MS));
  if (!live.length) return false;
  const own = live.filter((c) => c.requesterHash === addressHash);
  // Past the day's ceiling (or when this try would cross it), an address is compared only with its own codes.
  let candidates = spent + live.length <= CODE_COMPARISONS_PER_DAY ? live : own;
  let counted = candidates.length ? await countTry(db, email, purpose, addressHash, candidates[0]!.id, candidates.length, candidates === own, now) : null;
  if (!counted && candidates !== own && own.length) {
    // A parallel try took the last of the ceiling: this address may still try its own codes.
    candidates = own;
    counted = await countTry(db, email, purpose, addressHash, own[0]!.id, own.length, true, now);
  }
  if (!counted) return false;
  const tried = await hashCode(secret, email, purpose, code);
  let matched: string | null = null;
  // Every candidate is compared (no early exit), so the time says nothing about which one matched.
  for (const candidate of candidates) if (timingSafeEqualText(candidate.codeHash, tried) && !matched) matched = candidate.id;
  if (!matched) return false;
  // Guarded: a code is used once even if two requests race. The right try is not a wrong one.
  return useCode(db, matched, counted, addressHash, isoNow(now));
}

/** For the cron: codes past their life (kept a day, so the daily cap still sees them). */
export const deleteOldCodes = (db: Db, now: number) => deleteCodesExpiredBefore(db, isoNow(now - DAY_MS));


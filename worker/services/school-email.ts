/**
 * The school email badge (docs/decisions/028): a student confirms an address at a university's domain
 * with an emailed 6-digit code (services/email-codes, its throttles included), and their profile,
 * listings and chats then say "School email verified: <domain>". Which domains count is Hipo's
 * university-domains-list (US entries, bundled by scripts/make-school-domains.mjs, never fetched at run
 * time). One school address per account, one account per inbox (the canonical address: no +tag, no
 * case); a sign-up address at a school counts without a second code. The address itself is never public.
 */
import type { Config } from "../env";
import type { Db } from "../db/client";
import { findUserBySchoolEmail, giveSchoolEmailIfNone, updateUser, type UserRow } from "../db/queries/users";
import { apiError, badRequest, conflict, isUniqueViolation, tooManyRequests } from "../lib/errors";
import { isoNow } from "../lib/time";
import { consumeCode, issueCode } from "./email-codes";
import { delivered, notify } from "./notify";
import list from "./school-domains.json";

const DOMAINS: Record<string, number> = list.domains;

const INVALID_CODE = "Invalid or expired code. Ask for a new one if it is over 15 minutes old.";
const TAKEN = "This school email is already confirmed on another account.";

/**
 * The listed university domain of an address, or null: the address's domain or the nearest parent
 * on the list (a department's cise.ufl.edu counts as ufl.edu), never a bare suffix like "edu".
 */
export function schoolDomainOf(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1) return null;
  const labels = email.slice(at + 1).trim().toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join(".");
    if (Object.hasOwn(DOMAINS, candidate)) return candidate;
  }
  return null;
}

/**
 * The address as one inbox: the local part without a `+tag`, without case (`Ana+1@UFL.edu` is
 * `ana@ufl.edu`). One account per canonical address, so `+tags` do not multiply badges (docs/decisions/032).
 */
export function canonicalSchoolEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus >= 0 ? local.slice(0, plus) : local}${address.slice(at)}`;
}

/**
 * A sign-up address at a school's domain counts as confirmed school email the moment the account proves
 * it (its sign-up code, Google, an emailed sign-in or reset code), with no second code; unless the account
 * has a school address already, or another account holds this one (the earliest verified keeps it).
 */
export async function schoolEmailFromSignUp(db: Db, user: Pick<UserRow, "id" | "email" | "schoolEmail">, now = Date.now()): Promise<void> {
  if (user.schoolEmail) return;
  const domain = schoolDomainOf(user.email);
  if (!domain) return;
  try {
    await giveSchoolEmailIfNone(db, user.id, { email: user.email, canonical: canonicalSchoolEmail(user.email), domain, verifiedAt: isoNow(now) });
  } catch (err) {
    // Another account confirmed this inbox first: it keeps the badge, and this sign-up goes on without one.
    if (!isUniqueViolation(err)) throw err;
  }
}

/** Our universities.id of a listed domain, when the list's name matched one of ours. */
export const universityIdOfDomain = (domain: string): number | null => DOMAINS[domain] || null;

/** Mails a code to `email` for `user` (it becomes the address awaiting a code): 422 not a school's, 409 held elsewhere, 429 throttled. */
export async function requestSchoolEmailCode(db: Db, env: Env, config: Config, user: Pick<UserRow, "id" | "firstName">, email: string, address: string) {
  const domain = schoolDomainOf(email);
  if (!domain) throw apiError(422, { detail: "This is not a university email address we know. Use the address your school gave you (for example name@ufl.edu)." });
  const holder = await findUserBySchoolEmail(db, canonicalSchoolEmail(email));
  if (holder && holder.id !== user.id) throw conflict(TAKEN);
  const issued = await issueCode(db, config.jwtSecret, email, "school_email", address);
  if ("wait" in issued) throw tooManyRequests(issued.wait.seconds, issued.wait.detail);
  await updateUser(db, user.id, { schoolEmailPending: email });
  delivered(await notify({ db, env, config }, { address: email, firstName: user.firstName }, { kind: "school_email_code", code: issued.code, domain }));
}

/** Confirms the awaiting address with its code: it replaces any earlier school address of the account. */
export async function verifySchoolEmail(
  db: Db,
  config: Config,
  user: Pick<UserRow, "id" | "schoolEmailPending">,
  code: string,
  address: string,
  now = Date.now(),
): Promise<{ domain: string; verified_at: string }> {
  const pending = user.schoolEmailPending;
  const domain = pending ? schoolDomainOf(pending) : null;
  if (!pending || !domain) throw badRequest("Add your school email first: we send the code there.");
  if (!(await consumeCode(db, config.jwtSecret, pending, "school_email", code, address, now))) throw badRequest(INVALID_CODE);
  const verifiedAt = isoNow(now);
  try {
    await updateUser(db, user.id, { schoolEmail: pending, schoolEmailCanonical: canonicalSchoolEmail(pending), schoolEmailDomain: domain, schoolEmailVerifiedAt: verifiedAt, schoolEmailPending: null });
  } catch (err) {
    // Another account confirmed the same address (or the same inbox under another +tag) first: the unique index decides.
    if (isUniqueViolation(err)) throw conflict(TAKEN);
    throw err;
  }
  return { domain, verified_at: verifiedAt };
}

/**
 * Sign-up with an emailed code, sign-in (password or emailed code), password reset and Google sign-in.
 * Failed sign-ins and failed code checks are also throttled per account and address, sign-ins per
 * account a day (auth-throttle.ts); routes throttle per address. `address` is the client's throttling
 * key (middleware/rate-limit addressKey).
 */
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import { GOOGLE_LINK_REQUIRED, type AuthResponse, type GoogleLinkRequiredResponse, type RegisterInput } from "../contract/auth";
import type { Config } from "../env";
import type { Db } from "../db/client";
import { revokeRefreshTokensOfUser } from "../db/queries/sessions";
import { bumpTokenVersion, findUserByEmail, findUserByGoogleSub, insertUser, normalizeEmail, updateUser, updateUserQuietly, type UserRow } from "../db/queries/users";
import { apiError, badRequest, conflict, isUniqueViolation, tooManyRequests, unauthorized } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { countAttempt, forgiveAttempt, rememberAddress } from "./auth-throttle";
import { consumeCode, issueCode, nextCodeWait, type CodePurpose } from "./email-codes";
import { closeSocketsOfUser, conversationIdsOfUser } from "./messaging";
import { delivered, notify } from "./notify";
import { hashPassword, needsRehash, verifyPassword } from "./passwords";
import { schoolEmailFromSignUp } from "./school-email";
import { startSession } from "./sessions";
import { checkUniversity } from "./universities";

/** A real hash of a random password (today's parameters): unknown emails cost the same scrypt work as known ones. */
const DUMMY_HASH = "scrypt$8192$8$10$9AvSurwPW+TD4ERfJX9v3w==$NV8AuujvJV3xFgUGDRNlvIIBDFud5hsOgYfeRZfTxCo=";

const INVALID_CODE = "Invalid or expired verification code";
const EMAIL_TAKEN = "An account with this email already exists";

/** Creates the account and mails its first code; returns the new user's id. */
export async function register(db: Db, env: Env, config: Config, body: RegisterInput, address: string): Promise<string> {
  await checkUniversity(db, body.university_id);
  if (await findUserByEmail(db, body.email)) throw conflict(EMAIL_TAKEN);
  // An address deleted and registered again and again must not become a way to flood an inbox. The
  // registering address set the password, so it is the new account's first known address (decision 010).
  const wait = await nextCodeWait(db, body.email, "verify_email", address, Date.now(), true);
  if (wait) throw tooManyRequests(wait.seconds, wait.detail);
  const id = newId();
  try {
    await insertUser(db, {
      id,
      email: body.email,
      passwordHash: await hashPassword(body.password),
      firstName: body.first_name,
      lastName: body.last_name,
      phone: body.phone || null,
      universityId: body.university_id ?? null,
      // A new student browses their own university first.
      preferredUniversityId: body.university_id ?? null,
    });
  } catch (err) {
    // Two sign-ups of one address at the same moment: the unique index decides, the loser hears why.
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
    throw err;
  }
  await rememberAddress(db, id, address);
  // The account exists now; if a parallel request took the last code of the day, a resend later mails one.
  const issued = await issueCode(db, config.jwtSecret, body.email, "verify_email", address);
  if ("code" in issued) delivered(await notify({ db, env, config }, { address: body.email, firstName: body.first_name }, { kind: "verification_code", code: issued.code }));
  return id;
}

/**
 * Mails a code at `address`'s request when the account exists (and, for verification, is unverified);
 * 429 within the cooldown or over a daily cap. The answer is the same, throttles included, whether or
 * not the account exists (no enumeration, decision 022): the code is counted for every request and
 * only mailed where it can be used (nobody learns one that is not).
 */
export async function sendCode(db: Db, env: Env, config: Config, email: string, purpose: CodePurpose, address: string, { quietCooldown = false } = {}) {
  const user = await findUserByEmail(db, email);
  const issued = await issueCode(db, config.jwtSecret, email, purpose, address);
  if ("wait" in issued) {
    if (quietCooldown) return;
    throw tooManyRequests(issued.wait.seconds, issued.wait.detail);
  }
  if (!user || (purpose === "verify_email" && user.emailVerificationStatus === "verified")) return;
  const kind = purpose === "verify_email" ? "verification_code" : purpose === "reset_password" ? "password_reset_code" : "sign_in_code";
  delivered(await notify({ db, env, config }, { address: email, firstName: user.firstName }, { kind, code: issued.code }));
}

/** The account whose emailed code this is (the code is used up), or 400. */
async function userByCode(db: Db, config: Config, email: string, purpose: CodePurpose, code: string, address: string) {
  const attempt = await countAttempt(db, "code", email, address);
  const user = await findUserByEmail(db, email);
  if (!user || !(await consumeCode(db, config.jwtSecret, email, purpose, code, address))) throw badRequest(INVALID_CODE);
  await forgiveAttempt(db, attempt);
  await rememberAddress(db, user.id, address);
  return user;
}

export async function verifyEmail(db: Db, config: Config, email: string, code: string, address: string): Promise<AuthResponse> {
  const user = await userByCode(db, config, email, "verify_email", code, address);
  // Accounts made before sign-up set it: the university chosen at sign-up becomes the preferred one.
  const preferred = user.preferredUniversityId === null && user.universityId !== null ? { preferredUniversityId: user.universityId } : {};
  await updateUser(db, user.id, { emailVerificationStatus: "verified", ...preferred });
  await schoolEmailFromSignUp(db, user);
  return startSession(db, config, user.id);
}

export async function signIn(db: Db, env: Env, config: Config, email: string, password: string, address: string): Promise<AuthResponse> {
  const attempt = await countAttempt(db, "login", email, address);
  const user = await findUserByEmail(db, email);
  // Same work and the same answer whether or not the email exists.
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !valid) throw unauthorized("Incorrect email or password");
  await forgiveAttempt(db, attempt);
  await rememberAddress(db, user.id, address);
  if (user.emailVerificationStatus !== "verified") {
    await sendCode(db, env, config, email, "verify_email", address, { quietCooldown: true });
    throw apiError(403, { detail: "Please verify your email first. We sent a 6-digit code to your inbox.", code: "email_not_verified" });
  }
  if (needsRehash(user.passwordHash)) await updateUserQuietly(db, user.id, { passwordHash: await hashPassword(password) });
  return startSession(db, config, user.id);
}

/**
 * Signs in with an emailed code (auth/send-sign-in-code): the way in that the password throttles never
 * block, since the code proves the address is theirs (an unverified address becomes verified).
 */
export async function signInWithCode(db: Db, config: Config, email: string, code: string, address: string): Promise<AuthResponse> {
  const user = await userByCode(db, config, email, "sign_in", code, address);
  if (user.emailVerificationStatus !== "verified") await updateUser(db, user.id, { emailVerificationStatus: "verified" });
  await schoolEmailFromSignUp(db, user);
  return startSession(db, config, user.id);
}

/**
 * Sets a new password and ends every session: refresh tokens, access tokens (the token version) and
 * open sockets; the code proved the address is theirs.
 */
export async function resetPassword(db: Db, env: Env, config: Config, email: string, code: string, newPassword: string, address: string) {
  const user = await userByCode(db, config, email, "reset_password", code, address);
  await db.batch([
    updateUser(db, user.id, { passwordHash: await hashPassword(newPassword), emailVerificationStatus: "verified" }),
    bumpTokenVersion(db, user.id),
    revokeRefreshTokensOfUser(db, user.id, isoNow()),
  ]);
  await schoolEmailFromSignUp(db, user);
  await closeSocketsOfUser(env, user.id, await conversationIdsOfUser(db, user.id), "Password reset");
}

const googleKeySets = new Map<string, JWTVerifyGetKey>();
function googleKeys(url: string): JWTVerifyGetKey {
  let keys = googleKeySets.get(url);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(url));
    googleKeySets.set(url, keys);
  }
  return keys;
}

interface GoogleClaims {
  sub: string;
  email: string;
  given_name?: unknown;
  family_name?: unknown;
}

/** The claims of a valid Google ID token with a verified email, or 401. */
async function verifyGoogleToken(config: Config, token: string): Promise<GoogleClaims> {
  const { googleClientId, googleJwksUrl } = config;
  let claims: { sub?: string; email?: unknown; email_verified?: unknown; given_name?: unknown; family_name?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(token, googleKeys(googleJwksUrl), {
      issuer: ["accounts.google.com", "https://accounts.google.com"],
      audience: googleClientId,
    }));
  } catch {
    throw unauthorized("Google login failed");
  }
  if (!claims.sub || typeof claims.email !== "string" || claims.email_verified !== true) throw unauthorized("Google login failed");
  return { ...claims, sub: claims.sub, email: normalizeEmail(claims.email) };
}

/** Links the Google account to the user (its email now counts as verified) and starts a session. */
async function linkGoogle(db: Db, config: Config, user: UserRow, sub: string): Promise<AuthResponse> {
  try {
    await updateUser(db, user.id, { googleSub: sub, emailVerificationStatus: "verified" });
  } catch (err) {
    // The same link twice at once: the Google account is linked already (to this user, or refused).
    if (!isUniqueViolation(err)) throw err;
    if ((await findUserByGoogleSub(db, sub))?.id !== user.id) throw conflict("This Google account is linked to another account.");
  }
  return startSession(db, config, user.id);
}

/**
 * Signs in with a Google ID token (the route checked that Google sign-in is configured): the Google
 * account; else, for an account with its email, the link (see below); else a new account.
 *
 * An existing *verified* account is not linked on Google's word alone: whoever holds the Google
 * account must prove they own this one too (its password or an emailed code, googleLink), so 409
 * {detail, link_required: true, email} and no session. An unverified one may not belong to the
 * address's owner at all: Google vouches for the address, so it is linked, its password cleared and
 * every session ended (access tokens too), and only the address's real owner keeps access.
 */
export async function googleSignIn(db: Db, env: Env, config: Config, token: string): Promise<AuthResponse> {
  const claims = await verifyGoogleToken(config, token);
  const linked = await findUserByGoogleSub(db, claims.sub);
  if (linked) return startSession(db, config, linked.id);
  const byEmail = await findUserByEmail(db, claims.email);
  if (byEmail) {
    if (byEmail.emailVerificationStatus === "verified") {
      const body: GoogleLinkRequiredResponse = { detail: GOOGLE_LINK_REQUIRED, code: "google_link_required", link_required: true, email: byEmail.email };
      throw apiError(409, body);
    }
    await db.batch([
      updateUser(db, byEmail.id, { googleSub: claims.sub, emailVerificationStatus: "verified", passwordHash: null }),
      bumpTokenVersion(db, byEmail.id),
      revokeRefreshTokensOfUser(db, byEmail.id, isoNow()),
    ]);
    // Before the new session exists, so only the squatter's sockets close.
    await closeSocketsOfUser(env, byEmail.id, await conversationIdsOfUser(db, byEmail.id), "Signed in with Google");
    await schoolEmailFromSignUp(db, byEmail);
    return startSession(db, config, byEmail.id);
  }
  const userId = newId();
  try {
    await insertUser(db, {
      id: userId,
      email: claims.email,
      googleSub: claims.sub,
      firstName: (typeof claims.given_name === "string" && claims.given_name.slice(0, 50)) || claims.email.split("@")[0]!.slice(0, 50),
      lastName: (typeof claims.family_name === "string" && claims.family_name.slice(0, 50)) || "",
      emailVerificationStatus: "verified",
    });
  } catch (err) {
    // The same Google sign-in twice at once: the unique index keeps one account; sign the other in to it.
    if (!isUniqueViolation(err)) throw err;
    const winner = await findUserByGoogleSub(db, claims.sub);
    if (!winner) throw conflict(EMAIL_TAKEN);
    return startSession(db, config, winner.id);
  }
  // Google vouches for the address: a school's counts as the account's school email.
  await schoolEmailFromSignUp(db, { id: userId, email: claims.email, schoolEmail: null });
  return startSession(db, config, userId);
}

/**
 * The second step of a Google sign-in that answered link_required: the Google token again plus the
 * account's password or an emailed code (auth/send-sign-in-code). Wrong proofs count like failed
 * sign-ins (auth-throttle.ts). No session before the proof.
 */
export async function googleLink(
  db: Db,
  config: Config,
  token: string,
  proof: { password?: string | undefined; code?: string | undefined },
  address: string,
): Promise<AuthResponse> {
  const claims = await verifyGoogleToken(config, token);
  const linked = await findUserByGoogleSub(db, claims.sub);
  if (linked) return startSession(db, config, linked.id);
  if (proof.code) {
    const user = await userByCode(db, config, claims.email, "sign_in", proof.code, address);
    return linkGoogle(db, config, user, claims.sub);
  }
  const attempt = await countAttempt(db, "login", claims.email, address);
  const user = await findUserByEmail(db, claims.email);
  const valid = await verifyPassword(proof.password ?? "", user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !valid) throw unauthorized("Incorrect password");
  await forgiveAttempt(db, attempt);
  await rememberAddress(db, user.id, address);
  return linkGoogle(db, config, user, claims.sub);
}

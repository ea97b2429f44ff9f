/**
 * Sign-up with an emailed code, sign-in, password reset and Google sign-in. Failed sign-ins and
 * failed code checks are also throttled per account (auth-throttle.ts); routes throttle per address.
 */
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { AuthResponse, RegisterInput } from "../contract/auth";
import type { Config } from "../env";
import { createDb } from "../db/client";
import { findUserByEmail, findUserByGoogleSub, insertUser, normalizeEmail, updateUser, updateUserQuietly } from "../db/queries/users";
import { apiError, badRequest, conflict, isUniqueViolation, tooManyRequests, unauthorized } from "../lib/errors";
import { newId } from "../lib/ids";
import { countAttempt, forgiveAttempt } from "./auth-throttle";
import { sendEmail } from "./email";
import { consumeCode, issueCode, nextCodeWait, type CodePurpose } from "./email-codes";
import { passwordResetEmail, verificationCodeEmail } from "./email-templates";
import { hashPassword, needsRehash, verifyPassword } from "./passwords";
import { revokeAllSessions, startSession } from "./sessions";
import { checkUniversity } from "./universities";

/** A real hash of a random password: unknown emails cost the same scrypt work as known ones. */
const DUMMY_HASH = "scrypt$32768$8$3$nrk3NkMn6UumMzyegMcp2Q==$14obcPk78TDTI//+FcFsJIkHPsGimzHIkCiQkAOGcOo=";

const INVALID_CODE = "Invalid or expired verification code";
const EMAIL_TAKEN = "An account with this email already exists";

/** Creates the account and mails its first code; returns the new user's id. */
export async function register(env: Env, config: Config, body: RegisterInput): Promise<string> {
  const db = createDb(env);
  await checkUniversity(db, body.university_id);
  if (await findUserByEmail(db, body.email)) throw conflict(EMAIL_TAKEN);
  // An address deleted and registered again and again must not become a way to flood an inbox.
  const wait = await nextCodeWait(db, body.email, "verify_email");
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
      // A new student browses their own university first (issue 12).
      preferredUniversityId: body.university_id ?? null,
    });
  } catch (err) {
    // Two sign-ups of one address at the same moment: the unique index decides, the loser hears why.
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
    throw err;
  }
  // The account exists now; if a parallel request took the last code of the day, a resend later mails one.
  const issued = await issueCode(db, config.jwtSecret, body.email, "verify_email");
  if ("code" in issued) await sendEmail(env, config, verificationCodeEmail(body.email, body.first_name, issued.code));
  return id;
}

/** Sends a code when the account exists (and, for verification, is unverified); 429 within the cooldown or over the daily cap. */
export async function sendCode(env: Env, config: Config, email: string, purpose: CodePurpose, { quietCooldown = false } = {}) {
  const db = createDb(env);
  const user = await findUserByEmail(db, email);
  if (!user) return;
  if (purpose === "verify_email" && user.emailVerificationStatus === "verified") return;
  const issued = await issueCode(db, config.jwtSecret, email, purpose);
  if ("wait" in issued) {
    if (quietCooldown) return;
    throw tooManyRequests(issued.wait.seconds, issued.wait.detail);
  }
  const message =
    purpose === "verify_email" ? verificationCodeEmail(email, user.firstName, issued.code) : passwordResetEmail(email, user.firstName, issued.code);
  await sendEmail(env, config, message);
}

/** The account whose emailed code this is (the code is used up), or 400. */
async function userByCode(env: Env, config: Config, email: string, purpose: CodePurpose, code: string) {
  const db = createDb(env);
  const attempt = await countAttempt(db, "code", email);
  const user = await findUserByEmail(db, email);
  if (!user || !(await consumeCode(db, config.jwtSecret, email, purpose, code))) throw badRequest(INVALID_CODE);
  await forgiveAttempt(db, attempt);
  return user;
}

export async function verifyEmail(env: Env, config: Config, email: string, code: string): Promise<AuthResponse> {
  const user = await userByCode(env, config, email, "verify_email", code);
  const db = createDb(env);
  // Accounts made before sign-up set it: the university chosen at sign-up becomes the preferred one.
  const preferred = user.preferredUniversityId === null && user.universityId !== null ? { preferredUniversityId: user.universityId } : {};
  await updateUser(db, user.id, { emailVerificationStatus: "verified", ...preferred });
  return startSession(db, config, user.id);
}

export async function signIn(env: Env, config: Config, email: string, password: string): Promise<AuthResponse> {
  const db = createDb(env);
  const attempt = await countAttempt(db, "login", email);
  const user = await findUserByEmail(db, email);
  // Same work and the same answer whether or not the email exists.
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !valid) throw unauthorized("Incorrect email or password");
  await forgiveAttempt(db, attempt);
  if (user.emailVerificationStatus !== "verified") {
    await sendCode(env, config, email, "verify_email", { quietCooldown: true });
    throw apiError(403, { detail: "Please verify your email first. We sent a 6-digit code to your inbox.", code: "email_not_verified" });
  }
  if (needsRehash(user.passwordHash)) await updateUserQuietly(db, user.id, { passwordHash: await hashPassword(password) });
  return startSession(db, config, user.id);
}

/** Sets a new password and ends every session; the code proved the address is theirs. */
export async function resetPassword(env: Env, config: Config, email: string, code: string, newPassword: string) {
  const user = await userByCode(env, config, email, "reset_password", code);
  const db = createDb(env);
  await db.batch([
    updateUser(db, user.id, { passwordHash: await hashPassword(newPassword), emailVerificationStatus: "verified" }),
    revokeAllSessions(db, user.id),
  ]);
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

/**
 * Signs in with a Google ID token (the route checked that Google sign-in is configured): the
 * Google account, else the account with its email (linked), else a new one.
 */
export async function googleSignIn(env: Env, config: Config, token: string): Promise<AuthResponse> {
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
  const db = createDb(env);
  const email = normalizeEmail(claims.email);
  let userId = (await findUserByGoogleSub(db, claims.sub))?.id;
  if (!userId) {
    const byEmail = await findUserByEmail(db, email);
    if (byEmail) {
      // Google vouches for the address: link the account and count the email as verified. If the
      // address was never verified, whoever registered it may not be its owner: their password
      // and sessions end, so only the address's real owner keeps access.
      const takeover = byEmail.emailVerificationStatus !== "verified";
      await db.batch([
        updateUser(db, byEmail.id, { googleSub: claims.sub, emailVerificationStatus: "verified", ...(takeover && { passwordHash: null }) }),
        ...(takeover ? [revokeAllSessions(db, byEmail.id)] : []),
      ]);
      userId = byEmail.id;
    } else {
      userId = newId();
      await insertUser(db, {
        id: userId,
        email,
        googleSub: claims.sub,
        firstName: (typeof claims.given_name === "string" && claims.given_name.slice(0, 50)) || email.split("@")[0]!.slice(0, 50),
        lastName: (typeof claims.family_name === "string" && claims.family_name.slice(0, 50)) || "",
        emailVerificationStatus: "verified",
      });
    }
  }
  return startSession(db, config, userId);
}

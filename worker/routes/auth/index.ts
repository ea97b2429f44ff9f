/**
 * Auth: sign-up with an emailed code, sign-in, rotating refresh tokens, sign-out, password reset,
 * Google sign-in. Every route is throttled per address (sized for a campus NAT); failed sign-ins
 * and failed code checks also per account (services/auth-throttle.ts).
 */
import { eq } from "drizzle-orm";
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import {
  emailOnlySchema,
  googleLoginSchema,
  loginSchema,
  refreshSchema,
  registerSchema,
  resetPasswordSchema,
  verifyEmailSchema,
  type AuthConfigResponse,
} from "../../contract/auth";
import { createDb } from "../../db/client";
import { findUserByEmail } from "../../db/queries/users";
import { universities, users } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { apiError, badRequest, conflict, isUniqueViolation, tooManyRequests, unauthorized, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { log } from "../../lib/log";
import { parseJson } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit, limitByAddress } from "../../middleware/rate-limit";
import { countAttempt, forgiveAttempt } from "../../services/auth-throttle";
import { sendEmail } from "../../services/email";
import { consumeCode, issueCode, nextCodeWait, type CodePurpose } from "../../services/email-codes";
import { passwordResetEmail, verificationCodeEmail } from "../../services/email-templates";
import { hashPassword, needsRehash, verifyPassword } from "../../services/passwords";
import { endSession, revokeAllSessions, rotateSession, startSession } from "../../services/sessions";

/** A real hash of a random password: unknown emails cost the same scrypt work as known ones. */
const DUMMY_HASH = "scrypt$32768$8$3$nrk3NkMn6UumMzyegMcp2Q==$14obcPk78TDTI//+FcFsJIkHPsGimzHIkCiQkAOGcOo=";

const INVALID_CODE = "Invalid or expired verification code";
const EMAIL_TAKEN = "An account with this email already exists";
const CODE_SENT = "If an account exists for this email, we sent it a 6-digit code.";

const googleKeySets = new Map<string, JWTVerifyGetKey>();
function googleKeys(url: string): JWTVerifyGetKey {
  let keys = googleKeySets.get(url);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(url));
    googleKeySets.set(url, keys);
  }
  return keys;
}

export const authRoutes = createRouter()
  .get("/config", (c) =>
    c.json({ google_client_id: c.var.config.googleClientId || null } satisfies AuthConfigResponse),
  )

  .post("/register", async (c) => {
    await limitByAddress(c);
    const body = await parseJson(c, registerSchema);
    const db = createDb(c.env);
    if (body.university_id !== undefined) {
      const university = await db.select({ id: universities.id }).from(universities).where(eq(universities.id, body.university_id)).get();
      if (!university) throw validationFailed([{ path: "university_id", message: "Please choose a university from the list" }]);
    }
    if (await findUserByEmail(db, body.email)) throw conflict(EMAIL_TAKEN);
    // An address deleted and registered again and again must not become a way to flood an inbox.
    const wait = await nextCodeWait(db, body.email, "verify_email");
    if (wait) throw tooManyRequests(wait.seconds, wait.detail);
    const id = newId();
    try {
      await db.insert(users).values({
        id,
        email: body.email,
        passwordHash: await hashPassword(body.password),
        firstName: body.first_name,
        lastName: body.last_name,
        phone: body.phone || null,
        universityId: body.university_id ?? null,
      });
    } catch (err) {
      // Two sign-ups of one address at the same moment: the unique index decides, the loser hears why.
      if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
      throw err;
    }
    // The account exists now; if a parallel request took the last code of the day, a resend later mails one.
    const issued = await issueCode(db, c.var.config.jwtSecret, body.email, "verify_email");
    if ("code" in issued) await sendEmail(c.env, c.var.config, verificationCodeEmail(body.email, body.first_name, issued.code));
    log.info("user_registered", { request_id: c.var.requestId, user_id: id });
    return c.json({ message: "Account created. We sent a 6-digit code to your email.", user_id: id }, 201);
  })

  .post("/send-verification-code", async (c) => {
    await limitByAddress(c);
    const { email } = await parseJson(c, emailOnlySchema);
    await sendCode(c, email, "verify_email");
    return c.json({ message: CODE_SENT });
  })

  .post("/verify-email", async (c) => {
    await limitByAddress(c);
    const { email, code } = await parseJson(c, verifyEmailSchema);
    const db = createDb(c.env);
    const attempt = await countAttempt(db, "code", email);
    const user = await findUserByEmail(db, email);
    if (!user || !(await consumeCode(db, c.var.config.jwtSecret, email, "verify_email", code))) throw badRequest(INVALID_CODE);
    await forgiveAttempt(db, attempt);
    await db.update(users).set({ emailVerificationStatus: "verified", updatedAt: isoNow() }).where(eq(users.id, user.id));
    return c.json(await startSession(db, c.var.config, user.id));
  })

  .post("/login", async (c) => {
    await limitByAddress(c);
    const { email, password } = await parseJson(c, loginSchema);
    const db = createDb(c.env);
    const attempt = await countAttempt(db, "login", email);
    const user = await findUserByEmail(db, email);
    // Same work and the same answer whether or not the email exists.
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !user.passwordHash || !valid) throw unauthorized("Incorrect email or password");
    await forgiveAttempt(db, attempt);
    if (user.emailVerificationStatus !== "verified") {
      await sendCode(c, email, "verify_email", { quietCooldown: true });
      throw apiError(403, {
        detail: "Please verify your email first. We sent a 6-digit code to your inbox.",
        code: "email_not_verified",
      });
    }
    if (needsRehash(user.passwordHash)) {
      await db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, user.id));
    }
    return c.json(await startSession(db, c.var.config, user.id));
  })

  .post("/refresh-token", async (c) => {
    await enforceLimit(c, "REFRESH_LIMITER", addressKey(clientIp(c)));
    const body = await parseJson(c, refreshSchema);
    return c.json(await rotateSession(createDb(c.env), c.var.config, (body.refresh_token ?? body.token)!));
  })

  .post("/logout", async (c) => {
    const body = await c.req.json<{ refresh_token?: unknown }>().catch(() => ({}) as { refresh_token?: unknown });
    if (typeof body.refresh_token === "string" && body.refresh_token) await endSession(createDb(c.env), body.refresh_token);
    return c.body(null, 204);
  })

  .post("/forgot-password", async (c) => {
    await limitByAddress(c);
    const { email } = await parseJson(c, emailOnlySchema);
    await sendCode(c, email, "reset_password");
    return c.json({ message: CODE_SENT });
  })

  .post("/reset-password", async (c) => {
    await limitByAddress(c);
    const { email, code, new_password } = await parseJson(c, resetPasswordSchema);
    const db = createDb(c.env);
    const attempt = await countAttempt(db, "code", email);
    const user = await findUserByEmail(db, email);
    if (!user || !(await consumeCode(db, c.var.config.jwtSecret, email, "reset_password", code))) throw badRequest(INVALID_CODE);
    await forgiveAttempt(db, attempt);
    await db.batch([
      db
        .update(users)
        // The code proved the address is theirs.
        .set({ passwordHash: await hashPassword(new_password), emailVerificationStatus: "verified", updatedAt: isoNow() })
        .where(eq(users.id, user.id)),
      revokeAllSessions(db, user.id),
    ]);
    return c.json({ message: "Your password was changed. Please sign in with your new password." });
  })

  .post("/google-login", async (c) => {
    await limitByAddress(c);
    const { googleClientId, googleJwksUrl } = c.var.config;
    if (!googleClientId) throw badRequest("Google sign-in is not available");
    const { token } = await parseJson(c, googleLoginSchema);
    let claims: { sub?: string; email?: unknown; email_verified?: unknown; given_name?: unknown; family_name?: unknown };
    try {
      ({ payload: claims } = await jwtVerify(token, googleKeys(googleJwksUrl), {
        issuer: ["accounts.google.com", "https://accounts.google.com"],
        audience: googleClientId,
      }));
    } catch {
      throw unauthorized("Google login failed");
    }
    if (!claims.sub || typeof claims.email !== "string" || claims.email_verified !== true) {
      throw unauthorized("Google login failed");
    }
    const db = createDb(c.env);
    const email = claims.email.trim().toLowerCase();
    const bySub = await db.select().from(users).where(eq(users.googleSub, claims.sub)).get();
    let userId = bySub?.id;
    if (!userId) {
      const byEmail = await findUserByEmail(db, email);
      if (byEmail) {
        // Google vouches for the address: link the account and count the email as verified. If the
        // address was never verified, whoever registered it may not be its owner: their password
        // and sessions end, so only the address's real owner keeps access.
        const takeover = byEmail.emailVerificationStatus !== "verified";
        await db.batch([
          db
            .update(users)
            .set({ googleSub: claims.sub, emailVerificationStatus: "verified", ...(takeover && { passwordHash: null }), updatedAt: isoNow() })
            .where(eq(users.id, byEmail.id)),
          ...(takeover ? [revokeAllSessions(db, byEmail.id)] : []),
        ]);
        userId = byEmail.id;
      } else {
        userId = newId();
        await db.insert(users).values({
          id: userId,
          email,
          googleSub: claims.sub,
          firstName: (typeof claims.given_name === "string" && claims.given_name.slice(0, 50)) || email.split("@")[0]!.slice(0, 50),
          lastName: (typeof claims.family_name === "string" && claims.family_name.slice(0, 50)) || "",
          emailVerificationStatus: "verified",
        });
      }
    }
    return c.json(await startSession(db, c.var.config, userId));
  });

/** Sends a code when the account exists (and, for verification, is unverified); 429 within the cooldown or over the daily cap. */
async function sendCode(
  c: Parameters<typeof limitByAddress>[0],
  email: string,
  purpose: CodePurpose,
  { quietCooldown = false } = {},
) {
  const db = createDb(c.env);
  const user = await findUserByEmail(db, email);
  if (!user) return;
  if (purpose === "verify_email" && user.emailVerificationStatus === "verified") return;
  const issued = await issueCode(db, c.var.config.jwtSecret, email, purpose);
  if ("wait" in issued) {
    if (quietCooldown) return;
    throw tooManyRequests(issued.wait.seconds, issued.wait.detail);
  }
  const message =
    purpose === "verify_email"
      ? verificationCodeEmail(email, user.firstName, issued.code)
      : passwordResetEmail(email, user.firstName, issued.code);
  await sendEmail(c.env, c.var.config, message);
}

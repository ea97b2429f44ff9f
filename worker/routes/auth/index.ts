/**
 * Auth: sign-up with an emailed code, sign-in (password or emailed code), rotating refresh tokens,
 * sign-out, password reset, Google sign-in (linking an existing account only with its proof). Every route is throttled per address (sized for a campus NAT).
 */
import {
  codeLoginSchema,
  emailOnlySchema,
  googleLinkSchema,
  googleLoginSchema,
  loginSchema,
  refreshSchema,
  registerSchema,
  resetPasswordSchema,
  verifyEmailSchema,
  type AuthConfigResponse,
  type AuthResponse,
  type MessageResponse,
  type RegisterResponse,
} from "../../contract/auth";
import { EMAILED_CODE } from "../../contract/limits";
import { createRouter } from "../../lib/context";
import { badRequest } from "../../lib/errors";
import { log } from "../../lib/log";
import { parseJson } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit, limitByAddress } from "../../middleware/rate-limit";
import { googleLink, googleSignIn, register, resetPassword, sendCode, signIn, signInWithCode, verifyEmail } from "../../services/auth";
import { endSession, rotateSession } from "../../services/sessions";

const CODE_SENT = `If an account exists for this email, we sent it a ${EMAILED_CODE.length}-digit code.`;

export const authRoutes = createRouter()
  .get("/config", (c) => c.json<AuthConfigResponse>({ google_client_id: c.var.config.googleClientId || null }))

  .post("/register", async (c) => {
    await limitByAddress(c);
    const body = await parseJson(c, registerSchema);
    const userId = await register(c.var.db, c.env, c.var.config, body, addressKey(clientIp(c)));
    log.info("user_registered", { request_id: c.var.requestId, user_id: userId });
    return c.json<RegisterResponse>({ message: `Account created. We sent a ${EMAILED_CODE.length}-digit code to your email.`, user_id: userId }, 201);
  })

  .post("/send-verification-code", async (c) => {
    await limitByAddress(c);
    const { email } = await parseJson(c, emailOnlySchema);
    await sendCode(c.var.db, c.env, c.var.config, email, "verify_email", addressKey(clientIp(c)));
    return c.json<MessageResponse>({ message: CODE_SENT });
  })

  .post("/verify-email", async (c) => {
    await limitByAddress(c);
    const { email, code } = await parseJson(c, verifyEmailSchema);
    return c.json<AuthResponse>(await verifyEmail(c.var.db, c.var.config, email, code, addressKey(clientIp(c))));
  })

  .post("/login", async (c) => {
    await limitByAddress(c);
    const { email, password } = await parseJson(c, loginSchema);
    return c.json<AuthResponse>(await signIn(c.var.db, c.env, c.var.config, email, password, addressKey(clientIp(c))));
  })

  // Sign-in by emailed code: the way in when password sign-in is throttled (never blocked by it).
  .post("/send-sign-in-code", async (c) => {
    await limitByAddress(c);
    const { email } = await parseJson(c, emailOnlySchema);
    await sendCode(c.var.db, c.env, c.var.config, email, "sign_in", addressKey(clientIp(c)));
    return c.json<MessageResponse>({ message: CODE_SENT });
  })

  .post("/login-with-code", async (c) => {
    await limitByAddress(c);
    const { email, code } = await parseJson(c, codeLoginSchema);
    return c.json<AuthResponse>(await signInWithCode(c.var.db, c.var.config, email, code, addressKey(clientIp(c))));
  })

  .post("/refresh-token", async (c) => {
    await enforceLimit(c, "REFRESH_LIMITER", addressKey(clientIp(c)));
    const body = await parseJson(c, refreshSchema);
    return c.json<AuthResponse>(await rotateSession(c.var.db, c.var.config, (body.refresh_token ?? body.token)!));
  })

  .post("/logout", async (c) => {
    const body = await c.req.json<{ refresh_token?: unknown }>().catch(() => ({}) as { refresh_token?: unknown });
    if (typeof body.refresh_token === "string" && body.refresh_token) await endSession(c.var.db, body.refresh_token);
    return c.body(null, 204);
  })

  .post("/forgot-password", async (c) => {
    await limitByAddress(c);
    const { email } = await parseJson(c, emailOnlySchema);
    await sendCode(c.var.db, c.env, c.var.config, email, "reset_password", addressKey(clientIp(c)));
    return c.json<MessageResponse>({ message: CODE_SENT });
  })

  .post("/reset-password", async (c) => {
    await limitByAddress(c);
    const { email, code, new_password } = await parseJson(c, resetPasswordSchema);
    await resetPassword(c.var.db, c.env, c.var.config, email, code, new_password, addressKey(clientIp(c)));
    return c.json<MessageResponse>({ message: "Your password was changed. Please sign in with your new password." });
  })

  .post("/google-login", async (c) => {
    await limitByAddress(c);
    if (!c.var.config.googleClientId) throw badRequest("Google sign-in is not available");
    const { token } = await parseJson(c, googleLoginSchema);
    return c.json<AuthResponse>(await googleSignIn(c.var.db, c.env, c.var.config, token));
  })

  // After google-login's 409 link_required: the existing account's password or an emailed code.
  .post("/google-link", async (c) => {
    await limitByAddress(c);
    if (!c.var.config.googleClientId) throw badRequest("Google sign-in is not available");
    const { token, password, code } = await parseJson(c, googleLinkSchema);
    return c.json<AuthResponse>(await googleLink(c.var.db, c.var.config, token, { password, code }, addressKey(clientIp(c))));
  });

import { z } from "./zod";
import { EMAILED_CODE } from "./limits";
import { LIMITS } from "./limits";
import { personName, type PrivateUser } from "./users";

/** Sign-in, sign-up and code calls: one input schema per call, used by the worker and the SPA's forms. */
const email = z.string().trim().toLowerCase().pipe(z.email("Please enter a valid email address").max(254));
const password = z
  .string()
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters long`)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters long`);
export const codeSchema = z.string().regex(EMAILED_CODE.pattern, EMAILED_CODE.message);
export const phoneSchema = z
  .string()
  .trim()
  .max(LIMITS.phoneMax, `Phone number must be at most ${LIMITS.phoneMax} characters`)
  .regex(/^[0-9+()\-.\s]*$/, "Please enter a valid phone number");

export const registerSchema = z.object({
  email,
  password,
  first_name: personName("First name"),
  last_name: personName("Last name"),
  phone: phoneSchema.optional(),
  university_id: z.number().int().positive().optional(),
});
export const loginSchema = z.object({ email, password: z.string().min(1, "Password is required").max(128) });
export const emailOnlySchema = z.object({ email });
export const verifyEmailSchema = z.object({ email, code: codeSchema });
export const resetPasswordSchema = z.object({ email, code: codeSchema, new_password: password });
export const refreshSchema = z
  .object({ refresh_token: z.string().min(1).optional(), token: z.string().min(1).optional() })
  .refine((b) => b.refresh_token || b.token, { message: "refresh_token is required", path: ["refresh_token"] });
export const googleLoginSchema = z.object({ token: z.string().min(1, "No credential received from Google") });
/** POST auth/login-with-code: the code mailed by POST auth/send-sign-in-code. */
export const codeLoginSchema = z.object({ email, code: codeSchema });
/** POST auth/google-link: the Google token again and a proof of the existing account (its password or an emailed code). */
export const googleLinkSchema = z
  .object({
    token: googleLoginSchema.shape.token,
    password: z.string().min(1, "Password is required").max(128).optional(),
    code: codeSchema.optional(),
  })
  .refine((b) => !!b.password !== !!b.code, { message: "Enter your password or the emailed code", path: ["password"] });

export type RegisterInput = z.infer<typeof registerSchema>;

export interface AuthResponse {
  access_token: string;
  refresh_token: string;
  token_type: "bearer";
  user: PrivateUser;
}

export interface AuthConfigResponse {
  google_client_id: string | null;
}

/** POST auth/register. */
export interface RegisterResponse {
  message: string;
  user_id: string;
}

/** 409 of POST auth/google-login when the Google email belongs to an account not yet linked to it. */
export const GOOGLE_LINK_REQUIRED =
  "An account with this email already exists. To sign in with Google from now on, confirm it is yours once: enter its password or a code we email you.";
export interface GoogleLinkRequiredResponse {
  detail: string;
  code: "google_link_required";
  link_required: true;
  /** The existing account's email (the Google account's own address). */
  email: string;
}

/** Calls that answer with a sentence only (send code, forgot and reset password). */
export interface MessageResponse {
  message: string;
}

import { z } from "./zod";
import { LIMITS } from "./constants";
import type { PrivateUser } from "./users";

/** Sign-in, sign-up and code calls: one input schema per call, used by the worker and the SPA's forms. */
const email = z.string().trim().toLowerCase().pipe(z.email("Please enter a valid email address").max(254));
const password = z
  .string()
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters long`)
  .max(128, "Password must be at most 128 characters long");
const name = (label: string) =>
  z.string().trim().min(1, `${label} is required`).max(50, `${label} must be at most 50 characters`);
export const codeSchema = z.string().regex(/^\d{6}$/, "Please enter a 6-digit verification code");
export const phoneSchema = z
  .string()
  .trim()
  .max(30, "Phone number must be at most 30 characters")
  .regex(/^[0-9+()\-.\s]*$/, "Please enter a valid phone number");

export const registerSchema = z.object({
  email,
  password,
  first_name: name("First name"),
  last_name: name("Last name"),
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

/** Calls that answer with a sentence only (send code, forgot and reset password). */
export interface MessageResponse {
  message: string;
}
